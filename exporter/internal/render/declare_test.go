package render_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render"
)

// late is a Deferred renderer with nothing to finish.
type late struct{ closer }

func (late) Start(context.Context, render.Writer, model.Export) {}
func (late) Wait() ([]render.Late, error)                       { return nil, nil }

// TestRegistryNewChecksFinishesLate: a format finishes late by
// declaration (Format.FinishesLate), and New refuses a renderer that does
// not match it, closing those made, so the declaration is the truth the
// registry can tell without a renderer.
func TestRegistryNewChecksFinishesLate(t *testing.T) {
	plain := func(context.Context, render.Options) (render.Renderer, error) { return closer{closed: new(bool)}, nil }
	deferred := func(context.Context, render.Options) (render.Renderer, error) {
		return late{closer{closed: new(bool)}}, nil
	}
	tests := []struct {
		name     string
		newR     func(context.Context, render.Options) (render.Renderer, error)
		declared bool
		refused  bool
	}{
		{"plain, not declared", plain, false, false},
		{"deferred, declared", deferred, true, false},
		{"deferred, not declared", deferred, false, true},
		{"plain, declared", plain, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			closed := false
			r := render.NewRegistry(
				render.Format{Name: "before", New: func(context.Context, render.Options) (render.Renderer, error) {
					return closer{closed: &closed}, nil
				}},
				render.Format{Name: "first", New: tc.newR, FinishesLate: tc.declared},
			)
			rs, err := r.New(context.Background(), render.Options{Formats: []string{"before", "first"}})
			var de *render.DeclarationError
			if got := errors.As(err, &de); got != tc.refused {
				t.Fatalf("error %v, want refused %v", err, tc.refused)
			}
			if tc.refused {
				if de.Format != "first" || !closed {
					t.Errorf("error names %q, earlier renderer closed %v", de.Format, closed)
				}
				return
			}
			render.Close(rs)
		})
	}
}

// TestRegistryDataForLinks: what links one format's files to another's
// is read from the declarations, whatever the formats are named: the
// export's data every page links to (PageData, the first selected
// format declaring it) and whether a website is written (AnySite).
func TestRegistryDataForLinks(t *testing.T) {
	dataPath := func(e model.Export) string { return "data/" + e.LocaleSlug + ".json" }
	otherPath := func(e model.Export) string { return "other/" + e.LocaleSlug }
	r := render.NewRegistry(
		render.Format{Name: "web", NewSite: func(context.Context, render.Options) (render.Site, error) { return nil, nil }},
		render.Format{Name: "data", Path: dataPath, PageData: true},
		render.Format{Name: "other", Path: otherPath, PageData: true},
		render.Format{Name: "book", Path: otherPath},
	)
	e := model.Export{LocaleSlug: "es"}
	tests := []struct {
		formats  []string
		pageData string // "" for none
		site     bool
	}{
		{[]string{"web", "data", "other"}, "data/es.json", true},
		{[]string{"other", "book"}, "other/es", false},
		{[]string{"web", "book"}, "", true},
		{nil, "", false},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.formats), func(t *testing.T) {
			got := ""
			if p := r.PageData(tc.formats); p != nil {
				got = p(e)
			}
			if got != tc.pageData {
				t.Errorf("PageData = %q, want %q", got, tc.pageData)
			}
			if s := r.AnySite(tc.formats); s != tc.site {
				t.Errorf("AnySite = %v, want %v", s, tc.site)
			}
		})
	}
}

// TestRegistryProbed: the formats with a Probe that finds what it needs,
// in the registry's order; the others are reported with their errors.
func TestRegistryProbed(t *testing.T) {
	missing := errors.New("no tool")
	r := render.NewRegistry(
		render.Format{Name: "plain"},
		render.Format{Name: "found", Probe: func() error { return nil }},
		render.Format{Name: "lacking", Probe: func() error { return missing }},
		render.Format{Name: "also", Probe: func() error { return nil }},
	)
	var lacking []string
	got := r.Probed(func(name string, err error) {
		if !errors.Is(err, missing) {
			t.Errorf("%s: error %v", name, err)
		}
		lacking = append(lacking, name)
	})
	if want := []string{"found", "also"}; !slices.Equal(got, want) {
		t.Errorf("Probed = %v, want %v", got, want)
	}
	if want := []string{"lacking"}; !slices.Equal(lacking, want) {
		t.Errorf("reported missing %v, want %v", lacking, want)
	}
}

var _ render.Renderer = late{}
