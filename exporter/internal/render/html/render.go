package html

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/curex/curex/exporter/internal/render/attrs"
	"html/template"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/localfile"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/exporter/internal/render/mathml"
	"github.com/curex/curex/exporter/internal/render/terms"
	"github.com/curex/curex/templates"
)

// Options configure a Renderer.
type Options struct {
	// Words are the run's words (render.Options.Words, the publisher's
	// attribute labels among them), under the theme's; nil: the built-in
	// words.
	Words *i18n.Catalog
	// Order is the publisher's order of attribute members
	// (render.Options.AttributeOrder).
	Order attrs.Order
	// ThemeDir is an optional folder that overrides the embedded theme: its
	// *.html files are parsed after the embedded templates, so a {{define}}
	// there replaces that block, its assets/ files replace the default
	// assets of the same name (site.css, site.js, icons/NAME.svg, ...), and
	// its i18n/<locale>.json files replace words of the interface.
	ThemeDir string
	// NoSitemap says the site has no sitemap (no Site.URL). The renderer
	// then keeps, of each tree it renders, only its translation progress
	// for the landing pages, not the page list a sitemap needs, so its
	// memory does not grow with the organization's nodes. RenderSite
	// fails if the site has a URL after all.
	NoSitemap bool
	// Gate, when set, bounds the pages rendered at once across every
	// RenderTree call: each page is rendered between its Acquire and
	// Release. An export uses it to keep a processor for the fetch.
	Gate render.Gate
	// Images shows the images content refers to from their local copies,
	// with paths relative to each page; nil leaves them remote.
	Images content.Images
	// Math converts TeX to MathML (nil: a converter of the renderer's
	// own).
	Math *mathml.Converter
	// Content, when set, is the run's converter of node content, which
	// the formats share (render.Options.Content); nil makes one from Math
	// and Order.
	Content *content.Converter
	// Stemmers, when set, stem the search index's words
	// (render.Options.Stemmers): kept by the caller, they are loaded and
	// remember their stems across renderers; nil makes a set for this
	// renderer.
	Stemmers *terms.Stemmers
	// Identity is the publisher's identity (checked with its Check): New
	// reads its logo, favicon and card image, RenderSite writes them under
	// assets/. The pages take the rest from Site.Identity.
	Identity render.Identity

	// blocksOnEveryPage makes every page run every block (see
	// Page.Render): the tests compare the bytes with and without reuse.
	blocksOnEveryPage bool
}

// pageKinds are the page templates; each is parsed on a clone of the
// shared layout (base.html and partials.html).
var pageKinds = templates.Pages()

// fullSidebarLimit is the largest tree whose node pages list every node in
// the sidebar; larger trees list the path to the page, its siblings and its
// children, so that pages stay small and rendering linear.
const fullSidebarLimit = 300

// sidebarWindow is how many siblings a windowed sidebar (a tree of more
// than fullSidebarLimit nodes) lists on each side of the node on the path
// to the page's node; the others are counted in a "… k more" link to the
// contents page. Ten keeps a screenful of neighbours around the page, and
// a page's size independent of how broad the tree is: one flat tree of
// 100,000 siblings wrote 22.8 MB per page, about 2 TB in all, before.
const sidebarWindow = 10

// Renderer writes the website. It is safe for concurrent RenderTree calls;
// RenderSite comes after every RenderTree.
type Renderer struct {
	opts  Options
	pages map[string]*template.Template
	// themed holds, by page kind, the blocks that reach a theme's
	// definition (themedBlocks): Page.Render runs them on every page.
	themed map[string]map[string]bool
	assets *assetSet
	// identity holds the files of Options.Identity.
	identity *identityAssets
	content  *contentRenderer
	// words are the user-interface words: curex's, with the theme's
	// i18n/<locale>.json over them.
	words *i18n.Catalog
	// joinItems is set when the "tree" template is the embedded one,
	// which prints a list's items one a line: a run of items rendered
	// once per tree is then handed to it as one item, joined the same
	// way, which saves the template a step per item on every page.
	joinItems bool
	// searchChunk is the size of a chunk of search text; 0 means
	// searchChunkBytes (tests set less to see several chunks).
	searchChunk int
	// searchShard is the size past which the terms of a search index
	// split into shards; 0 means searchShardBytes (tests set less).
	searchShard int
	// stemmers stem the search index's words (one interpreter per
	// language, shared by the trees rendered): Options.Stemmers, or a
	// set of the renderer's own.
	stemmers *terms.Stemmers

	// buffers holds page buffers for reuse (*bytes.Buffer): a page is
	// rendered into one and written; a buffer grown anew for every page
	// costs an allocation and several copies of each page.
	buffers sync.Pool

	mu    sync.Mutex
	trees map[string]*treeRecord // by export folder
	// dirs are the search directory's parts of the trees rendered or
	// reused (searchdir.go), by export folder.
	dirs map[string]*dirTree
}

// treeRecord is what RenderTree keeps for RenderSite: the translation
// progress of one tree for the landing page, and its pages for the
// sitemap (unless Options.NoSitemap).
type treeRecord struct {
	// progress is the outline's TranslationProgress.
	progress int
	outline  *Outline
	// ids are the node ids in reading order.
	ids []string
}

// New parses the embedded templates and theme, then the theme folder's.
// It is NewContext with a background context.
func New(o Options) (*Renderer, error) {
	return NewContext(context.Background(), o)
}

// NewContext is New: it reads the theme folder and the identity's files
// through the gate of local files (package localfile), and stops when
// ctx is done.
func NewContext(ctx context.Context, o Options) (*Renderer, error) {
	cr, err := newContentRenderer(content.Reuse(o.Content, content.WithMath(o.Math), content.WithOrder(o.Order)), o.Images)
	if err != nil {
		return nil, err
	}
	theme, err := readTheme(ctx, o.ThemeDir)
	if err != nil {
		return nil, err
	}
	pages, err := loadTemplates(o.ThemeDir, theme)
	if err != nil {
		return nil, err
	}
	themed := map[string]map[string]bool{}
	for kind, t := range pages {
		themed[kind] = themedBlocks(t)
	}
	words, err := o.Words.WithOverrides(theme)
	if err != nil {
		return nil, fmt.Errorf("theme: %w", err)
	}
	assets, err := loadAssets(theme, chromaCSS())
	if err != nil {
		return nil, err
	}
	identity, err := loadIdentity(ctx, o.Identity)
	if err != nil {
		return nil, err
	}
	stemmers := o.Stemmers
	if stemmers == nil {
		stemmers = terms.NewStemmers()
	}
	return &Renderer{opts: o, pages: pages, themed: themed, assets: assets, identity: identity, content: cr, words: words, trees: map[string]*treeRecord{}, dirs: map[string]*dirTree{}, stemmers: stemmers,
		joinItems: sameTemplate(pages["node"], embeddedTree(), "tree")}, nil
}

// embeddedTree is the embedded templates' definition of "tree" (nil if
// they had none or fail to parse, which loadTemplates reports).
func embeddedTree() *template.Template {
	t, err := template.New("curex").ParseFS(templates.FS, "partials.html")
	if err != nil {
		return nil
	}
	return t.Lookup("tree")
}

// sameTemplate says whether t's template name has the definition of want.
func sameTemplate(t, want *template.Template, name string) bool {
	if t == nil || want == nil || want.Tree == nil {
		return false
	}
	got := t.Lookup(name)
	return got != nil && got.Tree != nil && got.Tree.Root.String() == want.Tree.Root.String()
}

// readTheme reads the theme folder dir ("" for none) through the gate of
// local files (render.ReadTheme), by slash-separated path.
func readTheme(ctx context.Context, dir string) (map[string][]byte, error) {
	if dir == "" {
		return nil, nil
	}
	files, err := render.ReadTheme(ctx, localfile.OperatorRef(dir))
	if err != nil {
		return nil, fmt.Errorf("theme: %w", err)
	}
	return files, nil
}

// loadTemplates parses, for every page kind, the shared embedded templates,
// the page's embedded template, then the theme folder's shared templates
// and its template named after the page (node.html, toc.html, ...), so
// that a theme redefines any block for every page or for one kind.
func loadTemplates(themeDir string, theme map[string][]byte) (map[string]*template.Template, error) {
	isPage := func(name string) bool { return slices.Contains(pageKinds, strings.TrimSuffix(name, ".html")) }
	common := template.New("curex")
	names, err := fs.Glob(templates.FS, "*.html")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if isPage(n) {
			continue
		}
		if _, err := common.ParseFS(templates.FS, n); err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
	}
	type file struct{ name, text string }
	var themeCommon []file
	themePages := map[string]file{}
	for _, m := range slices.Sorted(maps.Keys(theme)) {
		if strings.Contains(m, "/") || path.Ext(m) != ".html" {
			continue // the theme's templates are its top-level *.html
		}
		f := file{themeFile + m, string(theme[m])}
		if isPage(m) {
			themePages[strings.TrimSuffix(m, ".html")] = f
		} else {
			themeCommon = append(themeCommon, f)
		}
	}
	out := map[string]*template.Template{}
	for _, kind := range pageKinds {
		t, err := common.Clone()
		if err != nil {
			return nil, err
		}
		if _, err := t.ParseFS(templates.FS, kind+".html"); err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		files := themeCommon
		if f, ok := themePages[kind]; ok {
			files = append(slices.Clip(files), f)
		}
		for _, f := range files {
			if _, err := t.New(f.name).Parse(f.text); err != nil {
				return nil, fmt.Errorf("theme %s: %w", themeDir, err)
			}
		}
		if t.Lookup("base") == nil {
			return nil, fmt.Errorf("templates: no %q template", "base")
		}
		out[kind] = t
	}
	return out, nil
}

// execute renders p with the template of its kind.
func (r *Renderer) execute(w render.Writer, kind string, p *Page) error {
	p.assets, p.tmpl, p.themed = r.assets, r.pages[kind], r.themed[kind]
	r.decorate(p)
	buf, _ := r.buffers.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer func() {
		// A very large page (a contents page of a big tree) is not kept.
		if buf.Cap() <= maxPooledBuffer {
			buf.Reset()
			r.buffers.Put(buf)
		}
	}()
	if err := r.pages[kind].ExecuteTemplate(buf, "base", p); err != nil {
		return fmt.Errorf("render %s: %w", p.Path, err)
	}
	return w.Write(p.Path, buf.Bytes()) // Write keeps no reference (see render.Writer)
}

// maxPooledBuffer is the largest page buffer kept for reuse.
const maxPooledBuffer = 1 << 18

// OutlineOf builds the Outline of a tree, as the run filtered it (the
// renderer filters nothing).
func OutlineOf(t *model.Tree) *Outline {
	o := &Outline{Export: t.Export, Parent: map[string]string{}, Path: map[string]string{}, progress: -1}
	if pct, ok := t.TranslationProgress(); ok {
		o.progress = pct
	}
	type item struct {
		n      *model.Node
		parent string
	}
	stack := make([]item, 0, len(t.Nodes))
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		stack = append(stack, item{t.Nodes[i], ""})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := it.n
		o.Parent[n.ID] = it.parent
		o.Path[n.ID] = layout.NodePage(t.Export, n.Segment)
		for i := len(n.Children) - 1; i >= 0; i-- {
			stack = append(stack, item{n.Children[i], n.ID})
		}
	}
	return o
}

// TranslationProgress is the tree's model.Tree.TranslationProgress: the
// share of its pages shown in its own locale, in percent, rounded down.
// It is -1 for an empty tree (or no outline).
func (o *Outline) TranslationProgress() int {
	if o == nil {
		return -1
	}
	return o.progress
}

// lookup finds the curriculum, variant and locale of an export in site.
func lookup(site *SiteInfo, e model.Export) (*Curriculum, *Variant, *model.Locale, error) {
	for _, c := range site.Curricula {
		if c.Slug != e.CurriculumSlug {
			continue
		}
		var v *Variant
		for i := range c.Variants {
			if c.Variants[i].Slug == e.VariantSlug {
				v = &c.Variants[i]
			}
		}
		var l *model.Locale
		for i := range c.Locales {
			if c.Locales[i].Slug == e.LocaleSlug {
				l = &c.Locales[i]
			}
		}
		if v == nil || l == nil {
			return nil, nil, nil, fmt.Errorf("html: export %s is not in the site's variants and locales", e.Dir())
		}
		return c, v, l, nil
	}
	return nil, nil, nil, fmt.Errorf("html: curriculum %q is not in the site", e.CurriculumSlug)
}

// siteLang is the language of the site-wide pages.
func siteLang(site *SiteInfo) string {
	if site.Lang != "" {
		return site.Lang
	}
	return "en"
}

// siteTitle is the site's title on pages in lang: the publisher's for
// that locale, else the publisher's, else the word for "Curricula".
func siteTitle(site *SiteInfo, lang string, m i18n.Messages) string {
	if t := site.Identity.For(lang).Title; t != "" {
		return t
	}
	if site.Title != "" {
		return site.Title
	}
	return m.T("site_title")
}

// localeRTL reports whether l is written right to left.
func localeRTL(l *model.Locale) bool { return RTL(l.Code) }

// localeByCode finds a curriculum's locale by code.
func localeByCode(c *Curriculum, code string) *model.Locale {
	for i := range c.Locales {
		if c.Locales[i].Code == code {
			return &c.Locales[i]
		}
	}
	return nil
}

// variantName is a variant's name, or "Base curriculum" for the base.
func variantName(v *Variant, m i18n.Messages) string {
	if v.Name == "" {
		return m.T("base")
	}
	return v.Name
}

// RenderSite writes the catalog (index.html), one landing page per
// curriculum, 404.html, robots.txt, sitemap.xml (only with a site URL: a
// sitemap needs absolute URLs) and the theme's assets. Call it after every
// RenderTree: the sitemap lists the pages they wrote.
func (r *Renderer) RenderSite(w render.Writer, site *SiteInfo) error {
	for _, k := range knownAssets {
		a := r.assets.byName[k]
		if err := w.Write(layout.Asset(a.Name), a.Data); err != nil {
			return err
		}
	}
	for _, a := range r.assets.extra {
		if err := w.Write(layout.Asset(a.Name), a.Data); err != nil {
			return err
		}
		h := r.assets.extraHashed[a.Name]
		if err := w.Write(layout.Asset(h.Name), h.Data); err != nil {
			return err
		}
	}
	if err := writeStemmers(w, site); err != nil {
		return err
	}
	for _, a := range r.identity.all() {
		if err := w.Write(layout.Asset(a.Name), a.Data); err != nil {
			return err
		}
	}
	shards := r.searchShard
	if shards <= 0 {
		shards = searchShardBytes
	}
	dir, err := r.writeSearchDir(w, site, shards)
	if err != nil {
		return err
	}
	if err := writeSearchPages(w, site, dir); err != nil {
		return err
	}
	if err := r.renderCatalog(w, site, dir); err != nil {
		return err
	}
	for _, c := range site.Curricula {
		if err := r.renderLanding(w, site, c, dir); err != nil {
			return err
		}
	}
	if err := r.renderNotFound(w, site); err != nil {
		return err
	}
	robots := "User-agent: *\nAllow: /\n"
	if site.URL != "" {
		if r.opts.NoSitemap {
			return errors.New("a site URL, but the renderer was made with NoSitemap: the sitemap cannot list the pages")
		}
		robots += "\nSitemap: " + absURL(site.URL, layout.Sitemap) + "\n"
		if err := w.Write(layout.Sitemap, r.sitemap(site)); err != nil {
			return err
		}
	}
	return w.Write(layout.Robots, []byte(robots))
}

func (r *Renderer) renderCatalog(w render.Writer, site *SiteInfo, dir *siteDir) error {
	lang := siteLang(site)
	m := r.words.For(lang)
	p := &Page{Kind: "catalog", Path: layout.Home, Lang: lang, RTL: RTL(lang), Site: site, msgs: m}
	p.Title = siteTitle(site, lang, m)
	if site.URL != "" {
		p.Canonical = absURL(site.URL, p.Path)
	}
	p.Header = Header{SiteTitle: p.Title, SiteHref: p.Href(layout.Home)}
	for _, c := range site.Curricula {
		p.Catalog = append(p.Catalog, CatalogEntry{
			Name: c.Name, Description: c.Description, Href: p.Href(layout.CurriculumIndex(c.Slug)),
			Lang: c.PrimaryLocale, RTL: RTL(c.PrimaryLocale), Variants: len(c.Variants), Locales: len(c.Locales),
		})
	}
	box, err := searchAcross(w, p, layout.SiteSearchSources, site.Curricula, m, true, dir)
	if err != nil {
		return err
	}
	p.Search = box
	p.Search.Placeholder = m.T("search_everywhere")
	return r.execute(w, "catalog", p)
}

func (r *Renderer) renderLanding(w render.Writer, site *SiteInfo, c *Curriculum, dir *siteDir) error {
	lang := c.PrimaryLocale
	if lang == "" {
		lang = siteLang(site)
	}
	m := r.words.For(lang)
	p := &Page{Kind: "curriculum", Path: layout.CurriculumIndex(c.Slug), Lang: lang, RTL: RTL(lang), Site: site, msgs: m}
	p.Title = c.Name + " — " + siteTitle(site, lang, m)
	p.Description = c.Description
	if site.URL != "" {
		p.Canonical = absURL(site.URL, p.Path)
	}
	p.Header = Header{SiteTitle: siteTitle(site, lang, m), SiteHref: p.Href(layout.Home), Curriculum: c.Name, CurriculumHref: p.Href(p.Path)}
	p.Breadcrumbs = []Link{{Title: siteTitle(site, lang, m), Href: p.Header.SiteHref}, {Title: c.Name}}
	l := &Landing{Name: c.Name, Description: c.Description}
	for _, loc := range c.Locales {
		l.Locales = append(l.Locales, LandingLocale{Locale: loc, RTL: RTL(loc.Code)})
	}
	for i := range c.Variants {
		v := &c.Variants[i]
		row := LandingRow{Name: v.Name, Depth: v.Depth}
		if v.Name == "" {
			row.Name = c.Name + " (" + m.T("base") + ")"
		}
		for _, loc := range c.Locales {
			key := v.Slug + "/" + loc.Slug
			cell := LandingCell{Lang: loc.Code, LocaleName: loc.Name, Published: loc.PublishedProgress,
				Translated: loc.TranslationProgress, Exported: c.Exported[key]}
			if rec := r.tree(c.Slug + "/" + key); rec != nil {
				if pct := rec.progress; pct >= 0 {
					cell.Translated = pct
				}
			}
			if cell.Exported {
				e := model.Export{CurriculumSlug: c.Slug, VariantSlug: v.Slug, LocaleSlug: loc.Slug}
				cell.Href = p.Href(layout.ExportIndex(e))
				cell.Downloads = downloads(site, e, p, m)
			}
			row.Cells = append(row.Cells, cell)
		}
		l.Rows = append(l.Rows, row)
	}
	p.Landing = l
	box, err := searchAcross(w, p, layout.CurriculumSearchSources(c.Slug), []*Curriculum{c}, m, false, dir)
	if err != nil {
		return err
	}
	p.Search = box
	p.Search.Placeholder = m.T("search_placeholder")
	return r.execute(w, "curriculum", p)
}

// renderNotFound writes 404.html. Hosts serve it at any path, so its links
// cannot be relative: they start at the site URL when there is one, else
// at "/" (the only links of the site that do).
func (r *Renderer) renderNotFound(w render.Writer, site *SiteInfo) error {
	lang := siteLang(site)
	m := r.words.For(lang)
	root := "/"
	if site.URL != "" {
		root = strings.TrimSuffix(site.URL, "/") + "/"
	}
	p := &Page{Kind: "notfound", Path: layout.NotFound, Lang: lang, RTL: RTL(lang), Site: site, msgs: m, root: root}
	p.Title = m.T("not_found_title") + " — " + siteTitle(site, lang, m)
	p.Header = Header{SiteTitle: siteTitle(site, lang, m), SiteHref: root}
	return r.execute(w, "404", p)
}

// tree returns the record of the tree rendered at dir, or nil.
func (r *Renderer) tree(dir string) *treeRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.trees[dir]
}

// record keeps what RenderSite needs of a rendered tree.
func (r *Renderer) record(dir string, rec *treeRecord) {
	rec.progress = rec.outline.TranslationProgress()
	if r.opts.NoSitemap {
		rec.outline, rec.ids = nil, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.trees[dir] = rec
}

// jsonMarshal encodes v like encoding/json, keeping the escapes of <, >
// and & so the result is safe inside a script.
func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
