package html

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/internal/golden"
)

// TestGolden compares whole pages of the sample site with testdata/.
func TestGolden(t *testing.T) {
	t.Parallel()
	_, w := rendered(t)
	for _, tc := range []struct{ name, page string }{
		{"catalog", "index.html"},
		{"landing", "algebra-1/index.html"},
		{"toc-texas-es", "algebra-1/texas/es/index.html"},
		{"node-texas-es", "algebra-1/texas/es/alg-u1-l1/index.html"},
		{"node-houston-ar-rtl", "algebra-1/houston-isd/ar/alg-u1-l1/index.html"},
		{"node-houston-ar-fallback", "algebra-1/houston-isd/ar/alg-hou-l1/index.html"},
		{"notfound", "404.html"},
		{"robots", "robots.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := w.files[tc.page]
			if !ok {
				t.Fatalf("%s not written", tc.page)
			}
			golden.Check(t, filepath.Join("testdata", tc.name+".golden"+filepath.Ext(tc.page)), got)
		})
	}
}

// TestGoldenTree compares every file of one whole rendered tree (Texas in
// Spanish: its contents page, every node page and its search index) with
// one golden file, each file under a "==> path <==" line (the head(1)
// layout of golden.CheckFiles).
func TestGoldenTree(t *testing.T) {
	t.Parallel()
	_, w := rendered(t)
	const dir = "algebra-1/texas/es/"
	var paths []string
	for p := range w.files {
		if strings.HasPrefix(p, dir) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	if len(paths) < 20 {
		t.Fatalf("only %d files under %s", len(paths), dir)
	}
	got := &golden.Archive{}
	for _, p := range paths {
		got.Files = append(got.Files, golden.File{Name: p, Data: w.files[p]})
	}
	golden.CheckFiles(t, filepath.Join("testdata", "tree-texas-es.golden.txt"), got)
}
