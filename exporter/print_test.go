package exporter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/png"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// needPrinting skips a test that prints PDFs when there is no Chromium or
// no pdfimages, or fails it when CUREX_REQUIRE_TOOLS=1.
func needPrinting(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("prints PDFs with Chromium")
	}
	if _, err := chromium.Find(""); err != nil {
		if os.Getenv("CUREX_REQUIRE_TOOLS") == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	need(t, "pdfimages", "poppler-utils")
}

// oddPNG is a PNG of a size no sandbox image has (w×h), so pdfimages
// tells whether a PDF holds it.
func oddPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pdfHasImage reports whether the PDF at path holds an image of w×h
// pixels.
func pdfHasImage(t *testing.T, path string, w, h int) bool {
	t.Helper()
	for line := range strings.Lines(run(t, "pdfimages", "-list", path)) {
		f := strings.Fields(line)
		if len(f) > 4 && f[2] == "image" && f[3] == strconv.Itoa(w) && f[4] == strconv.Itoa(h) {
			return true
		}
	}
	return false
}

// describe sets the description of Earth Science's first lesson to md.
func describe(t *testing.T, h *sandbox.Handler, md string) {
	t.Helper()
	err := h.Edit(func(ds *dataset.Dataset) error {
		for i := range ds.Curricula {
			if c := &ds.Curricula[i]; c.ID == "301" {
				raw, err := json.Marshal(md)
				if err != nil {
					return err
				}
				n := &c.Nodes[1].Children[0]
				if n.Attributes == nil {
					n.Attributes = map[string]json.RawMessage{}
				}
				n.Attributes["description"] = raw
				return nil
			}
		}
		return errors.New("no Earth Science")
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPrintReadsNoFileOutsideTheHandbook is issue 23's reproduction: a
// description holding ![x](../../…/private.png) and ![x](/abs/path/
// private.png), exported with the default settings and --formats
// handbook,pdf, put the export machine's file into the published PDF.
// Now neither the handbook nor the PDF shows it.
func TestPrintReadsNoFileOutsideTheHandbook(t *testing.T) {
	t.Parallel()
	needPrinting(t)
	private := filepath.Join(t.TempDir(), "private.png")
	if err := os.WriteFile(private, oddPNG(t, 37, 23), 0o644); err != nil {
		t.Fatal(err)
	}
	abs := filepath.ToSlash(private)
	up := strings.Repeat("../", 20) + strings.TrimPrefix(abs, "/")
	h, url := sampleServer(t, sandbox.Options{})
	describe(t, h, "Relative: ![relative]("+up+")\n\nAbsolute: ![absolute]("+abs+")\n\nURL: ![file](file://"+abs+")")
	out := t.TempDir()
	var logs bytes.Buffer
	cfg := exporter.Config{BaseURL: url, Token: earthToken, Output: out, Limits: ratelimit.Limits{},
		Formats: []string{"handbook", "pdf"}, AllowPrivateAssets: true, Filter: fetch.Filter{Locales: []string{"en"}},
		Log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	sum, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.PDFsPrinted != 1 {
		t.Fatalf("printed %d PDFs, want 1", sum.PDFsPrinted)
	}
	book := filepath.Join(out, "earth-science", "base", "en")
	if pdfHasImage(t, filepath.Join(book, "handbook.pdf"), 37, 23) {
		t.Error("handbook.pdf holds private.png, a file of the export machine")
	}
	if !pdfHasImage(t, filepath.Join(book, "handbook.pdf"), 240, 240) {
		t.Error("handbook.pdf lost its own image (earth-layers, 240×240)")
	}
	hb, err := os.ReadFile(filepath.Join(book, "handbook.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(hb), "private.png\"") {
		t.Errorf("handbook.html points at private.png:\n%s", excerpt(string(hb), "private.png"))
	}
	if !strings.Contains(string(hb), "Relative: relative") {
		t.Errorf("handbook.html does not show the dropped image's alt text:\n%s", excerpt(string(hb), "Relative"))
	}
	// The renderer dropped the path images, so Chromium asked for
	// nothing the gate had to refuse: a normal print logs no refusal.
	if strings.Contains(logs.String(), "request refused") {
		t.Errorf("the print logged refused requests:\n%s", logs.String())
	}
}

// TestPrintRemoteAssetsKeepTheAddressPolicy is issue 23's reproduction
// with --assets remote: Chromium fetched an image from a loopback server,
// past the image fetcher's address policy. Now the server gets no request
// and the PDF has no image, unless --allow-private-assets.
func TestPrintRemoteAssetsKeepTheAddressPolicy(t *testing.T) {
	t.Parallel()
	needPrinting(t)
	img := oddPNG(t, 41, 29)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/hop.png" {
			http.Redirect(w, r, "/private.png", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(img)
	}))
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		name         string
		allowPrivate bool
	}{
		{"default", false},
		{"allow-private-assets", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits.Store(0)
			h, url := sampleServer(t, sandbox.Options{})
			describe(t, h, "Loopback: ![inside]("+srv.URL+"/private.png) ![hop]("+srv.URL+"/hop.png)")
			out := t.TempDir()
			var logs bytes.Buffer
			cfg := exporter.Config{BaseURL: url, Token: earthToken, Output: out, Limits: ratelimit.Limits{}, Assets: exporter.AssetsRemote,
				AllowPrivateAssets: tc.allowPrivate, Formats: []string{"handbook", "pdf"}, Filter: fetch.Filter{Locales: []string{"en"}},
				Log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))}
			if _, err := exporter.Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			pdf := filepath.Join(out, "earth-science", "base", "en", "handbook.pdf")
			got, n := pdfHasImage(t, pdf, 41, 29), hits.Load()
			if tc.allowPrivate {
				if !got || n == 0 {
					t.Errorf("with --allow-private-assets: image in the PDF %v, requests %d; want it, fetched", got, n)
				}
				return
			}
			if n != 0 {
				t.Errorf("the loopback server got %d requests, want none", n)
			}
			if got {
				t.Error("handbook.pdf holds the loopback server's image")
			}
			// Each refused URL is logged once, with the fetcher's reason.
			for _, u := range []string{srv.URL + "/private.png", srv.URL + "/hop.png"} {
				if n := strings.Count(logs.String(), "url="+u+" "); n != 1 {
					t.Errorf("%s logged %d times as refused, want once:\n%s", u, n, logs.String())
				}
			}
			if !strings.Contains(logs.String(), "address not allowed") {
				t.Errorf("the log does not say why:\n%s", logs.String())
			}
		})
	}
}
