package html

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/sandbox/dataset"
)

// TestSharedBlocksAsRendered: the blocks the node pages of a tree share
// (sharedKey), and the sidebar put together from parts rendered once
// (treeCtx.splice), are the bytes each page would write itself. The sample with
// the publisher's full identity (footer links, scripts, a logo) and a
// synthetic curriculum of two locales whose pages hold code on every
// second page and math on every third, so that the keys of styles are
// each met, and one of a single locale (whose header is shared) render
// the same with the reuse as without it.
func TestSharedBlocksAsRendered(t *testing.T) {
	withID, _, id := identityFixture(t, "https://example.org/curricula/")
	synthetic := fromDataset(t, dataset.Synthetic(dataset.SyntheticOptions{Curricula: 1, Locales: 2, Nodes: 60, Depth: 3, Seed: 1, Body: 1}), false)
	oneLocale := fromDataset(t, dataset.Synthetic(dataset.SyntheticOptions{Curricula: 1, Locales: 1, Nodes: 60, Depth: 3, Seed: 2, Body: 1}), false)
	// Past fullSidebarLimit nodes the sidebar lists a window of siblings
	// around the path, and the rest as "… more" items.
	windowed := fromDataset(t, dataset.Synthetic(dataset.SyntheticOptions{Curricula: 1, Locales: 1, Nodes: 2 * fullSidebarLimit, Depth: 2, Seed: 3}), false)
	// Two units of one id (their pages told apart by their segments), each
	// open on the pages under it.
	sameID := fromDataset(t, dataset.Synthetic(dataset.SyntheticOptions{Curricula: 1, Locales: 1, Nodes: 60, Depth: 3, Seed: 4}), false)
	units := sameID.trees[0].Nodes
	units[1].ID = units[0].ID
	for _, c := range []struct {
		name string
		f    *fixture
		o    Options
	}{
		{"identity", withID, Options{Identity: id}},
		{"synthetic", synthetic, Options{NoSitemap: true}},
		{"one locale", oneLocale, Options{NoSitemap: true}},
		{"windowed sidebar", windowed, Options{NoSitemap: true}},
		{"a repeated id", sameID, Options{NoSitemap: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			reused := c.f.render(t, c.o)
			c.o.blocksOnEveryPage = true
			each := c.f.render(t, c.o)
			if len(reused.files) != len(each.files) {
				t.Fatalf("%d files with the reuse, %d without", len(reused.files), len(each.files))
			}
			styles := map[string]bool{} // the style sheets node pages link
			for _, name := range slices.Sorted(maps.Keys(each.files)) {
				if !bytes.Equal(reused.files[name], each.files[name]) {
					t.Errorf("%s differs with the reuse:\n%s", name, firstDiff(reused.files[name], each.files[name]))
				}
				if strings.Contains(string(each.files[name]), `<article class="node"`) {
					page := string(each.files[name])
					styles[bit(strings.Contains(page, "/chroma."))+bit(strings.Contains(page, "/math."))] = true
				}
			}
			if c.name == "windowed sidebar" && !strings.Contains(string(each.files[name0(each)]), "tree__more") {
				t.Error("no node page lists a window of siblings")
			}
			if c.name == "synthetic" && len(styles) < 3 {
				t.Errorf("node pages link %d sets of style sheets (code, math), want at least 3: %v", len(styles), styles)
			}
		})
	}
}

// TestThemeBlocksOnEveryPage: a block the theme redefines may read what
// is the page's own, so it runs on every page.
// A block that runs one the theme redefines (the header runs search) is
// run on every page too.
func TestThemeBlocksOnEveryPage(t *testing.T) {
	for _, c := range []struct{ name, theme, want string }{
		{"footer", `{{define "footer"}}<footer>{{.Title}}</footer>{{end}}`, "<footer>%s</footer>"},
		{"search in the header", `{{define "search"}}<p class="q">{{.Title}}</p>{{end}}`, `<p class="q">%s</p>`},
		{"a partial of the header", `{{define "variant-switcher"}}<p class="v">{{.Title}}</p>{{end}}`, `<p class="v">%s</p>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "blocks.html"), []byte(c.theme), 0o644); err != nil {
				t.Fatal(err)
			}
			f := fromDataset(t, dataset.Synthetic(dataset.SyntheticOptions{Curricula: 1, Locales: 1, Nodes: 20, Depth: 2, Seed: 1}), false)
			w := f.render(t, Options{ThemeDir: dir, NoSitemap: true})
			pages := 0
			for name, data := range w.files {
				page := string(data)
				if !strings.Contains(page, `<article class="node"`) {
					continue
				}
				pages++
				title := page[strings.Index(page, "<title>")+len("<title>"):]
				title = title[:strings.Index(title, "</title>")]
				if !strings.Contains(page, fmt.Sprintf(c.want, title)) {
					t.Errorf("%s: the theme's block does not hold the page's title %q", name, title)
				}
			}
			if pages < 20 {
				t.Errorf("%d node pages, want 20", pages)
			}
		})
	}
}

// name0 is the first node page of w, in the order of names.
func name0(w *memWriter) string {
	for _, name := range slices.Sorted(maps.Keys(w.files)) {
		if strings.Contains(string(w.files[name]), `<article class="node"`) {
			return name
		}
	}
	return ""
}

// firstDiff shows where a and b part.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-80)
	return "with:    " + string(a[from:min(len(a), i+80)]) + "\nwithout: " + string(b[from:min(len(b), i+80)])
}
