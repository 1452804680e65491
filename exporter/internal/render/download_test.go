package render_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render"
)

// downloads is a registry whose formats offer downloads in an order of
// their own (Rank), one of them twice an extension.
func downloads() *render.Registry {
	return render.NewRegistry(
		render.Format{Name: "site"},
		render.Format{Name: "data", Download: &render.Download{Ext: ".json", Type: "application/json", Rank: 3}},
		render.Format{Name: "zip", Download: &render.Download{Ext: ".zip", Type: "application/zip", Rank: 2}},
		render.Format{Name: "book", Download: &render.Download{Ext: ".bk", Type: "application/x-book", Rank: 1}},
		render.Format{Name: "other-zip", Download: &render.Download{Ext: ".zip", Type: "application/x-other", Rank: 2}},
	)
}

// TestRegistryDownloads: the website's downloads are those of the formats
// selected, by rank, the registry's order within a rank, each naming its
// format.
func TestRegistryDownloads(t *testing.T) {
	tests := []struct {
		selected, want []string
	}{
		{nil, nil},
		{[]string{"site"}, nil},
		{[]string{"site", "data", "zip", "book", "other-zip"}, []string{"book", "zip", "other-zip", "data"}},
		{[]string{"other-zip", "data", "zip"}, []string{"zip", "other-zip", "data"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.selected, ","), func(t *testing.T) {
			var got []string
			for _, d := range downloads().Downloads(tc.selected) {
				got = append(got, d.Format)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("downloads %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRegistryMediaTypes: every format's download gives its extension's
// media type, the first format's when two share an extension.
func TestRegistryMediaTypes(t *testing.T) {
	want := map[string]string{".json": "application/json", ".zip": "application/zip", ".bk": "application/x-book"}
	if got := downloads().MediaTypes(); !maps.Equal(got, want) {
		t.Errorf("media types %v, want %v", got, want)
	}
}

// TestRegistryFormat finds a format by name, and says when none is.
func TestRegistryFormat(t *testing.T) {
	for _, name := range []string{"site", "book", "nope"} {
		f, ok := downloads().Format(name)
		if ok != (name != "nope") || ok && f.Name != name {
			t.Errorf("Format(%q) = %q, %v", name, f.Name, ok)
		}
	}
	if got := len(downloads().Formats()); got != 5 {
		t.Errorf("%d formats, want 5", got)
	}
}
