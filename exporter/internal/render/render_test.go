package render_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/html"
	"github.com/curex/curex/exporter/internal/render/jsonbundle"
	"github.com/curex/curex/exporter/internal/render/markdown"
	"github.com/curex/curex/exporter/internal/setting"
)

// registry is a registry of two real tree formats and a site format.
func registry() *render.Registry {
	return render.NewRegistry(
		render.Format{Name: "html", Default: true, NewSite: html.NewSite},
		render.Format{Name: "json", Default: true, New: jsonbundle.NewFormat},
		render.Format{Name: "markdown", New: markdown.NewFormat},
	)
}

func TestRegistryCheck(t *testing.T) {
	tests := []struct {
		names   []string
		unknown string // "" when every name is known
	}{
		{names: nil},
		{names: []string{"html", "json", "markdown"}},
		{names: []string{"json", "epub"}, unknown: "epub"},
		{names: []string{"JSON"}, unknown: "JSON"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.names, ","), func(t *testing.T) {
			err := registry().Check(tc.names)
			if tc.unknown == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			se, ok := setting.Of(err)
			if !ok || se.Name != setting.Formats {
				t.Fatalf("error %v names no setting formats", err)
			}
			for _, want := range []string{`"` + tc.unknown + `"`, "known: html, json, markdown"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}

func TestRegistryNamesAndDefaults(t *testing.T) {
	r := registry()
	if got, want := r.Names(), []string{"html", "json", "markdown"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	if got, want := r.Defaults(), []string{"html", "json"}; !slices.Equal(got, want) {
		t.Errorf("Defaults() = %v, want %v", got, want)
	}
}

// memory keeps the files written to it.
type memory map[string][]byte

func (m memory) Write(rel string, data []byte) error {
	m[rel] = append([]byte(nil), data...)
	return nil
}

// TestRegistryNew: the renderers of the selected tree formats, in the
// registry's order, never the site format; each renders a tree and writes
// its files where package layout says.
func TestRegistryNew(t *testing.T) {
	tests := []struct {
		formats []string
		want    []string
	}{
		{formats: []string{"html"}},
		{formats: []string{"markdown", "json", "html"}, want: []string{"json", "markdown"}},
		{formats: []string{"json"}, want: []string{"json"}},
	}
	e := model.Export{CurriculumID: "1", CurriculumName: "Algebra", VariantID: "1", Locale: "en", PrimaryLocale: "en",
		CurriculumSlug: "algebra", VariantSlug: "base", LocaleSlug: "en"}
	tree := &model.Tree{Export: e, VariantChain: []string{"Algebra"}, ETag: `"1"`, Nodes: []*model.Node{{ID: "n1", Title: "One", Segment: "one", WorkflowStatus: model.StatusPublished}}}
	for _, tc := range tests {
		t.Run(strings.Join(tc.formats, ","), func(t *testing.T) {
			rs, err := registry().New(context.Background(), render.Options{Formats: tc.formats, Generator: "curex test"})
			if err != nil {
				t.Fatal(err)
			}
			defer render.Close(rs)
			var got []string
			files := memory{}
			var entry output.ManifestExport
			for _, r := range rs {
				got = append(got, r.Name())
				if err := r.Render(context.Background(), files, &render.Tree{Tree: tree}, &entry); err != nil {
					t.Fatalf("%s: %v", r.Name(), err)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("renderers %v, want %v", got, tc.want)
			}
			if _, ok := files["bundles/algebra/base/en/tree.json"]; ok != slices.Contains(tc.want, "json") {
				t.Errorf("json: tree.json written %v, %d files", ok, len(files))
			}
			if _, ok := files["bundles/algebra/base/en/markdown/index.md"]; ok != slices.Contains(tc.want, "markdown") {
				t.Errorf("markdown: index.md written %v, %d files", ok, len(files))
			}
		})
	}
}

// TestRegistryNewFails: a format that cannot start stops New with its
// error, and the renderers made before it are closed.
func TestRegistryNewFails(t *testing.T) {
	boom := errors.New("no browser")
	closed := false
	r := render.NewRegistry(
		render.Format{Name: "first", New: func(context.Context, render.Options) (render.Renderer, error) {
			return closer{closed: &closed}, nil
		}},
		render.Format{Name: "second", New: func(context.Context, render.Options) (render.Renderer, error) { return nil, boom }},
	)
	if _, err := r.New(context.Background(), render.Options{Formats: []string{"first", "second"}}); !errors.Is(err, boom) {
		t.Fatalf("error %v, want %v", err, boom)
	}
	if !closed {
		t.Error("the renderer made before the failure was not closed")
	}
}

// closer is a renderer that records its Close: the property under test
// is the registry's, which no real format can show without a browser.
type closer struct{ closed *bool }

func (closer) Name() string { return "first" }
func (closer) Render(context.Context, render.Writer, *render.Tree, *output.ManifestExport) error {
	return nil
}
func (c closer) Close() error { *c.closed = true; return nil }

// TestRegistryNewSite: the site format is made only when selected, and a
// theme it cannot load is an error naming the theme setting.
func TestRegistryNewSite(t *testing.T) {
	tests := []struct {
		name     string
		formats  []string
		themeDir string
		want     string // the site's name, "" for none
		setting  string // the setting the error names, "" for no error
	}{
		{name: "selected", formats: []string{"json", "html"}, want: "html"},
		{name: "not selected", formats: []string{"json"}},
		{name: "bad theme", formats: []string{"html"}, themeDir: t.TempDir() + "/missing", setting: setting.Theme},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := registry().NewSite(context.Background(), render.Options{Formats: tc.formats, ThemeDir: tc.themeDir})
			if tc.setting != "" {
				if se, ok := setting.Of(err); !ok || se.Name != tc.setting {
					t.Fatalf("error %v, want one naming %s", err, tc.setting)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if s != nil {
				got = s.Name()
			}
			if got != tc.want {
				t.Errorf("site %q, want %q", got, tc.want)
			}
		})
	}
}
