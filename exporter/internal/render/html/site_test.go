package html

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/localfile"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/i18n"
)

// parse parses a written page.
func parse(t *testing.T, w *memWriter, page string) *html.Node {
	t.Helper()
	data, ok := w.files[page]
	if !ok {
		t.Fatalf("%s not written", page)
	}
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	return doc
}

// walk calls fn for every element of n.
func walk(n *html.Node, fn func(*html.Node)) {
	if n.Type == html.ElementNode {
		fn(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// find returns the elements of doc that match tag and every key=value.
func find(doc *html.Node, tag string, kv ...string) []*html.Node {
	var out []*html.Node
	walk(doc, func(n *html.Node) {
		if n.Data != tag {
			return
		}
		for i := 0; i < len(kv); i += 2 {
			if v, _ := attr(n, kv[i]); v != kv[i+1] {
				return
			}
		}
		out = append(out, n)
	})
	return out
}

// links returns every link a page makes: a[href], link[href],
// script[src], form[action] and the search box's data-index.
func links(doc *html.Node) []string {
	var out []string
	walk(doc, func(n *html.Node) {
		key := map[string]string{"a": "href", "link": "href", "script": "src", "form": "action", "img": "src"}[n.Data]
		if v, ok := attr(n, key); ok && key != "" {
			out = append(out, v)
		}
		if v, ok := attr(n, "data-index"); ok {
			out = append(out, v)
		}
	})
	return out
}

// resolve resolves a relative link of page to a file path, reporting
// false for external links.
func resolve(page, link string) (string, bool) {
	if i := strings.IndexAny(link, "?#"); i >= 0 {
		link = link[:i]
	}
	if strings.HasPrefix(link, "http://") || strings.HasPrefix(link, "https://") || strings.HasPrefix(link, "mailto:") {
		return "", false
	}
	if link == "" {
		return page, true
	}
	return path.Join(path.Dir(page), link), true
}

func TestEveryInternalLinkIsRelativeAndResolves(t *testing.T) {
	t.Parallel()
	for _, include := range []bool{false, true} {
		var w *memWriter
		if include {
			w = sample(t, include).render(t, Options{})
		} else {
			_, w = rendered(t)
		}
		checked := 0
		for _, page := range w.names() {
			if !strings.HasSuffix(page, ".html") {
				continue
			}
			for _, l := range links(parse(t, w, page)) {
				if page == "404.html" && strings.HasPrefix(l, "/") {
					continue // served at any path: rooted links, documented
				}
				if strings.HasPrefix(l, "/") || strings.Contains(l, "://") && !strings.HasPrefix(l, "http") {
					t.Errorf("%s: link %q is not relative", page, l)
					continue
				}
				target, internal := resolve(page, l)
				if !internal {
					continue
				}
				if _, ok := w.files[target]; !ok {
					t.Errorf("%s: link %q → %s, which was not written", page, l, target)
				}
				checked++
			}
		}
		if checked < 10000 {
			t.Errorf("only %d links checked", checked)
		}
	}
}

func TestLangAndDir(t *testing.T) {
	t.Parallel()
	_, w := rendered(t)
	for _, tc := range []struct {
		page, lang, dir string
	}{
		{"index.html", "en", ""},
		{"algebra-1/index.html", "en", ""},
		{"algebra-1/texas/es/index.html", "es", ""},
		{"algebra-1/texas/es/alg-u1-l1/index.html", "es", ""},
		{"algebra-1/houston-isd/ar/index.html", "ar", "rtl"},
		{"algebra-1/houston-isd/ar/alg-u1-l1/index.html", "ar", "rtl"},
		{"algebra-1/base/ja/alg-u1/index.html", "ja", ""},
		{"earth-science/base/fr/index.html", "fr", ""},
	} {
		doc := parse(t, w, tc.page)
		h := find(doc, "html")[0]
		lang, _ := attr(h, "lang")
		dir, _ := attr(h, "dir")
		if lang != tc.lang || dir != tc.dir {
			t.Errorf("%s: <html lang=%q dir=%q>, want lang=%q dir=%q", tc.page, lang, dir, tc.lang, tc.dir)
		}
	}
}

func TestFallbackNotice(t *testing.T) {
	t.Parallel()
	f, w := rendered(t)
	fallbacks, translated := 0, 0
	for _, tr := range f.trees {
		tr.Walk(func(n *model.Node) bool {
			page := layout.NodePage(tr.Export, n.Segment)
			doc := parse(t, w, page)
			notice := find(doc, "p", "class", "notice notice--fallback")
			body := find(doc, "div", "class", "node__content")[0]
			lang, hasLang := attr(body, "lang")
			dir, _ := attr(body, "dir")
			if !n.Translation.IsTranslated && tr.Locale != tr.PrimaryLocale {
				fallbacks++
				wantDir := "ltr"
				if RTL(tr.PrimaryLocale) {
					wantDir = "rtl"
				}
				if len(notice) != 1 || lang != tr.PrimaryLocale || dir != wantDir {
					t.Errorf("%s: fallback page: %d notices, content lang=%q dir=%q", page, len(notice), lang, dir)
				}
			} else {
				translated++
				if len(notice) != 0 || hasLang {
					t.Errorf("%s: %s page has a fallback notice or a content lang", page, n.Translation.Status)
				}
			}
			return true
		})
	}
	if fallbacks == 0 || translated == 0 {
		t.Fatalf("%d fallback and %d other pages: the sample should have both", fallbacks, translated)
	}
}

// TestLanguageSwitcherAndHreflang: every node page links to the same node
// in every exported locale of its variant, in the switcher and with
// <link rel=alternate hreflang>, plus x-default for the primary locale.
func TestLanguageSwitcherAndHreflang(t *testing.T) {
	t.Parallel()
	f, w := rendered(t)
	for _, tr := range f.trees {
		c := f.site.Curricula[slices.IndexFunc(f.site.Curricula, func(c *Curriculum) bool { return c.Slug == tr.CurriculumSlug })]
		tr.Walk(func(n *model.Node) bool {
			page := layout.NodePage(tr.Export, n.Segment)
			doc := parse(t, w, page)
			alts := map[string]string{}
			for _, l := range find(doc, "link", "rel", "alternate") {
				lang, _ := attr(l, "hreflang")
				href, _ := attr(l, "href")
				target, _ := resolve(page, href)
				alts[lang] = target
			}
			switcher := map[string]string{}
			for _, a := range find(doc, "a") {
				if hl, ok := attr(a, "hreflang"); ok {
					href, _ := attr(a, "href")
					target, _ := resolve(page, href)
					switcher[hl] = target
				}
			}
			for _, l := range c.Locales {
				other := f.outlines[tr.CurriculumSlug+"/"+tr.VariantSlug+"/"+l.Slug]
				want, exists := other.Path[n.ID]
				if !exists {
					continue
				}
				if alts[l.Code] != want {
					t.Errorf("%s: hreflang %s → %q, want %q", page, l.Code, alts[l.Code], want)
				}
				if l.Code != tr.Locale && switcher[l.Code] != want {
					t.Errorf("%s: switcher %s → %q, want %q", page, l.Code, switcher[l.Code], want)
				}
				if _, ok := w.files[want]; !ok {
					t.Errorf("%s: %s not written", page, want)
				}
				if l.Code == c.PrimaryLocale && alts["x-default"] != want {
					t.Errorf("%s: x-default → %q, want %q", page, alts["x-default"], want)
				}
			}
			return true
		})
	}
}

func TestVariantSwitcherNearestAncestor(t *testing.T) {
	t.Parallel()
	_, w := rendered(t)
	// alg-tx-l1 is added by Texas under alg-u3: Houston ISD inherits it,
	// California does not have it, so it lands on alg-u3.
	doc := parse(t, w, "algebra-1/texas/es/alg-tx-l1/index.html")
	want := map[string]string{
		"algebra-1/houston-isd/es/alg-tx-l1/index.html": "",
		"algebra-1/california/es/alg-u3/index.html":     "",
		"algebra-1/base/es/alg-u3/index.html":           "",
	}
	for _, d := range find(doc, "details", "class", "switcher switcher--variant") {
		for _, a := range find(d, "a") {
			href, _ := attr(a, "href")
			target, _ := resolve("algebra-1/texas/es/alg-tx-l1/index.html", href)
			if _, ok := want[target]; !ok {
				t.Errorf("variant switcher links %s", target)
			}
			delete(want, target)
		}
	}
	if len(want) > 0 {
		t.Errorf("variant switcher misses %v", want)
	}
}

// drafts of the sample dataset: alg-u3-l4 (in review) and alg-u3-l5
// (draft) in Algebra 1, alg-u1-l2 archived by Houston ISD, cs-m3-l2 made a
// draft by Summer Intensive.
var drafts = map[string][]string{
	"algebra-1/base/es":                                    {"alg-u3-l4", "alg-u3-l5"},
	"algebra-1/houston-isd/ar":                             {"alg-u1-l2", "alg-u3-l5"},
	"introduction-to-computer-science/summer-intensive/en": {"cs-m3-l2"},
}

// TestDraftsWithIncludeUnpublished: a tree that holds drafts (the run
// lets them through with --include-unpublished) is rendered as given,
// each draft marked; that none reaches a page otherwise is the run's
// filter (exporter's TestUnpublishedNodesNeverReachAPage).
func TestDraftsWithIncludeUnpublished(t *testing.T) {
	t.Parallel()
	w := sample(t, true).render(t, Options{})
	for dir, ids := range drafts {
		var index []searchEntry
		if err := json.Unmarshal(w.files[dir+"/search.json"], &index); err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			page := dir + "/" + id + "/index.html"
			doc := parse(t, w, page)
			if len(find(doc, "li", "class", "badge badge--draft")) != 1 {
				t.Errorf("%s: no draft badge", page)
			}
			if !slices.ContainsFunc(index, func(e searchEntry) bool { return e.ID == id }) {
				t.Errorf("%s: %s not in the search index", dir, id)
			}
			if !strings.Contains(string(w.files[dir+"/index.html"]), `href="`+id+`/index.html"`) {
				t.Errorf("%s: contents page does not link %s", dir, id)
			}
		}
	}
}

// TestDeterministic renders the site twice and compares the bytes. It
// once had to run alone: chroma gave up on a regular expression match
// after 250 ms of wall-clock time, which a loaded machine reached; curex's
// lexers no longer do (content.HighlightTimeout), so the load cannot make
// two renders differ.
func TestDeterministic(t *testing.T) {
	f, a := rendered(t)
	b := f.render(t, Options{})
	if !slices.Equal(a.names(), b.names()) {
		t.Fatal("different file sets")
	}
	for _, n := range a.names() {
		if !bytes.Equal(a.files[n], b.files[n]) {
			t.Errorf("%s differs between two renders", n)
		}
	}
}

func TestAssetsAreHashed(t *testing.T) {
	t.Parallel()
	_, w := rendered(t)
	re := regexp.MustCompile(`^assets/(site|theme|search|icons|chroma|math|stem/[a-z]+)\.[0-9a-f]{8}\.(css|js)$|^assets/latinmodern-math\.[0-9a-f]{8}\.woff2$`)
	n, stemmers := 0, 0
	for _, name := range w.names() {
		if strings.HasPrefix(name, "assets/") {
			if !re.MatchString(name) {
				t.Errorf("asset %s has no content hash", name)
			}
			if hashed(strings.SplitN(path.Base(name), ".", 2)[0]+path.Ext(name), w.files[name]) != path.Base(name) {
				t.Errorf("asset %s: hash does not match its content", name)
			}
			if strings.HasPrefix(name, "assets/stem/") {
				stemmers++
			} else {
				n++
			}
		}
	}
	// The sample's languages with a Snowball stemmer: en, es, ar, fr.
	if stemmers != 4 {
		t.Errorf("%d stemmers, want 4 (en, es, ar, fr)", stemmers)
	}
	if n != len(knownAssets) {
		t.Errorf("%d assets, want %v", n, knownAssets)
	}
}

func TestThemeOverride(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "footer.html"), []byte(`{{define "footer"}}<footer class="custom">Custom footer {{.T "next"}}</footer>{{end}}`), 0o644))
	must(os.WriteFile(filepath.Join(dir, "node.html"), []byte(`{{define "content"}}<h1 class="theme-node">{{.Node.Title}}</h1>{{end}}`), 0o644))
	must(os.MkdirAll(filepath.Join(dir, "assets", "icons"), 0o755))
	css := []byte("body{color:rebeccapurple}\n")
	must(os.WriteFile(filepath.Join(dir, "assets", "site.css"), css, 0o644))
	must(os.WriteFile(filepath.Join(dir, "assets", "logo.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), 0o644))
	must(os.WriteFile(filepath.Join(dir, "assets", "icons", "book.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg" id="mine"/>`), 0o644))

	w := sample(t, false).render(t, Options{ThemeDir: dir})
	cssName := "assets/" + hashed("site.css", css)
	if !bytes.Equal(w.files[cssName], css) {
		t.Fatalf("%s not written with the theme's CSS", cssName)
	}
	if _, ok := w.files["assets/logo.svg"]; !ok {
		t.Error("extra theme asset not copied")
	}
	for _, page := range []string{"index.html", "algebra-1/texas/es/index.html", "algebra-1/texas/es/alg-u1-l1/index.html", "404.html"} {
		data := string(w.files[page])
		if !strings.Contains(data, `<footer class="custom">Custom footer`) || strings.Contains(data, "site-footer") {
			t.Errorf("%s: footer not replaced", page)
		}
		if !strings.Contains(data, hashed("site.css", css)) {
			t.Errorf("%s: does not link the theme's CSS", page)
		}
		// Blocks the theme did not touch stay.
		if !strings.Contains(data, `class="skip-link"`) {
			t.Errorf("%s: lost the default header", page)
		}
	}
	node := string(w.files["algebra-1/texas/es/alg-u1-l1/index.html"])
	if !strings.Contains(node, `<h1 class="theme-node">Variables y expresiones</h1>`) {
		t.Error("node page content block not replaced")
	}
	if strings.Contains(string(w.files["algebra-1/texas/es/index.html"]), "theme-node") {
		t.Error("node.html of the theme leaked into the contents page")
	}
	var icons []byte
	for n, d := range w.files {
		if strings.HasPrefix(n, "assets/icons.") {
			icons = d
		}
	}
	if !bytes.Contains(icons, []byte(".icon-book{")) || bytes.Contains(icons, []byte("M4 19.5")) {
		t.Error("theme icon did not replace the default one")
	}

	// A broken theme template is an error from New.
	bad := t.TempDir()
	must(os.WriteFile(filepath.Join(bad, "x.html"), []byte(`{{define "footer"}}{{.Nope`), 0o644))
	if _, err := New(Options{ThemeDir: bad}); err == nil {
		t.Error("New accepted a broken theme template")
	}
	if _, err := New(Options{ThemeDir: filepath.Join(bad, "missing")}); err == nil {
		t.Error("New accepted a missing theme folder")
	}
}

func TestSitemapRobotsCanonical(t *testing.T) {
	t.Parallel()
	f := sample(t, false)
	w := f.render(t, Options{})
	if _, ok := w.files["sitemap.xml"]; ok {
		t.Error("sitemap.xml written without a site URL")
	}
	if strings.Contains(string(w.files["robots.txt"]), "Sitemap") {
		t.Error("robots.txt names a sitemap without a site URL")
	}
	if strings.Contains(string(w.files["algebra-1/texas/es/alg-u1-l1/index.html"]), `rel="canonical"`) {
		t.Error("canonical link without a site URL")
	}

	f.site.URL = "https://curricula.example.org/sub/"
	w = f.render(t, Options{})
	if !strings.Contains(string(w.files["robots.txt"]), "Sitemap: https://curricula.example.org/sub/sitemap.xml\n") {
		t.Errorf("robots.txt:\n%s", w.files["robots.txt"])
	}
	doc := parse(t, w, "algebra-1/texas/es/alg-u1-l1/index.html")
	canon := find(doc, "link", "rel", "canonical")
	if len(canon) != 1 {
		t.Fatal("no canonical link")
	}
	if href, _ := attr(canon[0], "href"); href != "https://curricula.example.org/sub/algebra-1/texas/es/alg-u1-l1/" {
		t.Errorf("canonical %s", href)
	}
	var sm struct {
		URLs []struct {
			Loc   string `xml:"loc"`
			Links []struct {
				Rel      string `xml:"rel,attr"`
				Hreflang string `xml:"hreflang,attr"`
				Href     string `xml:"href,attr"`
			} `xml:"http://www.w3.org/1999/xhtml link"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(w.files["sitemap.xml"], &sm); err != nil {
		t.Fatal(err)
	}
	pages := 0
	for _, n := range w.names() {
		if strings.HasSuffix(n, ".html") && n != "404.html" {
			pages++
		}
	}
	if len(sm.URLs) != pages {
		t.Errorf("sitemap lists %d URLs, %d pages written", len(sm.URLs), pages)
	}
	found := false
	for _, u := range sm.URLs {
		if !strings.HasPrefix(u.Loc, "https://curricula.example.org/sub/") {
			t.Errorf("sitemap loc %s", u.Loc)
		}
		if u.Loc == "https://curricula.example.org/sub/algebra-1/texas/es/alg-u1-l1/" {
			found = true
			var langs []string
			for _, l := range u.Links {
				langs = append(langs, l.Hreflang)
			}
			if !slices.Equal(langs, []string{"en", "es", "ar", "ja", "x-default"}) {
				t.Errorf("alternates %v", langs)
			}
		}
	}
	if !found {
		t.Error("node page missing from the sitemap")
	}
}

func TestSearchIndex(t *testing.T) {
	t.Parallel()
	_, w := rendered(t)
	for _, dir := range []string{"algebra-1/texas/es", "algebra-1/base/ja", "algebra-1/houston-isd/ar"} {
		var index []searchEntry
		if err := json.Unmarshal(w.files[dir+"/search.json"], &index); err != nil {
			t.Fatal(err)
		}
		if len(index) < 10 {
			t.Fatalf("%s: %d entries", dir, len(index))
		}
		for _, e := range index {
			if _, ok := w.files[dir+"/"+e.Path]; !ok {
				t.Errorf("%s: entry %s → %s not written", dir, e.ID, e.Path)
			}
			if e.Title == "" || e.TypeDisplay == "" {
				t.Errorf("%s: entry %+v", dir, e)
			}
		}
		js := string(w.files[dir+"/search-index.js"])
		want := `(window.curexSearch=window.curexSearch||{})["` + dir + `"]=`
		if !strings.HasPrefix(js, want) {
			t.Errorf("%s: search-index.js does not define the index: %.80s", dir, js)
		}
		body := string(w.files[dir+"/search-body-0.js"])
		want = `(window.curexSearchBody=window.curexSearchBody||{})["` + dir + `#0"]=`
		if !strings.HasPrefix(body, want) {
			t.Errorf("%s: search-body-0.js does not define chunk 0: %.80s", dir, body)
		}
	}
	if !strings.Contains(string(w.files["algebra-1/base/ja/search.json"]), "変数") {
		t.Error("Japanese index has no Japanese text")
	}
}

// TestVariantTranslationProgress checks that the landing matrix and the
// language switcher show each variant's own translation progress, counted
// from its tree, not the curriculum-wide figure of /locales.
func TestVariantTranslationProgress(t *testing.T) {
	t.Parallel()
	f, w := rendered(t)
	for _, dir := range []string{"algebra-1/houston-isd/ar", "algebra-1/texas/es", "algebra-1/base/ja"} {
		var tree *model.Tree
		for _, tr := range f.trees {
			if tr.Dir() == dir {
				tree = tr
			}
		}
		if tree == nil {
			t.Fatalf("no tree %s", dir)
		}
		nodes, translated := 0, 0
		tree.Walk(func(n *model.Node) bool {
			nodes++
			if n.Translation.IsTranslated {
				translated++
			}
			return true
		})
		want := translated * 100 / nodes
		_, rest, _ := strings.Cut(dir, "/")
		landing := string(w.files["algebra-1/index.html"])
		cell := `href="` + rest + `/index.html"`
		i := strings.Index(landing, cell)
		if i < 0 {
			t.Fatalf("landing has no cell for %s", dir)
		}
		if got := landing[i:]; !strings.Contains(got[:min(len(got), 400)], fmt.Sprintf(`value="%d"`, want)) {
			t.Errorf("%s: landing cell %q, want progress %d%% (%d of %d pages translated)", dir, got[:min(len(got), 400)], want, translated, nodes)
		}
		toc := string(w.files[dir+"/index.html"])
		if !strings.Contains(toc, `<span class="switcher__note">`+i18n.For(tree.Locale).T("translated_progress", want)) {
			t.Errorf("%s: language switcher does not show %d%%", dir, want)
		}
	}
}

// TestNoSitemap: without a sitemap the renderer keeps only each tree's
// progress, and the site is the same byte for byte; with a site URL it
// refuses rather than write a sitemap it cannot fill.
func TestNoSitemap(t *testing.T) {
	f := sample(t, false)
	if f.site.URL != "" {
		t.Fatal("the fixture has a site URL")
	}
	want := f.render(t, Options{}).files
	got := f.render(t, Options{NoSitemap: true}).files
	if len(got) != len(want) {
		t.Errorf("NoSitemap wrote %d files, the default %d", len(got), len(want))
	}
	for p, b := range want {
		if !bytes.Equal(got[p], b) {
			t.Errorf("%s differs with NoSitemap", p)
		}
	}
	// The landing pages show the trees' own progress, which the lean
	// records keep: a locale that is partly translated is not at 100 %.
	landing := string(got["algebra-1/index.html"])
	if !strings.Contains(landing, "<progress") {
		t.Fatalf("no progress bar on the landing page:\n%s", landing)
	}

	r, err := New(Options{NoSitemap: true})
	if err != nil {
		t.Fatal(err)
	}
	f.site.URL = "https://curricula.example.org/"
	err = r.RenderSite(newMemWriter(), f.site)
	if err == nil || !strings.Contains(err.Error(), "NoSitemap") {
		t.Errorf("RenderSite with a URL and NoSitemap: %v, want an error naming NoSitemap", err)
	}
}

// TestThemeSymlinkRefused: a file of a theme folder that is a symlink is
// refused, not followed (issue 23): a template, an asset, an icon, and a
// symlinked folder inside the theme.
func TestThemeSymlinkRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, target string }{
		{"footer.html", "/etc/passwd"},
		{"assets/site.css", "/proc/self/environ"},
		{"assets/icons/book.svg", "/etc/passwd"},
		{"assets/fonts", "/etc"},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "assets", "icons"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(tc.target, filepath.Join(dir, filepath.FromSlash(tc.name))); err != nil {
			t.Fatal(err)
		}
		_, err := New(Options{ThemeDir: dir})
		if !errors.Is(err, localfile.ErrSymlink) {
			t.Errorf("%s a symlink: %v, want localfile.ErrSymlink", tc.name, err)
		}
	}
}
