package a11y_test

import (
	"context"
	"flag"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/chromium"
)

var screenshots = flag.String("screenshots", "", "write the README's screenshots into this folder (make screenshots)")

// TestScreenshots renews the screenshots the README shows, from the sample
// export, when -screenshots names a folder: node pages at desktop and phone
// width, light and dark, one right to left, the landing matrix, the
// contents page, the catalog's search results, the shots of readerShots
// and phoneShots (the drawer open, the matrix as a list), and the first
// pages of the largest handbook's PDF.
func TestScreenshots(t *testing.T) {
	if *screenshots == "" {
		t.Skip("no -screenshots folder")
	}
	dir, err := filepath.Abs(*screenshots)
	if err != nil {
		t.Fatal(err)
	}
	site := exportSample(t, "html", "json", "markdown", "handbook", "pdf")
	b := launch(t)
	shots := []struct {
		name, page string
		o          chromium.ScreenshotOptions
	}{
		{"node-desktop-light", "algebra-1/texas/es/alg-u1-l1/index.html", chromium.ScreenshotOptions{Width: 1280, Height: 800}},
		{"node-desktop-dark", "introduction-to-computer-science/base/en/cs-m2-l3/index.html", chromium.ScreenshotOptions{Width: 1280, Height: 800, Dark: true}},
		{"node-phone-light", "algebra-1/texas/es/alg-u1-l1/index.html", chromium.ScreenshotOptions{Width: 390, Height: 844, Scale: 2, Mobile: true}},
		{"node-phone-dark", "introduction-to-computer-science/base/en/cs-m2-l3/index.html", chromium.ScreenshotOptions{Width: 390, Height: 844, Scale: 2, Mobile: true, Dark: true}},
		{"node-phone-rtl", "algebra-1/houston-isd/ar/alg-u1-l1/index.html", chromium.ScreenshotOptions{Width: 390, Height: 844, Scale: 2, Mobile: true}},
		{"math-desktop", "algebra-1/base/en/alg-app-a/index.html", chromium.ScreenshotOptions{Width: 1280, Height: 1150}},
		{"landing", "algebra-1/index.html", chromium.ScreenshotOptions{Width: 1280, Height: 800}},
		{"toc", "algebra-1/houston-isd/es/index.html", chromium.ScreenshotOptions{Width: 1280, Height: 800}},
		{"search", "index.html?q=coefficient", chromium.ScreenshotOptions{Width: 1280, Height: 800}},
	}
	for _, s := range shots {
		page, query, _ := strings.Cut(s.page, "?") // ?q= runs a search as the page loads
		u := (&url.URL{Scheme: "file", Path: filepath.Join(site, filepath.FromSlash(page)), RawQuery: query}).String()
		png, err := b.Screenshot(context.Background(), u, s.o)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, s.name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	readerShots(t, b, site, dir)
	phoneShots(t, b, site, dir)
	// The largest variant × locale of the sample: Houston ISD (28 nodes).
	pdf := filepath.Join(site, "algebra-1", "houston-isd", "es", "handbook.pdf")
	cmd := exec.Command("pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "4", pdf, filepath.Join(dir, "handbook-page"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, out)
	}
}
