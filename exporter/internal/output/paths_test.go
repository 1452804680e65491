package output

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestManifestPaths: a format's path is kept under its own key when the
// manifest has one (docs/schema), else under "formats" by its name; ""
// removes it, and Paths lists them all, keyed ones first.
func TestManifestPaths(t *testing.T) {
	tests := []struct {
		name      string
		set       map[string]string
		wantJSON  []string // members of the entry's JSON
		wantPaths []string
	}{
		{"keyed", map[string]string{"pdf": "a/b/c/handbook.pdf", "html": "a/b/c/index.html"},
			[]string{`"html":"a/b/c/index.html"`, `"pdf":"a/b/c/handbook.pdf"`}, []string{"a/b/c/index.html", "a/b/c/handbook.pdf"}},
		{"new formats", map[string]string{"outline": "bundles/a/b/c/outline.txt", "audio": "a/b/c/book.mp3", "epub": "a/b/c/x.epub"},
			[]string{`"epub":"a/b/c/x.epub"`, `"formats":{"audio":"a/b/c/book.mp3","outline":"bundles/a/b/c/outline.txt"}`},
			[]string{"a/b/c/x.epub", "a/b/c/book.mp3", "bundles/a/b/c/outline.txt"}},
		{"removed", map[string]string{"outline": "", "pdf": ""}, nil, nil},
		{"none", nil, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var e ManifestExport
			for _, f := range slices.Sorted(maps.Keys(tc.set)) {
				e.SetPath(f, "x") // set, then set to the value wanted
				e.SetPath(f, tc.set[f])
				if got := e.Path(f); got != tc.set[f] {
					t.Errorf("Path(%q) = %q, want %q", f, got, tc.set[f])
				}
			}
			data, err := json.Marshal(&e)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range tc.wantJSON {
				if !strings.Contains(string(data), m) {
					t.Errorf("JSON %s lacks %s", data, m)
				}
			}
			if len(tc.wantJSON) == 0 && strings.Contains(string(data), `"formats"`) {
				t.Errorf("JSON %s has formats", data)
			}
			if got := e.Paths(); !slices.Equal(got, tc.wantPaths) {
				t.Errorf("Paths() = %q, want %q", got, tc.wantPaths)
			}
		})
	}
}
