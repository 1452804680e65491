package exporter_test

import (
	"archive/zip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
)

// TestEPUBFormat exports two sample exports with the website and the
// epub format: each has its book where the manifest says, a zip whose
// first entry is the mimetype, and a contents page that offers it.
func TestEPUBFormat(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	cfg := exporter.Config{BaseURL: url, Token: token, Output: filepath.Join(t.TempDir(), "out"), Limits: ratelimit.Limits{},
		Formats: []string{"html", "epub"}, Filter: fetch.Filter{Curricula: []string{"101"}, Variants: []string{"base"}, Locales: []string{"en", "ar"}}}
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(cfg.Output, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m output.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Exports) != 2 {
		t.Fatalf("%d exports, want 2", len(m.Exports))
	}
	for _, e := range m.Exports {
		if want := "algebra-1/base/" + e.Locale + "/algebra-1-base-" + e.Locale + ".epub"; e.EPUB != want {
			t.Errorf("%s: epub %q, want %q", e.Locale, e.EPUB, want)
		}
		zr, err := zip.OpenReader(filepath.Join(cfg.Output, filepath.FromSlash(e.EPUB)))
		if err != nil {
			t.Fatal(err)
		}
		if zr.File[0].Name != "mimetype" {
			t.Errorf("%s: first entry %s", e.EPUB, zr.File[0].Name)
		}
		_ = zr.Close()
		page, err := os.ReadFile(filepath.Join(cfg.Output, filepath.FromSlash(e.HTML)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), `href="`+filepath.Base(e.EPUB)+`"`) {
			t.Errorf("%s does not link the book", e.HTML)
		}
	}
}
