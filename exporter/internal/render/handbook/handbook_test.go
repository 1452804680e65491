package handbook

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/curex/curex/exporter/internal/golden"
	"github.com/curex/curex/exporter/internal/localfile"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/templates"
)

func TestHostileInputIsEscaped(t *testing.T) {
	t.Parallel()
	const (
		evil     = `<script>alert(1)</script>"'><img src=x onerror=alert(2)>`
		endStyle = `</style><script>alert(3)</script>`
		bidi     = "abc\u202Egnp.exe\u202C def"
	)
	hostile := func(title string, kids ...*model.Node) *model.Node {
		n := node(title, map[string]string{
			"description": `"[click](javascript:alert(5)) <script>alert(6)</script> [ok](JaVaScRiPt:alert(7)) ![x](javascript:alert(8))"`,
			evil:          `"value </style>"`,
			"notes":       `"<a href=\"javascript:alert(9)\">x</a>"`,
		}, kids...)
		n.ID = evil
		n.NodeType = model.NodeType{Name: "t" + evil, DisplayName: "Type " + evil, Icon: `x" onload="alert(4)`}
		n.TypeDisplay = "Unit " + endStyle
		n.Translation = model.Translation{SourceLocale: `en" onclick="x`}
		return n
	}
	tr := tree("es", hostile(evil+" "+bidi, hostile(endStyle), hostile("ctl\x00\x01\x1b\u0085\uFFFE\xff end")))
	tr.CurriculumName = "Curriculum " + evil + endStyle
	tr.Variant = "Variant " + bidi
	tr.VariantChain = []string{"Base " + evil, "Variant " + bidi}
	tr.Locale = `es"><script>alert(10)</script>`
	info := Info{LocaleName: "Español " + evil, SiteHome: `../index.html?q="<x>`, LocaleNames: map[string]string{"en": evil}}
	doc := render(t, newRenderer(t, Options{Generator: "gen " + evil}), tr, info)
	checkDocument(t, doc)

	// Attributes are checked by checkDocument; hostile text is shown
	// escaped.
	for _, bad := range []string{"<script", "<img", `onload="`, `onclick="`, "\x00", "\x01", "\x1b", "\uFFFE"} {
		if strings.Contains(strings.ToLower(doc), strings.ToLower(bad)) {
			i := strings.Index(strings.ToLower(doc), strings.ToLower(bad))
			t.Errorf("output contains %q: …%s…", bad, doc[max(0, i-80):min(len(doc), i+40)])
		}
	}
	if n := strings.Count(strings.ToLower(doc), "</style"); n != 1 {
		t.Errorf("%d </style, want only the style element's end", n)
	}
	root := parse(t, doc)
	// The running header of the hostile unit is an escaped CSS string.
	style := all(root, func(n *html.Node) bool { return n.DataAtom == atom.Style })[0]
	if !strings.Contains(text(style), `@page p0 { @top-center { content: "Unit \3c\2fstyle\3e\3cscript\3e alert\28 3\29`) {
		t.Errorf("running header not escaped as CSS:\n%s", text(style)[strings.Index(text(style), "@page p0"):])
	}
	// Bidi controls never leave an isolate: every text node holding one
	// is inside <bdi> or <title> (where names are wrapped in FSI…PDI).
	for d := range root.Descendants() {
		if d.Type != html.TextNode || !strings.ContainsRune(d.Data, '\u202E') {
			continue
		}
		ok := false
		for a := d.Parent; a != nil; a = a.Parent {
			if a.DataAtom == atom.Bdi {
				ok = true
				break
			}
			if a.DataAtom == atom.Title {
				ok = strings.Contains(d.Data, "\u2068Variant "+bidi+"\u2069")
				break
			}
		}
		if !ok {
			t.Errorf("bidi override outside an isolate in <%s>: %q", d.Parent.Data, d.Data)
		}
	}
	// An invalid locale code gives lang="" (unknown), not an attribute
	// break-out.
	h := all(root, func(n *html.Node) bool { return n.DataAtom == atom.Html })[0]
	if v, _ := attr(h, "lang"); v != "" {
		t.Errorf(`<html lang=%q>, want ""`, v)
	}
	// Ids come from reading order only.
	for _, s := range all(root, func(n *html.Node) bool { return n.DataAtom == atom.Section && hasClass(n, "hb-node") }) {
		if id, _ := attr(s, "id"); !regexp.MustCompile(`^n[0-9]+$`).MatchString(id) {
			t.Errorf("section id %q", id)
		}
	}
}

func TestRTLAndFallback(t *testing.T) {
	t.Parallel()
	tr, info := sample(t, "algebra-1/houston-isd/ar")
	doc := render(t, newRenderer(t, Options{}), tr, info)
	root := parse(t, doc)
	h := all(root, func(n *html.Node) bool { return n.DataAtom == atom.Html })[0]
	if lang, _ := attr(h, "lang"); lang != "ar" {
		t.Errorf("<html lang=%q>", lang)
	}
	if dir, _ := attr(h, "dir"); dir != "rtl" {
		t.Errorf("<html dir=%q>", dir)
	}
	var nodes []*model.Node
	tr.Walk(func(n *model.Node) bool { nodes = append(nodes, n); return true })
	sections := all(root, func(n *html.Node) bool { return n.DataAtom == atom.Section && hasClass(n, "hb-node") })
	if len(sections) != len(nodes) {
		t.Fatalf("%d sections for %d nodes", len(sections), len(nodes))
	}
	fallbacks := 0
	notice := i18n.For("ar").T("handbook_fallback", "English")
	for i, s := range sections {
		n := nodes[i]
		notes := all(s, func(e *html.Node) bool { return hasClass(e, "hb-notice") })
		contents := all(s, func(e *html.Node) bool { return hasClass(e, "hb-content") })
		titles := all(s, func(e *html.Node) bool { return hasClass(e, "hb-title__text") })
		if len(contents) != 1 || len(titles) != 1 {
			t.Fatalf("section %d: %d content, %d title elements", i, len(contents), len(titles))
		}
		lang, _ := attr(contents[0], "lang")
		dir, _ := attr(contents[0], "dir")
		tlang, _ := attr(titles[0], "lang")
		if n.Translation.IsTranslated {
			if len(notes) != 0 || lang != "" || dir != "" || tlang != "" {
				t.Errorf("translated %q: %d notices, lang %q, dir %q, title lang %q", n.Title, len(notes), lang, dir, tlang)
			}
			continue
		}
		fallbacks++
		if len(notes) != 1 || text(notes[0]) != notice {
			t.Errorf("fallback %q: notices %d, want %q", n.Title, len(notes), notice)
		}
		if lang != "en" || dir != "ltr" || tlang != "en" {
			t.Errorf("fallback %q: content lang %q dir %q, title lang %q; want en, ltr", n.Title, lang, dir, tlang)
		}
		if _, ok := n.Attributes["learning_objectives"]; ok && !strings.Contains(text(contents[0]), "Learning objectives") {
			t.Errorf("fallback %q: attribute labels are not in English", n.Title)
		}
	}
	if fallbacks == 0 {
		t.Fatal("the sample has no fallback node")
	}
	// Right-to-left handbook in a left-to-right primary: the English
	// curriculum name carries its language.
	h1 := all(root, func(n *html.Node) bool { return n.DataAtom == atom.H1 })[0]
	if b := all(h1, func(n *html.Node) bool { return n.DataAtom == atom.Bdi }); len(b) != 1 || text(b[0]) != "Algebra 1" {
		t.Errorf("h1 %q", text(h1))
	} else if l, _ := attr(b[0], "lang"); l != "en" {
		t.Errorf("curriculum name lang %q, want en", l)
	}
}

// TestRTLFallbackInLTRLocale: Arabic content shown in a Spanish handbook
// of an Arabic-primary curriculum gets dir="rtl".
func TestRTLFallbackInLTRLocale(t *testing.T) {
	t.Parallel()
	n := node("درس", map[string]string{"description": `"نص"`})
	n.Translation = model.Translation{IsTranslated: false, SourceLocale: "ar"}
	tr := tree("es", n)
	tr.PrimaryLocale = "ar"
	doc := render(t, newRenderer(t, Options{}), tr, Info{})
	if !strings.Contains(doc, `<div class="hb-content" lang="ar" dir="rtl">`) ||
		!strings.Contains(doc, `<bdi class="hb-title__text" lang="ar" dir="rtl">درس</bdi>`) {
		t.Errorf("no Arabic lang and dir on fallback content:\n%s", doc[strings.Index(doc, "<main"):])
	}
	if !strings.Contains(doc, "se muestra en ar.") {
		t.Error("unnamed fallback locale is not shown as its code")
	}
	if strings.Contains(doc, `dir="rtl" class`) {
		t.Error("<html> of a Spanish handbook is right to left")
	}
}

// TestTOC: every node, in reading order, with its numbering and a link to
// its section; nested lists follow depth.
func TestTOC(t *testing.T) {
	t.Parallel()
	tr, info := sample(t, "algebra-1/texas/es")
	root := parse(t, render(t, newRenderer(t, Options{}), tr, info))
	toc := all(root, func(n *html.Node) bool { return n.DataAtom == atom.Nav && hasClass(n, "hb-toc") })
	if len(toc) != 1 {
		t.Fatalf("%d tables of contents", len(toc))
	}
	links := all(toc[0], func(n *html.Node) bool { return n.DataAtom == atom.A })
	type want struct {
		label, title string
		depth        int
	}
	var wants []want
	depth := map[*model.Node]int{}
	tr.Walk(func(n *model.Node) bool {
		for _, c := range n.Children {
			depth[c] = depth[n] + 1
		}
		wants = append(wants, want{n.TypeDisplay, n.Title, depth[n]})
		return true
	})
	if len(links) != len(wants) {
		t.Fatalf("%d entries for %d nodes", len(links), len(wants))
	}
	for i, a := range links {
		w := wants[i]
		if got := text(a); got != w.label+" "+w.title {
			t.Errorf("entry %d = %q, want %q", i, got, w.label+" "+w.title)
		}
		if href, _ := attr(a, "href"); href != fmt.Sprintf("#n%d", i) {
			t.Errorf("entry %d links to %q", i, href)
		}
		lists := 0
		for p := a.Parent; p != toc[0]; p = p.Parent {
			if p.DataAtom == atom.Ol {
				lists++
			}
		}
		if lists != w.depth+1 {
			t.Errorf("entry %d (%q) in %d lists, want %d", i, w.title, lists, w.depth+1)
		}
	}
	// Sections follow the same order.
	for i, s := range all(root, func(n *html.Node) bool { return n.DataAtom == atom.Section && hasClass(n, "hb-node") }) {
		if id, _ := attr(s, "id"); id != fmt.Sprintf("n%d", i) {
			t.Errorf("section %d has id %q", i, id)
		}
		if got := text(all(s, func(n *html.Node) bool { return hasClass(n, "hb-title") })[0]); got != wants[i].label+" "+wants[i].title {
			t.Errorf("section %d heading %q", i, got)
		}
	}
}

func TestHeadingLevels(t *testing.T) {
	t.Parallel()
	leaf := node("d4", map[string]string{"notes": `"x"`})
	tr := tree("en", node("d0", map[string]string{"notes": `"x"`},
		node("d1", map[string]string{"notes": `"x"`}, node("d2", nil, node("d3", nil, leaf)))))
	doc := render(t, newRenderer(t, Options{}), tr, Info{})
	checkDocument(t, doc)
	for _, want := range []string{
		`<h2 class="hb-title"><span class="hb-label">Lesson</span> <bdi class="hb-title__text">d0</bdi></h2>`,
		`<h3 id="n0--notes">Notes</h3>`, // the attribute heading below d0
		`<h3 class="hb-title"><span class="hb-label">Lesson</span> <bdi class="hb-title__text">d1</bdi></h3>`,
		`<h4 id="n1--notes">Notes</h4>`,
		`<h5 class="hb-title">`, `<h6 class="hb-title">`,
		`<h6 class="hb-title"><span class="hb-label">Lesson</span> <bdi class="hb-title__text">d4</bdi></h6>`,
		`<section class="hb-node hb-d4" id="n4"`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("no %s", want)
		}
	}
	if strings.Contains(doc, "<h7") {
		t.Error("an h7")
	}
}

func TestPrintCSS(t *testing.T) {
	t.Parallel()
	tr, info := sample(t, "algebra-1/texas/es")
	r := newRenderer(t, Options{})
	doc := render(t, r, tr, info)
	for _, want := range []string{
		"@media print", "break-before: page", "break-inside: avoid", "break-after: avoid", "orphans: 3", "widows: 3",
		"@top-center", `.hb-content a[href^="https:"]::after`,
		`<html lang="es" class="paper-a4">`, "@page { size: A4; }",
		// One named page per top-level node, with its running header.
		"#p0 { page: p0; }\n@page p0 { @top-center { content: \"Unidad 1 · Fundamentos del álgebra\"; } }",
		"@page p4 { @top-center { content: \"Apéndice A · Formulario y glosario\"; } }",
		// Light code highlighting only.
		".chroma .k {",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("no %q", want)
		}
	}
	for _, bad := range []string{"prefers-color-scheme", "@import", "url(http", "<link", "<script"} {
		if strings.Contains(doc, bad) {
			t.Errorf("contains %q", bad)
		}
	}
	root := parse(t, doc)
	parts := all(root, func(n *html.Node) bool { return hasClass(n, "hb-part") })
	if len(parts) != len(tr.Nodes) {
		t.Fatalf("%d parts for %d top-level nodes", len(parts), len(tr.Nodes))
	}
	for i, p := range parts {
		first := all(p, func(n *html.Node) bool { return n.DataAtom == atom.Section })[0]
		if !hasClass(first, "hb-unit") || text(all(first, func(n *html.Node) bool { return hasClass(n, "hb-title__text") })[0]) != tr.Nodes[i].Title {
			t.Errorf("part %d does not start with unit %q", i, tr.Nodes[i].Title)
		}
	}

	info.Paper = "Letter"
	letter := render(t, r, tr, info)
	if !strings.Contains(letter, "@page { size: letter; }") || !strings.Contains(letter, `class="paper-letter"`) || strings.Contains(letter, "size: A4") {
		t.Error("Paper letter does not select US Letter")
	}
	info.Paper = "a5"
	if _, err := r.Render(tr, info); err == nil || !strings.Contains(err.Error(), "a5") {
		t.Errorf("Paper a5: err = %v", err)
	}
}

func TestCover(t *testing.T) {
	t.Parallel()
	r := newRenderer(t, Options{Generator: "curex 9.9"})
	date := time.Date(2026, 2, 24, 23, 30, 0, 0, time.FixedZone("x", -5*3600)) // 2026-02-25 in UTC
	for _, tc := range []struct {
		locale string
		info   Info
		want   []string
		not    []string
	}{
		{"es", Info{LocaleName: "Español", TranslationProgress: 87, PublishedProgress: 100, ContentDate: date, SiteHome: "index.html"},
			[]string{`<time datetime="2026-02-25">25 de febrero de 2026</time>`, "87 % traducido · 100 % publicado",
				`<a href="index.html">Contenido en el sitio web</a>`, "Generado por curex 9.9", "<bdi>Español</bdi>",
				`<ol class="hb-chain"><li><bdi>Curriculum</bdi></li><li><bdi>District</bdi></li></ol>`,
				"<title>Manual · \u2068Curriculum\u2069 · \u2068District\u2069 · \u2068Español\u2069</title>"},
			nil},
		{"en", Info{LocaleName: "English", TranslationProgress: 100, ContentDate: date, SiteHome: "index.html", PDF: true},
			[]string{"February 25, 2026", `<html lang="en" class="paper-a4 pdf">`},
			[]string{`class="hb-site-nav"`, "translated", "Translation"}},
		{"ja", Info{ContentDate: date}, []string{"2026年2月25日", "<bdi>ja</bdi>"}, []string{"<time datetime=\"\""}},
		{"ar", Info{ContentDate: date, TranslationProgress: 150}, []string{"25 فبراير 2026", "مترجم بنسبة 100٪"}, nil},
		{"de", Info{}, []string{"Handbuch"}, []string{"<time", `class="hb-site-nav"`}},
	} {
		t.Run(tc.locale, func(t *testing.T) {
			doc := render(t, r, tree(tc.locale, node("x", nil)), tc.info)
			checkDocument(t, doc)
			for _, w := range tc.want {
				if !strings.Contains(doc, w) {
					t.Errorf("no %q", w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(doc, w) {
					t.Errorf("contains %q", w)
				}
			}
		})
	}
	base := tree("es", node("x", nil))
	base.Variant, base.VariantChain = "", []string{"Curriculum"}
	if doc := render(t, r, base, Info{}); !strings.Contains(doc, "<dd>Currículo base</dd>") || strings.Contains(doc, `class="hb-chain"`) {
		t.Error("the base curriculum's cover does not say so")
	}
	if doc := render(t, newRenderer(t, Options{Generator: "x"}), tree("en"), Info{}); strings.Contains(doc, `class="hb-toc"`) {
		t.Error("an empty tree has a table of contents")
	} else {
		checkDocument(t, doc)
	}
}

// TestDeepTree renders a 10,000-level chain with a small stack limit:
// nothing may recurse on depth.
func TestDeepTree(t *testing.T) {
	const depth = 10_000
	old := debug.SetMaxStack(8 << 20)
	defer debug.SetMaxStack(old)
	root := node("level 0", map[string]string{"description": `"text"`})
	n := root
	for i := 1; i < depth; i++ {
		c := node(fmt.Sprintf("level %d", i), map[string]string{"description": `"text [^1]\n\n[^1]: note"`})
		n.Children = []*model.Node{c}
		n = c
	}
	tr := tree("en", root)
	doc := render(t, newRenderer(t, Options{}), tr, Info{})
	checkDocument(t, doc)
	if got := strings.Count(doc, `<section class="hb-node`); got != depth {
		t.Fatalf("%d sections, want %d", got, depth)
	}
	toc := doc[strings.Index(doc, `<nav class="hb-toc"`):]
	toc = toc[:strings.Index(toc, "</nav>")]
	if got := strings.Count(toc, "<ol"); got != maxTOCNesting {
		t.Errorf("%d lists in the table of contents, want %d", got, maxTOCNesting)
	}
	if !strings.Contains(doc, `<section class="hb-node hb-d5" id="n9999" data-node-type="lesson">
<h6 class="hb-title">`) {
		t.Error("the deepest node is not an h6 section")
	}
	// Footnote ids stay unique across sections.
	// Footnote ids are prefixed by section (checkDocument checks they are
	// unique and that their links resolve).
	for _, want := range []string{`id="n1-description-fn:1"`, `href="#n9999-description-fn:1"`} {
		if !strings.Contains(doc, want) {
			t.Errorf("no %s", want)
		}
	}
}

func TestThemeOverride(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mustWrite := func(name, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite("handbook.html", `{{define "handbook-cover"}}<header class="my-cover"><h1>{{.Curriculum}} — {{.T "handbook"}}</h1></header>{{end}}`)
	mustWrite("node.html", `{{define "handbook-toc"}}website theme files are not the handbook's{{end}}`)
	tr, info := sample(t, "algebra-1/texas/es")

	r := newRenderer(t, Options{ThemeDir: dir})
	doc := render(t, r, tr, info)
	checkDocument(t, doc)
	if !strings.Contains(doc, `<header class="my-cover"><h1>Algebra 1 — Manual</h1></header>`) || strings.Contains(doc, `class="hb-cover__title"`) {
		t.Error("the theme's cover block is not used")
	}
	if !strings.Contains(doc, `<nav class="hb-toc"`) || !strings.Contains(doc, "--hb-measure") {
		t.Error("blocks and styles the theme does not define are not the defaults")
	}

	mustWrite("assets/handbook.css", "body { color: rebeccapurple; } /* </style><script>alert(1)</script> */")
	r = newRenderer(t, Options{ThemeDir: dir})
	doc = render(t, r, tr, info)
	checkDocument(t, doc)
	if !strings.Contains(doc, "body { color: rebeccapurple; }") || strings.Contains(doc, "--hb-measure") {
		t.Error("the theme's handbook.css does not replace the default")
	}
	if !strings.Contains(doc, "@page { size: A4; }") || !strings.Contains(doc, "@page p0 {") {
		t.Error("page rules are missing with a theme style sheet")
	}

	for name, o := range map[string]Options{
		"missing folder": {ThemeDir: filepath.Join(dir, "nope")},
		"file":           {ThemeDir: filepath.Join(dir, "handbook.html")},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "handbook.html"), []byte(`{{define "handbook-cover"}}{{.Nope`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{ThemeDir: bad}); err == nil || !strings.Contains(err.Error(), "theme template") {
		t.Errorf("broken theme template: err = %v", err)
	}
}

// TestTemplateNames: the website renderer parses every embedded template
// into each page's set, so the handbook's must not collide with its
// blocks.
func TestTemplateNames(t *testing.T) {
	t.Parallel()
	tmpl, err := template.New("x").ParseFS(templates.FS, templateFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range tmpl.Templates() {
		if n := d.Name(); n != "x" && n != templateFile && n != rootTemplate && !strings.HasPrefix(n, rootTemplate+"-") {
			t.Errorf("template %q is not named handbook-*", n)
		}
	}
	// And it parses without functions, as the website parses it.
	data, err := fs.ReadFile(templates.FS, templateFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := template.New("site").Parse(string(data)); err != nil {
		t.Error(err)
	}
}

func TestDeterministicAndConcurrent(t *testing.T) {
	t.Parallel()
	tr, info := sample(t, "algebra-1/houston-isd/ar")
	want := render(t, newRenderer(t, Options{}), tr, info)
	r := newRenderer(t, Options{})
	var wg sync.WaitGroup
	outs := make([][]byte, 8)
	errs := make([]error, 8)
	for i := range outs {
		wg.Go(func() { outs[i], errs[i] = r.Render(tr, info) })
	}
	wg.Wait()
	for i := range outs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !bytes.Equal(outs[i], []byte(want)) {
			t.Fatalf("render %d differs:\n%s", i, golden.FirstDiff([]byte(want), outs[i]))
		}
	}
}

func TestRenderErrors(t *testing.T) {
	t.Parallel()
	r := newRenderer(t, Options{})
	if _, err := r.Render(nil, Info{}); err == nil {
		t.Error("nil tree: no error")
	}
	if _, err := r.Render(tree("en"), Info{Paper: "tabloid"}); err == nil || !strings.Contains(err.Error(), "handbook c/d/en") {
		t.Errorf("error without context: %v", err)
	}
}

// TestThemeSymlinkRefused: a theme file that is a symlink is refused, not
// followed (issue 23): neither the template nor the style sheet.
func TestThemeSymlinkRefused(t *testing.T) {
	t.Parallel()
	for _, name := range []string{templateFile, filepath.Join("assets", styleFile)} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "assets"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/etc/passwd", filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		_, err := New(Options{ThemeDir: dir})
		if !errors.Is(err, localfile.ErrSymlink) {
			t.Errorf("%s a symlink: %v, want localfile.ErrSymlink", name, err)
		}
	}
}
