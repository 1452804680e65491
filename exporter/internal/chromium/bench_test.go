package chromium_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/curex/curex/exporter/internal/chromium"
	hb "github.com/curex/curex/exporter/internal/render/handbook"
	"github.com/curex/curex/exporter/internal/testtrees"
)

// pageCount counts the page objects of a PDF.
func pageCount(pdf []byte) int {
	return bytes.Count(pdf, []byte("/Type /Page\n")) + bytes.Count(pdf, []byte("/Type /Page ")) + bytes.Count(pdf, []byte("/Type /Page>")) + bytes.Count(pdf, []byte("/Type /Page/"))
}

// BenchmarkPDF prints handbooks of synthetic trees (with an outline, as
// --formats pdf does) and reports the time per 100 pages.
func BenchmarkPDF(b *testing.B) {
	br := browser(b)
	r, err := hb.New(hb.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, nodes := range []int{100, 1000} {
		b.Run(strconv.Itoa(nodes)+"nodes", func(b *testing.B) {
			set := testtrees.Synthetic(b, "curricula=1,variants=0,locales=1,depth=3,nodes="+strconv.Itoa(nodes))
			html, err := r.Render(set.Trees[0].PublishedOnly(), hb.Info{PDF: true})
			if err != nil {
				b.Fatal(err)
			}
			path := filepath.Join(b.TempDir(), "handbook.html")
			if err := os.WriteFile(path, html, 0o600); err != nil {
				b.Fatal(err)
			}
			pages := 0
			for b.Loop() {
				pdf, err := br.PDF(context.Background(), path, chromium.PDFOptions{Outline: true})
				if err != nil {
					b.Fatal(err)
				}
				pages = pageCount(pdf)
			}
			if pages == 0 {
				b.Fatal("no pages found in the PDF")
			}
			b.ReportMetric(float64(pages), "pages")
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/float64(pages)*100, "s/100pages")
		})
	}
}
