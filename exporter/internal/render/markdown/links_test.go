package markdown

import (
	"path"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/testtrees"
)

// TestSampleBundles writes every export of the sample organization, in
// both layouts, and checks what holds for any bundle: every path is safe
// and inside the bundle folder, every relative link of every file resolves
// to a file of the bundle, the tables of contents link every node, and the
// Entry counts the files.
func TestSampleBundles(t *testing.T) {
	set := testtrees.Sample(t)
	for _, hugo := range []bool{false, true} {
		for _, tr := range set.Trees {
			tr := tr.PublishedOnly()
			name := tr.Dir()
			if hugo {
				name += "/hugo"
			}
			t.Run(name, func(t *testing.T) {
				w, e := write(t, tr, Options{Hugo: hugo})
				if want := "bundles/" + tr.Dir() + "/markdown/"; e.Dir != want {
					t.Errorf("Dir = %q, want %q", e.Dir, want)
				}
				if want := "bundles/" + tr.Dir() + "/markdown.zip"; e.Zip != want {
					t.Errorf("Zip = %q, want %q", e.Zip, want)
				}
				for _, rel := range w.names() {
					if !safeRel(e, rel) {
						t.Errorf("unsafe path %q", rel)
					}
				}
				files := w.bundleFiles(e)
				extra := 2 // index.md, SUMMARY.md
				root := "index.md"
				if hugo {
					extra, root = 1, "_index.md"
				}
				if e.Files != len(files) || len(files) != tr.Count()+extra {
					t.Errorf("Entry.Files = %d, %d files written, want %d nodes + %d", e.Files, len(files), tr.Count(), extra)
				}
				// The table of contents links every node, SUMMARY.md every
				// node and the root, every parent its children.
				want := 2*tr.Count() - len(tr.Nodes)
				if !hugo {
					want += tr.Count() + 1
				}
				if n := checkLinks(t, files); n < want {
					t.Errorf("%d relative links, want at least %d", n, want)
				}
				_, body := splitFrontMatter(t, files[root])
				if got := len(links(body)); got != tr.Count() {
					t.Errorf("%s links %d pages, want every one of %d nodes", root, got, tr.Count())
				}
				if !hugo {
					if got := len(links(string(files["SUMMARY.md"]))); got != tr.Count()+1 {
						t.Errorf("SUMMARY.md links %d pages, want %d nodes and the root", got, tr.Count())
					}
				}
				if hugo {
					checkHugoLayout(t, files)
				}
			})
		}
	}
}

// checkHugoLayout checks what Hugo needs of a content folder: a section
// page _index.md in the root and in every folder, no index.md (which
// would make a folder a leaf bundle and hide its children), no SUMMARY.md,
// and a title and a weight in every page's front matter.
func checkHugoLayout(t *testing.T, files map[string][]byte) {
	t.Helper()
	dirs := map[string]bool{".": true}
	for name := range files {
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
		base := path.Base(name)
		if base == "index.md" || base == "SUMMARY.md" {
			t.Errorf("Hugo layout has %s", name)
		}
	}
	for d := range dirs {
		if _, ok := files[path.Join(d, "_index.md")]; !ok {
			t.Errorf("folder %s has no _index.md", d)
		}
	}
	for name, data := range files {
		yml, body := splitFrontMatter(t, data)
		if !strings.Contains(yml, "\ntitle: ") && !strings.HasPrefix(yml, "title: ") {
			t.Errorf("%s: no title in the front matter", name)
		}
		if name != "_index.md" {
			if !strings.Contains(yml, "\nweight: ") {
				t.Errorf("%s: no weight in the front matter", name)
			}
			if !strings.Contains(yml, "\ntranslationKey: ") {
				t.Errorf("%s: no translationKey in the front matter", name)
			}
		}
		if strings.HasPrefix(body, "# ") {
			t.Errorf("%s: Hugo pages leave the title heading to the theme", name)
		}
	}
}
