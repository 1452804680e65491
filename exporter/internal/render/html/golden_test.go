package html

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/golden"
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

// treeGoldenPages are the node pages of the Texas Spanish tree that
// TestGoldenTree keeps in full, each for what it shows; the contents page
// and alg-u1-l1 are in full in TestGolden's toc-texas-es and
// node-texas-es.
var treeGoldenPages = []string{
	"alg-u1",       // a unit, the first page (previous: the contents)
	"alg-u1-l3-a1", // an activity, three levels deep in the sidebar
	"alg-u1-l4",    // a lesson changed in Texas
	"alg-tx-l1",    // a lesson added in Texas, with code and a table
	"alg-app-a",    // the appendix, the last page (no next), with math
}

// treeGoldenComment heads tree-texas-es.golden.txtar.
const treeGoldenComment = `Every file of the rendered Texas Spanish tree of the sample site
(TestGoldenTree): the node pages that show something of their own in full
(a unit, the first page; an activity three levels deep; a lesson changed
in Texas; one added in Texas, with code; the appendix, the last page,
with math) and the search titles (search-index.js) in full, and every
other file as its SHA-256 in SHA256SUMS, in the format of sha256sum(1).
The contents page and alg-u1-l1 are in full in toc-texas-es.golden.html
and node-texas-es.golden.html, the search files' format in
search.golden.txt.
Rewrite: go test ./exporter/render/html/ -run '^TestGoldenTree$' -update
`

// TestGoldenTree compares every file of one whole rendered tree (Texas in
// Spanish: its contents page, every node page and its search index) with
// one golden archive: a few representative pages (treeGoldenPages) and the
// search titles in full, the other files as their SHA-256, so that the
// archive stays small enough to read a diff of while a change to any
// page still shows, and where.
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
	full := map[string]bool{dir + "search-index.js": true}
	for _, id := range treeGoldenPages {
		full[dir+id+"/index.html"] = true
	}
	got := &golden.Archive{Comment: treeGoldenComment}
	var sums strings.Builder
	for _, p := range paths {
		if full[p] {
			got.Files = append(got.Files, golden.File{Name: p, Data: w.files[p]})
			delete(full, p)
			continue
		}
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(w.files[p]), p)
	}
	for p := range full {
		t.Errorf("%s not written", p)
	}
	got.Files = append(got.Files, golden.File{Name: "SHA256SUMS", Data: []byte(sums.String())})
	golden.CheckFiles(t, filepath.Join("testdata", "tree-texas-es.golden.txtar"), got)
}
