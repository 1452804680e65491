package exporter_test

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
)

// TestEveryFormatShowsImagesAlone: issue 25 item 5. Which formats show
// images was a hand-written list (html, handbook, pdf) that forgot the
// book and the cartridge: --formats epub alone wrote books without a
// single image, against 6 with html,epub. Every format the registry says
// shows images now shows as many alone as in company, read from the
// files it writes.
func TestEveryFormatShowsImagesAlone(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	reg := exporter.Formats()
	for _, name := range reg.Names() {
		if name == "pdf" || !reg.Any([]string{name}, render.ShowsImages) {
			continue // the PDF has its own test with Chromium (TestPDFHoldsContentImages)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			alone := imagesShown(t, url, name, []string{name})
			company := imagesShown(t, url, name, []string{"html", "json", name})
			if alone == 0 || alone != company {
				t.Errorf("%s shows %d images alone and %d with html and json; want the same, above 0", name, alone, company)
			}
		})
	}
}

// imagesShown exports Earth Science (whose lessons show the sandbox's
// images) in formats and counts the images format's files show: the
// image files its zipped packages hold, or the local images its pages
// refer to.
func imagesShown(t *testing.T, url, format string, formats []string) int {
	t.Helper()
	out := t.TempDir()
	cfg := exporter.Config{BaseURL: url, Token: earthToken, Output: out, CacheDir: t.TempDir(), Limits: ratelimit.Limits{},
		Formats: formats, AllowPrivateAssets: true}
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	n := 0
	for p, data := range relFiles(t, out) {
		switch {
		case format == "epub" && strings.HasSuffix(p, ".epub"), format == "cartridge" && strings.HasSuffix(p, ".imscc"):
			zr, err := zip.OpenReader(filepath.Join(out, filepath.FromSlash(p)))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range zr.File {
				if strings.HasSuffix(f.Name, ".png") {
					n++
				}
			}
			_ = zr.Close()
		case format == "handbook" && strings.HasSuffix(p, "/handbook.html"), format == "html" && strings.HasSuffix(p, "/index.html"):
			n += strings.Count(data, `assets/content/`)
		}
	}
	return n
}

// TestFormatAloneKeepsItsFiles: which formats write into the export's own
// folder was the same kind of list (html, handbook, pdf), so an export
// that failed with --formats epub alone did not carry that folder over,
// and lost its previous book. Each format that writes there, alone, keeps
// every failed export's previous files.
func TestFormatAloneKeepsItsFiles(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	for _, name := range []string{"epub", "handbook", "cartridge"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "out")
			cfg := exporter.Config{BaseURL: url, Token: token, Output: out, CacheDir: t.TempDir(), Limits: ratelimit.Limits{},
				Concurrency: 1, Formats: []string{name}}
			if _, err := exporter.Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			// A new cache makes every tree new to the run: the budget
			// runs out after 10 of the 28, which keep their previous files.
			cfg.CacheDir, cfg.MaxRequests = t.TempDir(), 16
			sum, err := exporter.Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if sum.NotFetched == 0 {
				t.Fatalf("every tree was fetched (%d written): the test proves nothing", sum.Written)
			}
			f, err := os.Open(filepath.Join(out, output.ManifestName))
			if err != nil {
				t.Fatal(err)
			}
			m, err := output.ReadManifest(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			kept := 0
			for _, e := range m.Exports {
				main := map[string]string{"epub": e.EPUB, "handbook": e.Handbook, "cartridge": e.Cartridge}[name]
				if main == "" {
					t.Errorf("%s/%s/%s: no %s in the manifest", e.CurriculumID, e.Variant, e.Locale, name)
					continue
				}
				if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(main))); err != nil {
					t.Errorf("%s (%s): %v", main, e.State, err)
				}
				if e.State == output.StateKept {
					kept++
				}
			}
			if kept == 0 {
				t.Error("no export was kept: the test proves nothing")
			}
		})
	}
}
