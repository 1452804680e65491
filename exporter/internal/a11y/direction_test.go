package a11y_test

import (
	"archive/zip"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/curex/curex/exporter/internal/chromium"
)

// TestRightToLeftBooksKeepCodeLeftToRight: issue 25 item 4. In the Arabic
// EPUB books and cartridges of the sample, code blocks ran right to left
// (3(x + 4) - 5 = 19 read 5 = 19 - (x + 4)3): the website's stylesheet
// kept code left to right, the book's and the cartridge's had no such
// rule. In each right-to-left book and cartridge, the first page that
// holds a code block is opened in Chromium (a browser visit costs about a
// second; the pages share one stylesheet), and its code must read left to
// right.
func TestRightToLeftBooksKeepCodeLeftToRight(t *testing.T) {
	if testing.Short() {
		t.Skip("exports the sample and runs a browser")
	}
	b := launch(t)
	site := exportSample(t, "epub", "cartridge")
	var packages []string
	for _, pattern := range []string{"*/*/ar/*.epub", "bundles/*/*/ar/*.imscc"} {
		found, err := filepath.Glob(filepath.Join(site, pattern))
		if err != nil {
			t.Fatal(err)
		}
		if len(found) == 0 {
			t.Fatalf("the sample has no Arabic %s", filepath.Ext(pattern))
		}
		packages = append(packages, found...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	checked := 0
	for _, pkg := range packages {
		dir := unzip(t, pkg)
		page := ""
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".xhtml") || strings.HasSuffix(p, ".html")) {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil || !strings.Contains(string(data), "<pre") || !strings.Contains(string(data), `dir="rtl"`) {
				return err
			}
			page, _ = filepath.Rel(dir, p)
			return fs.SkipAll
		})
		if err != nil {
			t.Fatal(err)
		}
		if page == "" {
			continue
		}
		checked++
		err = b.Visit(ctx, fileURL(dir, page), chromium.ScreenshotOptions{}, func(tab context.Context) error {
			got, err := chromedp.Run(tab, chromedp.Evaluate[[]string](
				`[...document.querySelectorAll("pre, pre code")].map(e => getComputedStyle(e).direction + " " + getComputedStyle(e).unicodeBidi)`))
			if err != nil {
				return err
			}
			for _, g := range got {
				if g != "ltr isolate" {
					t.Errorf("%s: %s: a code block's direction and bidi are %q, want ltr isolate", filepath.Base(pkg), page, g)
					break
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked == 0 {
		t.Fatal("no right-to-left page of the sample's books and cartridges holds a code block")
	}
	t.Logf("code checked on a right-to-left page of %d of %d packages", checked, len(packages))
}

// unzip extracts the zip archive name into a new folder and returns it.
func unzip(t *testing.T, name string) string {
	t.Helper()
	zr, err := zip.OpenReader(name)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	dir := t.TempDir()
	for _, f := range zr.File {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(p, dir+string(filepath.Separator)) || strings.HasSuffix(f.Name, "/") {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
