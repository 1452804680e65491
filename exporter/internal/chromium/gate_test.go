package chromium_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/curex/curex/exporter/internal/chromium"
)

// pngBytes is a 40×40 PNG of one color.
func pngBytes(t *testing.T, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 40, 40))
	for y := range 40 {
		for x := range 40 {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pdfImageCount is the number of 40×40 images (the size of pngBytes)
// pdfimages -list finds in pdf: Chromium's own icons of a broken image or
// frame are other sizes.
func pdfImageCount(t *testing.T, pdf []byte) int {
	t.Helper()
	bin := tool(t, "pdfimages")
	p := filepath.Join(t.TempDir(), "out.pdf")
	if err := os.WriteFile(p, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.Lines(run(t, bin, "-list", p)) {
		f := strings.Fields(line)
		if len(f) > 4 && f[2] == "image" && f[3] == "40" && f[4] == "40" {
			n++
		}
	}
	return n
}

// writeFile writes data at dir/name, making the folders.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPDFReadsOnlyItsFolder is issue 23's first reproduction at the
// browser: a handbook that points at a file outside its folder, by a
// relative path, an absolute path, a file:// URL and a symbolic link,
// prints its own image and none of the others.
func TestPDFReadsOnlyItsFolder(t *testing.T) {
	b := browser(t)
	root := t.TempDir()
	private := writeFile(t, root, "secret/private.png", pngBytes(t, color.RGBA{255, 0, 0, 255}))
	book := filepath.Join(root, "out", "c", "v", "en")
	writeFile(t, book, "own.png", pngBytes(t, color.RGBA{0, 0, 255, 255}))
	if err := os.Symlink(private, filepath.Join(book, "link.png")); err != nil {
		t.Fatal(err)
	}
	html := fmt.Sprintf(`<!DOCTYPE html><html><body><p>Hello</p>
<img src="own.png" alt="own">
<img src="../../../secret/private.png" alt="relative">
<img src="%s" alt="absolute">
<img src="file://%s" alt="file URL">
<img src="link.png" alt="symbolic link">
<iframe src="../../../secret/private.png"></iframe>
</body></html>`, private, private)
	htmlPath := writeFile(t, book, "handbook.html", []byte(html))
	pdf, err := b.PDF(ctxFor(t), htmlPath, chromium.PDFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := pdfImageCount(t, pdf); n != 1 {
		t.Errorf("the PDF holds %d images, want 1 (its own): a file outside its folder was read", n)
	}
}

// TestPDFRemoteImageGoesThroughRemote is issue 23's second reproduction at
// the browser: an image on a loopback server is never fetched by
// Chromium, redirects included; with Access.Remote, Remote answers it in
// Chromium's place.
func TestPDFRemoteImageGoesThroughRemote(t *testing.T) {
	b := browser(t)
	img := pngBytes(t, color.RGBA{0, 128, 0, 255})
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/redirect.png" {
			http.Redirect(w, r, "/img.png", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(img)
	}))
	t.Cleanup(srv.Close)
	html := fmt.Sprintf(`<!DOCTYPE html><html><body><p>Hello</p>
<img src="%[1]s/img.png" alt="remote"><img src="%[1]s/redirect.png" alt="redirect">
<link rel="stylesheet" href="%[1]s/style.css"><iframe src="%[1]s/frame.html"></iframe>
<img src="http://user:pw@%[2]s/cred.png" alt="credentials">
</body></html>`, srv.URL, strings.TrimPrefix(srv.URL, "http://"))
	htmlPath := page(t, html)

	for _, tc := range []struct {
		name       string
		remote     bool
		wantImages int
	}{
		{"no remote", false, 0},
		{"remote answers", true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits.Store(0)
			var asked atomic.Int64
			o := chromium.PDFOptions{}
			if tc.remote {
				o.Access.Remote = func(_ context.Context, u string) ([]byte, error) {
					asked.Add(1)
					if strings.HasSuffix(u, ".png") {
						return img, nil
					}
					return nil, fmt.Errorf("not an image")
				}
			}
			pdf, err := b.PDF(ctxFor(t), htmlPath, o)
			if err != nil {
				t.Fatal(err)
			}
			if n := hits.Load(); n != 0 {
				t.Errorf("the loopback server got %d requests, want none", n)
			}
			if n := pdfImageCount(t, pdf); n != tc.wantImages {
				t.Errorf("the PDF holds %d images, want %d", n, tc.wantImages)
			}
			if !tc.remote && asked.Load() != 0 {
				t.Errorf("Remote asked %d times", asked.Load())
			}
		})
	}
}
