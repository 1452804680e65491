package exporter_test

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/serve"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
)

// outline is a format of this test's own: a plain-text outline of each
// tree, one title a line. Nothing outside this file knows it.
type outline struct{}

// outlinePath is where a tree's outline goes.
func outlinePath(e model.Export) string { return layout.BundleDir(e) + "/outline.txt.cx" }

// outlineType is the outline's media type, which no table of curex has.
const outlineType = "text/x-curex-outline; charset=utf-8"

func (outline) Name() string { return "outline" }

func (outline) Render(_ context.Context, w render.Writer, t *render.Tree, _ *output.ManifestExport) error {
	var b strings.Builder
	t.Walk(func(n *model.Node) bool {
		b.WriteString(n.Title + "\n")
		return true
	})
	return w.Write(outlinePath(t.Export), []byte(b.String()))
}

// TestANewFormatIsData registers a format of its own beside curex's and
// finds it exported, listed in the manifest under its name, offered on
// the website's contents pages with its label and media type, and
// served by `curex serve` with that media type, with no line of curex
// changed for it (issue 24, part 1).
func TestANewFormatIsData(t *testing.T) {
	t.Parallel()
	formats := append(exporter.Formats().Formats(), render.Format{
		Name: "outline",
		New:  func(context.Context, render.Options) (render.Renderer, error) { return outline{}, nil },
		Path: outlinePath,
		Download: &render.Download{Path: outlinePath, Ext: ".cx", Type: outlineType,
			LabelKey: "download_outline", Label: "Outline (text)", Rank: 10},
		Probe: func() error { return nil }, // `curex demo` writes it too
	})
	reg := render.NewRegistry(formats...)
	if probed := reg.Probed(func(string, error) {}); !slices.Contains(probed, "outline") {
		t.Errorf("the demo's formats %v lack the outline", probed)
	}
	_, url := sampleServer(t, sandbox.Options{})
	cfg := exporter.Config{BaseURL: url, Token: token, Output: filepath.Join(t.TempDir(), "out"), Limits: ratelimit.Limits{},
		Registry: reg, Formats: []string{"html", "json", "outline"},
		Filter: fetch.Filter{Curricula: []string{"101"}, Variants: []string{"base"}, Locales: []string{"en", "ar"}}}
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(cfg.Output, layout.Manifest))
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
	h, err := serve.New(cfg.Output, serve.Options{Types: reg.MediaTypes()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, e := range m.Exports {
		want := "bundles/algebra-1/base/" + e.Locale + "/outline.txt.cx"
		if got := e.Path("outline"); got != want {
			t.Errorf("%s: manifest lists outline %q, want %q", e.Locale, got, want)
		}
		if !strings.Contains(string(data), `"outline": "`+want+`"`) {
			t.Errorf("manifest.json does not list %s under the format's name", want)
		}
		text, err := os.ReadFile(filepath.Join(cfg.Output, filepath.FromSlash(want)))
		if err != nil || !strings.Contains(string(text), "\n") {
			t.Errorf("%s: %q, %v", want, text, err)
		}
		page, err := os.ReadFile(filepath.Join(cfg.Output, filepath.FromSlash(e.HTML)))
		if err != nil {
			t.Fatal(err)
		}
		link := `<a class="download download--outline" href="../../../bundles/algebra-1/base/` + e.Locale +
			`/outline.txt.cx" type="` + outlineType + `" download>Outline (text)</a>`
		if !strings.Contains(string(page), link) {
			t.Errorf("%s: the contents page does not offer the outline as %s", e.Locale, link)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/"+want, nil))
		body, _ := io.ReadAll(rec.Result().Body)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != outlineType || string(body) != string(text) {
			t.Errorf("serve %s: %d %q, %d bytes", want, rec.Code, rec.Header().Get("Content-Type"), len(body))
		}
	}
}

// TestLinksBetweenFormatsFollowTheRegistry: the handbook and the
// cartridge link back to the website when a site format is selected,
// whatever its name, as the registry declares it (Format.NewSite); on
// 953dab7 they asked for a format named "html" (Options.Has), so a
// build that names its website otherwise lost the links.
func TestLinksBetweenFormatsFollowTheRegistry(t *testing.T) {
	t.Parallel()
	var formats []render.Format
	for _, f := range exporter.Formats().Formats() {
		if f.Name == "html" {
			f.Name = "web"
		}
		formats = append(formats, f)
	}
	reg := render.NewRegistry(formats...)
	_, url := sampleServer(t, sandbox.Options{})
	const siteURL = "https://curricula.example.org/"
	tests := []struct {
		name    string
		formats []string
		linked  bool
	}{
		{"with the website", []string{"web", "handbook", "cartridge"}, true},
		{"without it", []string{"handbook", "cartridge"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := exporter.Config{BaseURL: url, Token: token, Output: filepath.Join(t.TempDir(), "out"), Limits: ratelimit.Limits{},
				Registry: reg, Formats: tc.formats, SiteURL: siteURL,
				Filter: fetch.Filter{Curricula: []string{"101"}, Variants: []string{"base"}, Locales: []string{"en"}}}
			if _, err := exporter.Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			e := model.Export{CurriculumSlug: "algebra-1", VariantSlug: "base", LocaleSlug: "en"}
			book, err := os.ReadFile(filepath.Join(cfg.Output, filepath.FromSlash(layout.Handbook(e))))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(book), `class="hb-site-nav"`); got != tc.linked {
				t.Errorf("handbook links back to the website: %v, want %v", got, tc.linked)
			}
			if got := zipHolds(t, filepath.Join(cfg.Output, filepath.FromSlash(layout.Cartridge(e))), siteURL); got != tc.linked {
				t.Errorf("cartridge links to the website: %v, want %v", got, tc.linked)
			}
		})
	}
}

// zipHolds reports whether a file of the zip archive at name holds s.
func zipHolds(t *testing.T, name, s string) bool {
	t.Helper()
	z, err := zip.OpenReader(name)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	for _, f := range z.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), s) {
			return true
		}
	}
	return false
}

// TestEveryFormatIsWhereItSays: each format of the registry, exported
// alone, writes its files where its entry says (Format.Path, listed in
// the manifest under its name) and its download where Format.Download
// says, with the extension and the media type it declares, as `curex
// serve` sends it. The PDF, which needs Chromium, is left out.
func TestEveryFormatIsWhereItSays(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	reg := exporter.Formats()
	e := model.Export{CurriculumSlug: "algebra-1", VariantSlug: "base", LocaleSlug: "en"}
	for _, f := range reg.Formats() {
		if f.Name == "pdf" {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			cfg := exporter.Config{BaseURL: url, Token: token, Output: filepath.Join(t.TempDir(), "out"), Limits: ratelimit.Limits{},
				Formats: []string{f.Name}, Filter: fetch.Filter{Curricula: []string{"101"}, Variants: []string{"base"}, Locales: []string{"en"}}}
			if _, err := exporter.Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(cfg.Output, layout.Manifest))
			if err != nil {
				t.Fatal(err)
			}
			var m output.Manifest
			if err := json.Unmarshal(data, &m); err != nil || len(m.Exports) != 1 {
				t.Fatalf("manifest: %d exports, %v", len(m.Exports), err)
			}
			if got, want := m.Exports[0].Path(f.Name), f.Path(e); got != want {
				t.Errorf("manifest lists %q, want %q", got, want)
			}
			if _, err := os.Stat(filepath.Join(cfg.Output, filepath.FromSlash(f.Path(e)))); err != nil {
				t.Errorf("no files where the format says: %v", err)
			}
			d := f.Download
			if d == nil {
				return
			}
			p := d.Path(e)
			if _, err := os.Stat(filepath.Join(cfg.Output, filepath.FromSlash(p))); err != nil {
				t.Errorf("no download where the format says: %v", err)
			}
			if !strings.HasSuffix(p, d.Ext) {
				t.Errorf("download %s does not end in %s", p, d.Ext)
			}
			if ct, _, _ := strings.Cut(serve.ContentType(p), ";"); ct != d.Type {
				t.Errorf("curex serve sends %s as %s, the format says %s", p, ct, d.Type)
			}
		})
	}
}

// stamp is a deferred format of this test's own: Start writes a stamp of
// the run into each export's bundle, or, when late, Wait says the export's
// stamp did not come in time.
type stamp struct {
	run  string
	late bool
	mu   sync.Mutex
	todo []render.Late
}

// stampPath is where an export's stamp goes.
func stampPath(e model.Export) string { return layout.BundleDir(e) + "/stamp.txt" }

func (*stamp) Name() string { return "stamp" }

func (*stamp) Render(context.Context, render.Writer, *render.Tree, *output.ManifestExport) error {
	return nil
}

func (s *stamp) Start(_ context.Context, w render.Writer, e model.Export) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.late {
		s.todo = append(s.todo, render.Late{Format: "stamp", Export: e, Err: errors.New("stamp of " + e.Dir() + ": too late")})
		return
	}
	if err := w.Write(stampPath(e), []byte(s.run)); err != nil {
		s.todo = append(s.todo, render.Late{Format: "stamp", Export: e, Err: err})
	}
}

func (s *stamp) Wait() ([]render.Late, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	late := s.todo
	s.todo = nil
	return late, nil
}

// TestALateFileOfAnyFormatKeepsItsPrevious: a deferred format of a test's
// own whose file does not come in time fails its export alone, which
// keeps that format's previous file (listed in the manifest, state kept)
// or, with none, lists none (state missing), as the PDF's late prints
// do. On b489b29 the run carried over the entry's PDF whatever the late
// format was.
func TestALateFileOfAnyFormatKeepsItsPrevious(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	registry := func(s *stamp) *render.Registry {
		return render.NewRegistry(append(exporter.Formats().Formats(), render.Format{Name: "stamp", Path: stampPath, FinishesLate: true,
			New: func(context.Context, render.Options) (render.Renderer, error) { return s, nil }})...)
	}
	export := func(out string, s *stamp) (*exporter.Summary, output.ManifestExport) {
		t.Helper()
		cfg := exporter.Config{BaseURL: url, Token: token, Output: out, Limits: ratelimit.Limits{}, Generator: "curex " + s.run,
			Registry: registry(s), Formats: []string{"json", "stamp"},
			Filter: fetch.Filter{Curricula: []string{"101"}, Variants: []string{"base"}, Locales: []string{"en"}}}
		sum, err := exporter.Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(out, layout.Manifest))
		if err != nil {
			t.Fatal(err)
		}
		var m output.Manifest
		if err := json.Unmarshal(data, &m); err != nil || len(m.Exports) != 1 {
			t.Fatalf("manifest: %v, %d exports", err, len(m.Exports))
		}
		return sum, m.Exports[0]
	}
	const want = "bundles/algebra-1/base/en/stamp.txt"
	out := filepath.Join(t.TempDir(), "out")
	if sum, e := export(out, &stamp{run: "one"}); sum.Partial() || e.Path("stamp") != want || e.State != output.StateOK {
		t.Fatalf("first run: %d failures, stamp %q, state %s", len(sum.Failures), e.Path("stamp"), e.State)
	}
	tests := []struct {
		name, out, state, path, data string
		kept                         bool
	}{
		{"previous stamp", out, output.StateKept, want, "one", true},
		{"no previous stamp", filepath.Join(t.TempDir(), "fresh"), output.StateMissing, "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sum, e := export(tc.out, &stamp{run: "two", late: true})
			if len(sum.Failures) != 1 || sum.Failures[0].Kept != tc.kept || !strings.Contains(sum.Failures[0].Err.Error(), "too late") {
				t.Fatalf("failures %+v, want one, kept %v", sum.Failures, tc.kept)
			}
			if e.State != tc.state || e.Path("stamp") != tc.path || e.JSON == "" || !strings.Contains(e.Error, "too late") {
				t.Errorf("entry: state %s, stamp %q, json %q, error %q; want %s, %q", e.State, e.Path("stamp"), e.JSON, e.Error, tc.state, tc.path)
			}
			data, err := os.ReadFile(filepath.Join(tc.out, filepath.FromSlash(want)))
			if string(data) != tc.data || (err == nil) != tc.kept {
				t.Errorf("stamp %q, %v; want %q", data, err, tc.data)
			}
		})
	}
}
