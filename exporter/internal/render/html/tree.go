package html

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/curex/curex/exporter/internal/changes"
	"github.com/curex/curex/exporter/internal/crash"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/feed"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/exporter/internal/render/mathstyle"
)

// flatNode is a node in reading order with its parent.
type flatNode struct {
	n      *model.Node
	parent *flatNode
	index  int
	// fields are the node's text attributes as plain text (nodeFields),
	// set by the worker that renders the node's page, read by the search
	// index.
	fields []searchField
}

// target is another exported tree a page links to.
type target struct {
	locale  *model.Locale
	variant *Variant
	outline *Outline
}

// treeCtx is everything RenderTree needs while it writes one tree.
type treeCtx struct {
	// ctx is the run's: formulas convert under it.
	ctx       context.Context
	r         *Renderer
	site      *SiteInfo
	c         *Curriculum
	v         *Variant
	l         *model.Locale
	t         *model.Tree
	m         i18n.Messages
	dir       string
	history   *changes.History // nil: no "What's new" page
	flat      []*flatNode
	byID      map[string]*flatNode
	locales   []target // every exported locale of the variant, this one included
	variants  []target // every variant exported in this locale, this one included
	toc       string
	rtl       bool
	fullSide  bool
	primary   *model.Locale
	bundleRel string
	// items holds sidebar items off the current path, rendered once (by
	// link and "more" mark): they look the same on every node page.
	itemCache map[string]template.HTML
	// blocks holds the blocks the node pages share (Page.Render): one
	// per worker, as itemCache.
	blocks blocks
	// splice, on a worker of node pages, makes the sidebar one item of
	// markup put together from parts rendered once per tree (items):
	// itemCache's, and halves, the open items' markup around their
	// children, by the item's link (unique, as a node's page is, where
	// ids may repeat). Set when the tree block is the embedded one
	// (joinItems).
	splice bool
	halves map[string][2]string
	// levels holds, by the link of the open item on the path above the
	// page's node, its list's markup around its children's (see
	// spliceVia): the same on every page under it.
	levels map[string][2]string
	// pages holds each node's page (layout.NodePage).
	pages map[*model.Node]string
}

// RenderTree writes one tree: its contents page (layout.ExportIndex), a
// page per node (layout.NodePage), and its search index (layout.Search
// and layout.SearchScript). outlines gives the other exported
// trees of the site, for the language and variant switchers. t is
// rendered as given: the run has filtered it (published nodes only,
// unless it includes the others). Its formulas are converted under ctx,
// so that the run's end stops a conversion under way.
func (r *Renderer) RenderTree(ctx context.Context, w render.Writer, site *SiteInfo, t *model.Tree, outlines Outlines) error {
	c, v, l, err := lookup(site, t.Export)
	if err != nil {
		return err
	}
	own := OutlineOf(t)
	x := &treeCtx{ctx: ctx, r: r, site: site, c: c, v: v, l: l, t: t, m: r.words.For(l.Code), dir: t.Dir(),
		byID: map[string]*flatNode{}, pages: map[*model.Node]string{}, rtl: localeRTL(l), itemCache: map[string]template.HTML{}}
	x.toc = layout.ExportIndex(t.Export)
	x.history = site.Changes[x.dir]
	x.primary = localeByCode(c, c.PrimaryLocale)
	if site.PageData != nil {
		x.bundleRel = site.PageData(t.Export)
	}
	var flatten func(ns []*model.Node, parent *flatNode)
	flatten = func(ns []*model.Node, parent *flatNode) {
		for _, n := range ns {
			f := &flatNode{n: n, parent: parent, index: len(x.flat)}
			x.flat = append(x.flat, f)
			x.byID[n.ID] = f
			x.pages[n] = layout.NodePage(t.Export, n.Segment)
			flatten(n.Children, f)
		}
	}
	flatten(t.Nodes, nil)
	x.fullSide = len(x.flat) <= fullSidebarLimit

	x.findSwitchers(outlines, own)
	if err := x.renderPages(w); err != nil {
		return err
	}
	ids := make([]string, len(x.flat))
	for i, f := range x.flat {
		ids[i] = f.n.ID
	}
	r.record(x.dir, &treeRecord{outline: own, ids: ids})
	return nil
}

// findSwitchers finds the trees the language and variant switchers link to:
// the other locales of this variant and the other variants in this
// locale that have pages (own is this tree's outline).
func (x *treeCtx) findSwitchers(outlines Outlines, own *Outline) {
	outline := func(vs *Variant, ls *model.Locale) *Outline {
		if vs.Slug == x.v.Slug && ls.Slug == x.l.Slug {
			return own
		}
		if !x.c.Exported[vs.Slug+"/"+ls.Slug] || outlines == nil {
			return nil
		}
		return outlines.Outline(x.c.Slug, vs.Slug, ls.Slug)
	}
	for i := range x.c.Locales {
		if o := outline(x.v, &x.c.Locales[i]); o != nil {
			x.locales = append(x.locales, target{locale: &x.c.Locales[i], variant: x.v, outline: o})
		}
	}
	for i := range x.c.Variants {
		if o := outline(&x.c.Variants[i], x.l); o != nil {
			x.variants = append(x.variants, target{locale: x.l, variant: &x.c.Variants[i], outline: o})
		}
	}
}

// renderPages writes the node pages, the contents page, the "What's
// new" page and the search index. Node pages are independent: they are
// rendered on every processor, each worker with its own cache of sidebar
// items, and the other pages and the search index beside them, once
// every node's text (its fields, which the index and the node pages
// both read) is known.
func (x *treeCtx) renderPages(w render.Writer) error {
	workers := max(1, min(runtime.GOMAXPROCS(0), len(x.flat)/8))
	errs := make([]error, workers+1)
	var wg sync.WaitGroup
	// each runs fn for the nodes k, k+workers, ... on worker k of each
	// of workers, until the first error or the run's end.
	each := func(k int, fn func(f *flatNode) error) {
		defer crash.Recover(&errs[k])
		for i := k; i < len(x.flat) && errs[k] == nil; i += workers {
			if err := x.ctx.Err(); err != nil {
				errs[k] = err // the run ended: no more pages
				return
			}
			errs[k] = fn(x.flat[i])
		}
	}
	for k := range workers {
		wg.Go(func() {
			each(k, func(f *flatNode) error {
				return x.gated(func() error {
					f.fields = nodeFields(f.n, x.m, x.r.opts.Order)
					return nil
				})
			})
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	wg.Go(func() {
		defer crash.Recover(&errs[workers])
		errs[workers] = x.gated(func() error { return x.renderTOC(w) })
		if errs[workers] == nil && x.history != nil {
			errs[workers] = x.gated(func() error { return x.renderChanges(w) })
		}
		if errs[workers] == nil {
			errs[workers] = x.gated(func() error { return x.writeSearch(w) })
		}
	})
	for k := range workers {
		wx := *x
		wx.itemCache = map[string]template.HTML{}
		if !x.r.opts.blocksOnEveryPage {
			wx.blocks = blocks{}
			wx.splice, wx.halves, wx.levels = x.r.joinItems, map[string][2]string{}, map[string][2]string{}
		}
		wg.Go(func() {
			each(k, func(f *flatNode) error {
				return wx.gated(func() error { return wx.renderNode(w, f) })
			})
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// gated runs render within the renderer's gate, if any.
func (x *treeCtx) gated(render func() error) error {
	if g := x.r.opts.Gate; g != nil {
		g.Acquire()
		defer g.Release()
	}
	return render()
}

// Reuse tells the renderer that the pages of t are already in the output,
// unchanged (an incremental export carried them over): RenderSite then
// counts them in the sitemap and the landing page's progress as if
// RenderTree had written them.
//
// Its part of the site's search directory is read from its index as the
// previous output holds it, through prior (nil: none), and else
// gathered from t again, as RenderTree would (about a tenth of the
// tree's rendering). Without it (a stemmer that fails to start, which
// an embedded one does not) the catalog's box searches its index
// whatever the query, as it does an index the run did not see.
func (r *Renderer) Reuse(t *model.Tree, prior func(rel string) ([]byte, error)) {
	var ids []string
	t.Walk(func(n *model.Node) bool { ids = append(ids, n.ID); return true })
	r.record(t.Dir(), &treeRecord{outline: OutlineOf(t), ids: ids})
	if prior != nil {
		if d, err := dirFromFiles(t.Export, prior); err == nil {
			r.keepDir(t.Dir(), d)
			return
		}
	}
	if d, err := r.reuseDir(t); err == nil {
		r.keepDir(t.Dir(), d)
	}
}

// page starts a page of the tree at path.
func (x *treeCtx) page(kind, path string) *Page {
	p := &Page{Kind: kind, Path: path, Lang: x.l.Code, RTL: x.rtl, Site: x.site, msgs: x.m, assets: x.r.assets}
	if x.site.URL != "" {
		p.Canonical = absURL(x.site.URL, path)
	}
	p.Header = Header{
		SiteTitle: siteTitle(x.site, x.l.Code, x.m), SiteHref: p.Href(layout.Home),
		Curriculum: x.c.Name, CurriculumHref: p.Href(layout.CurriculumIndex(x.c.Slug)),
		Variant: variantName(x.v, x.m), Locale: x.l.Name, TOCHref: p.Href(x.toc),
	}
	if x.c.PrimaryLocale != x.l.Code {
		p.Header.CurriculumLang = x.c.PrimaryLocale
	}
	p.Search = &SearchBox{
		Action: p.Href(x.toc), Placeholder: x.m.T("search_placeholder"),
		Sources: []SearchSource{searchSource(p, x.t.Export, x.l.Code)},
		Widen:   p.Href(layout.CurriculumIndex(x.c.Slug)),
	}
	return p
}

// locate finds node id (the contents page when id is "") in outline o: the
// node itself, else its nearest ancestor there, else o's contents page.
func (x *treeCtx) locate(o *Outline, id string) (path string, exact bool) {
	toc := layout.ExportIndex(o.Export)
	if id == "" {
		return toc, true
	}
	if p, ok := o.Path[id]; ok {
		return p, true
	}
	if f := x.byID[id]; f != nil {
		for a := f.parent; a != nil; a = a.parent {
			if p, ok := o.Path[a.n.ID]; ok {
				return p, false
			}
		}
	}
	return toc, false
}

// switchers fills the language and variant switchers and the hreflang
// alternates of the page of node id ("" for the contents page).
func (x *treeCtx) switchers(p *Page, id string) {
	var xdefault *Alternate
	for _, tg := range x.locales {
		path, exact := x.locate(tg.outline, id)
		s := Switch{Name: tg.locale.Name, Href: p.Href(path), Lang: tg.locale.Code, RTL: localeRTL(tg.locale),
			Current: tg.locale == x.l, Progress: tg.outline.TranslationProgress(), Nearest: !exact}
		if s.Progress < 0 {
			s.Progress = tg.locale.TranslationProgress
		}
		p.Languages = append(p.Languages, s)
		if !exact {
			continue
		}
		href := p.Href(path)
		if x.site.URL != "" {
			href = absURL(x.site.URL, path)
		}
		p.Alternates = append(p.Alternates, Alternate{Lang: tg.locale.Code, Href: href})
		if tg.locale.Code == x.c.PrimaryLocale {
			xdefault = &Alternate{Lang: "x-default", Href: href}
		}
	}
	if xdefault != nil {
		p.Alternates = append(p.Alternates, *xdefault)
	}
	for _, tg := range x.variants {
		path, exact := x.locate(tg.outline, id)
		name := tg.variant.Name
		if name == "" {
			name = x.c.Name + " (" + x.m.T("base") + ")"
		}
		p.Variants = append(p.Variants, Switch{Name: name, Href: p.Href(path), Current: tg.variant == x.v,
			Depth: tg.variant.Depth, Nearest: !exact, Progress: -1})
	}
}

// link is a node's link from page p.
func (x *treeCtx) link(p *Page, n *model.Node) Link {
	return Link{Title: n.Title, Href: p.Href(x.pages[n]), Lang: x.t.FallbackLocale(n), TypeDisplay: n.Label(),
		Icon: x.r.assets.iconClass(n.NodeType.Icon)}
}

// draft is the "Not published" label of an unpublished node, else "".
func (x *treeCtx) draft(n *model.Node) string {
	if n.Published() {
		return ""
	}
	return x.m.T("draft")
}

// items builds tree items for ns: every level when all, else only the
// children of nodes in open (the path to the current node), each level cut
// to a window of siblings (see window). On a node page whose sidebar is
// spliced (x.splice), the list is one item whose HTML holds every item.
func (x *treeCtx) items(p *Page, ns []*model.Node, open map[string]bool, all bool, current string) []*TreeItem {
	lo, hi := 0, len(ns)
	if !all {
		lo, hi = window(ns, open, current)
	}
	// The list's classes come from its first node, in or out of the
	// window, so an item's markup does not depend on the page.
	l := &itemList{x: x, out: make([]*TreeItem, 0, hi-lo+2), class: x.itemClass(ns[0], len(ns[0].Children) > 0 && !all),
		splice: x.splice && p.Kind == "node"}
	if l.splice {
		if via := spliceVia(ns[lo:hi], open, current); via != nil {
			l.via = p.Href(x.pages[via])
			if lv, ok := x.levels[l.via]; ok {
				if kids := x.items(p, via.Children, open, all, current); len(kids) == 1 && kids[0].HTML != "" {
					return []*TreeItem{{ListClass: l.class, HTML: template.HTML(lv[0] + string(kids[0].HTML) + lv[1])}} // parts of html/template's output
				}
				l.via = ""
			}
		}
	}
	if lo > 0 {
		l.add(x.elided(p, lo, l.class))
	}
	for _, n := range ns[lo:hi] {
		href := p.Href(x.pages[n])
		more := len(n.Children) > 0 && !all && !open[n.ID]
		// An item off the path to the page's node renders the same on
		// every node page (they all sit at the same depth): once per tree.
		// Its link is its key: off the path, More and Class follow from
		// the node alone, as all is the same for every node page.
		key := ""
		if p.Kind == "node" && !open[n.ID] && n.ID != current {
			key = href
			if h, ok := x.itemCache[key]; ok {
				if x.r.joinItems {
					l.run = append(l.run, string(h))
					continue
				}
				l.flush()
				l.out = append(l.out, &TreeItem{Title: n.Title, Href: href, ID: n.ID, More: more, ListClass: l.class, HTML: h})
				continue
			}
		}
		it := x.item(n, href, l.class, open[n.ID], n.ID == current, more)
		if len(n.Children) > 0 && !more {
			it.Children = x.items(p, n.Children, open, all, current)
			if l.splice && it.Open && !it.Current {
				// An open item other than the page's own: the same on every
				// page under it but for its children, which go between
				// the halves of it rendered once.
				if pre, post, ok := x.openItem(it); ok {
					if it.Href == l.via {
						l.viaSeen, l.viaAt, l.viaPre, l.viaPost = true, len(l.run), pre, post
					}
					l.run = append(l.run, pre+string(it.Children[0].HTML)+post)
					continue
				}
			}
		}
		if key != "" {
			if h, ok := x.renderItem(it); ok {
				x.itemCache[key] = h
				it.HTML = h
			}
		}
		l.add(it)
	}
	if hi < len(ns) {
		l.add(x.elided(p, len(ns)-hi, l.class))
	}
	l.keepLevel()
	l.flush()
	return l.out
}

// spliceVia returns the one node of ns (a list's listed window) on the
// path above the page's own: its list is then the same on every page
// under it but for its children's (x.levels). nil when the list holds
// the page's own node, none on the path, or more than one (ids may
// repeat).
func spliceVia(ns []*model.Node, open map[string]bool, current string) *model.Node {
	var via *model.Node
	for _, n := range ns {
		switch {
		case n.ID == current:
			return nil
		case open[n.ID]:
			if via != nil || len(n.Children) == 0 {
				return nil
			}
			via = n
		}
	}
	return via
}

// item is the sidebar item of node n, linked by href, in a list of
// classes listClass.
func (x *treeCtx) item(n *model.Node, href, listClass string, open, current, more bool) *TreeItem {
	it := &TreeItem{Title: n.Title, Href: href, Lang: x.t.FallbackLocale(n), TypeDisplay: n.Label(),
		Icon: x.r.assets.iconClass(n.NodeType.Icon), ID: n.ID, Draft: x.draft(n), Open: open, Current: current, More: more,
		ListClass: listClass}
	if c := x.itemClass(n, more); c != listClass {
		it.Class = c
	}
	if len(n.Children) > 0 && !more {
		it.TogglePre, it.TogglePost, _ = strings.Cut(x.m.T("toggle_section"), "%s")
	}
	return it
}

// itemList gathers the items of one list of the sidebar: a run of items
// rendered once per tree that follow one another is given to "tree" as
// one item (see Renderer.joinItems); when splice, every item is.
type itemList struct {
	x      *treeCtx
	out    []*TreeItem
	run    []string
	class  string
	splice bool
	// via is the link of the list's item on the path above the page's
	// node (spliceVia), when its markup is not yet in x.levels; viaAt is
	// where its markup is in run, around its children's viaPre and viaPost.
	via             string
	viaSeen         bool
	viaAt           int
	viaPre, viaPost string
}

// keepLevel keeps in x.levels the markup of the list around its item
// on the path's children (via), when the whole list is one run.
func (l *itemList) keepLevel() {
	if l.via == "" || !l.viaSeen || len(l.out) > 0 {
		return
	}
	pre, post := l.viaPre, l.viaPost
	if before := l.run[:l.viaAt]; len(before) > 0 {
		pre = strings.Join(before, "\n") + "\n" + pre
	}
	if after := l.run[l.viaAt+1:]; len(after) > 0 {
		post += "\n" + strings.Join(after, "\n")
	}
	l.x.levels[l.via] = [2]string{pre, post}
}

// add adds an item built for this page: when splice, to the run,
// rendered; else, or when it does not render (the page's template then
// reports why), as it is.
func (l *itemList) add(it *TreeItem) {
	if l.splice {
		h := it.HTML
		if h == "" {
			h, _ = l.x.renderItem(it)
		}
		if h != "" {
			l.run = append(l.run, string(h))
			return
		}
	}
	l.flush()
	l.out = append(l.out, it)
}

// flush ends the run as one item.
func (l *itemList) flush() {
	switch len(l.run) {
	case 0:
		return
	case 1:
		l.out = append(l.out, &TreeItem{ListClass: l.class, HTML: template.HTML(l.run[0])}) // output of html/template
	default:
		l.out = append(l.out, &TreeItem{ListClass: l.class, HTML: template.HTML(strings.Join(l.run, "\n"))}) // idem
	}
	l.run = l.run[:0]
}

// renderItem renders it with the tree-item block; false on an error,
// which the page's own template then reports.
func (x *treeCtx) renderItem(it *TreeItem) (template.HTML, bool) {
	var buf bytes.Buffer
	if err := x.r.pages["node"].ExecuteTemplate(&buf, "tree-item", it); err != nil {
		return "", false
	}
	return template.HTML(buf.String()), true // output of html/template
}

// childrenMark stands for an open item's children while its halves are
// rendered (openItem): no escaped text holds a NUL.
const childrenMark = "\x00"

// openItem returns the markup of the open item it around its children's
// list (one item of markup, it.Children[0].HTML): the halves come from
// rendering it once per tree with a mark for the list (x.halves). false
// when the halves cannot be told apart.
func (x *treeCtx) openItem(it *TreeItem) (pre, post string, ok bool) {
	if len(it.Children) != 1 || it.Children[0].HTML == "" {
		return "", "", false
	}
	children := it.Children[0]
	hv, ok := x.halves[it.Href]
	if !ok {
		// The mark stands in for the children's items: the list around
		// it is theirs (its classes are its first item's).
		it.Children = []*TreeItem{{ListClass: children.ListClass, HTML: childrenMark}}
		h, rendered := x.renderItem(it)
		it.Children = []*TreeItem{children}
		if !rendered || strings.Count(string(h), childrenMark) != 1 {
			return "", "", false
		}
		pre, post, _ := strings.Cut(string(h), childrenMark)
		hv = [2]string{pre, post}
		x.halves[it.Href] = hv
	}
	return hv[0], hv[1], true
}

// itemClass is the classes of a sidebar item of node n: its icon, and
// "more" when it has children the sidebar does not list.
func (x *treeCtx) itemClass(n *model.Node, more bool) string {
	c := x.r.assets.iconClass(n.NodeType.Icon)
	if more {
		c += " more"
	}
	return c
}

// window returns the range of siblings ns a windowed sidebar lists: at most
// sidebarWindow before and after the one on the path to the current node
// (open or current), or the first 2 × sidebarWindow + 1 when none is. A
// page's sidebar then holds at most 2 × sidebarWindow + 3 items a level,
// however broad the tree.
func window(ns []*model.Node, open map[string]bool, current string) (lo, hi int) {
	if len(ns) <= 2*sidebarWindow+1 {
		return 0, len(ns)
	}
	focus := -1
	for i, n := range ns {
		if open[n.ID] || n.ID == current {
			focus = i
			break
		}
	}
	if focus < 0 {
		return 0, 2*sidebarWindow + 1
	}
	lo = max(0, focus-sidebarWindow)
	hi = min(len(ns), focus+sidebarWindow+1)
	return lo, hi
}

// elided is the sidebar item that stands for k siblings left out of the
// window: a link to the contents page, which lists every node.
func (x *treeCtx) elided(p *Page, k int, listClass string) *TreeItem {
	return &TreeItem{Title: x.m.T("more_in_contents", k), Href: p.Href(x.toc), Elided: k, ListClass: listClass}
}

// downloads lists the other forms of the tree the site links to.
func (x *treeCtx) downloads(p *Page) []Download {
	return downloads(x.site, x.t.Export, p, x.m)
}

// downloads are the other forms of export e the site's formats wrote
// (site.Downloads: handbook, PDF, EPUB, cartridge, Markdown and JSON
// bundles, and any format a build adds), linked from p with labels in
// the language of m.
func downloads(site *SiteInfo, e model.Export, p *Page, m i18n.Messages) []Download {
	var out []Download
	for _, d := range site.Downloads {
		out = append(out, Download{Href: p.Href(d.Path(e)), Type: d.Type, Label: downloadLabel(d, m), Kind: d.Format, Opens: d.Opens})
	}
	return out
}

// downloadLabel is the text of a link to d in the language of m: its
// words in the catalogs, or the label the format brings when they have
// none.
func downloadLabel(d render.Download, m i18n.Messages) string {
	if d.LabelKey != "" {
		if s := m.T(d.LabelKey); s != d.LabelKey {
			return s
		}
	}
	if d.Label != "" {
		return d.Label
	}
	return d.Format
}

// title is the document title of a page of the tree.
func (x *treeCtx) title(first string) string {
	return first + " — " + x.c.Name + " · " + variantName(x.v, x.m) + " · " + x.l.Name
}

func (x *treeCtx) renderTOC(w render.Writer) error {
	p := x.page("toc", x.toc)
	p.Title = x.title(x.m.T("contents"))
	p.Description = x.c.Description
	p.Breadcrumbs = []Link{
		{Title: p.Header.SiteTitle, Href: p.Header.SiteHref},
		{Title: x.c.Name, Href: p.Header.CurriculumHref, Lang: p.Header.CurriculumLang},
		{Title: x.m.T("contents")},
	}
	x.switchers(p, "")
	p.TOC = x.items(p, x.t.Nodes, nil, true, "")
	if x.bundleRel != "" {
		p.Bundle = p.Href(x.bundleRel)
	}
	p.Downloads = x.downloads(p)
	if x.history != nil {
		p.WhatsNew, p.Feed = p.Href(layout.WhatsNew(x.t.Export)), p.Href(layout.Feed(x.t.Export))
	}
	return x.r.execute(w, "toc", p)
}

// renderChanges writes the "What's new" page and the Atom feed of the
// tree's history.
func (x *treeCtx) renderChanges(w render.Writer) error {
	h := x.history
	// The file names of layout hold a dot, which no node's segment does:
	// they never meet a node's folder.
	path := layout.WhatsNew(x.t.Export)
	p := x.page("whatsnew", path)
	p.Title = x.title(x.m.T("whats_new"))
	p.Breadcrumbs = []Link{
		{Title: p.Header.SiteTitle, Href: p.Header.SiteHref},
		{Title: x.c.Name, Href: p.Header.CurriculumHref, Lang: p.Header.CurriculumLang},
		{Title: x.m.T("contents"), Href: p.Href(x.toc)},
		{Title: x.m.T("whats_new")},
	}
	p.WhatsNew, p.Feed = "", p.Href(layout.Feed(x.t.Export))
	node := func(it changes.Item) string {
		if it.Path == "" || x.byID[it.ID] == nil {
			return "" // removed, or not shown here
		}
		return p.Href(it.Path)
	}
	lang := func(it changes.Item) string {
		if f := x.byID[it.ID]; f != nil {
			return x.t.FallbackLocale(f.n)
		}
		return ""
	}
	p.Changes = &ChangesView{}
	for i := range h.Entries {
		e := &h.Entries[i]
		ce := ChangeEntry{Anchor: feed.Anchor(e), Date: e.Date.UTC().Format("2006-01-02"), DateTime: e.Date.UTC().Format(time.RFC3339), Title: x.changeCount(e.Count())}
		group := func(kind, label string, items []ChangeItem) {
			if len(items) > 0 {
				ce.Groups = append(ce.Groups, ChangeGroup{Kind: kind, Label: x.m.T(label), Items: items})
			}
		}
		plain := func(list []changes.Item) []ChangeItem {
			var out []ChangeItem
			for _, it := range list {
				out = append(out, ChangeItem{Title: it.Title, Href: node(it), Lang: lang(it)})
			}
			return out
		}
		var moved, retitled []ChangeItem
		for _, m := range e.Moved {
			moved = append(moved, ChangeItem{Title: m.Title, Href: node(m.Item), Lang: lang(m.Item), Note: x.m.T("moved_from_to", orDash(m.From), orDash(m.To))})
		}
		for _, r := range e.Retitled {
			retitled = append(retitled, ChangeItem{Title: r.Title, Href: node(r.Item), Lang: lang(r.Item), Note: x.m.T("was_titled", r.From)})
		}
		group("added", "changes_added", plain(e.Added))
		group("removed", "changes_removed", plain(e.Removed))
		group("moved", "changes_moved", moved)
		group("retitled", "changes_retitled", retitled)
		group("content", "changes_content", plain(e.ContentChanged))
		group("translated", "changes_translated", plain(e.Translated))
		p.Changes.Entries = append(p.Changes.Entries, ce)
	}
	if err := x.r.execute(w, "whatsnew", p); err != nil {
		return err
	}
	return x.renderFeed(w, p)
}

// renderFeed writes the Atom feed of the tree's history; its links are
// absolute with a site URL, else relative to the feed.
func (x *treeCtx) renderFeed(w render.Writer, page *Page) error {
	feedPath := layout.Feed(x.t.Export)
	link := func(to string) string {
		if x.site.URL != "" {
			return absURL(x.site.URL, to)
		}
		return rel(feedPath, to)
	}
	title := x.c.Name + " · " + variantName(x.v, x.m) + " · " + x.l.Name
	id := "urn:curex:changes:" + x.c.ID + ":" + x.v.Slug + ":" + x.l.Code
	if x.site.URL != "" {
		id = absURL(x.site.URL, feedPath)
	}
	data, err := feed.Atom(x.history, feed.Options{
		Title: x.m.T("feed_title", title), Lang: x.l.Code,
		Self: link(feedPath), Page: link(page.Path), ID: id,
		Node: func(path string) string { return link(path) }, Updated: x.t.ResolvedAt, Generator: x.site.Generator,
		Labels: feed.Labels{
			Entry:          func(n int, date string) string { return date + " · " + x.changeCount(n) },
			Added:          x.m.T("changes_added"),
			Removed:        x.m.T("changes_removed"),
			Moved:          x.m.T("changes_moved"),
			Retitled:       x.m.T("changes_retitled"),
			ContentChanged: x.m.T("changes_content"),
			Translated:     x.m.T("changes_translated"),
			MovedFromTo:    x.m.T("moved_from_to"),
			WasTitled:      x.m.T("was_titled"),
		},
	})
	if err != nil {
		return err
	}
	return w.Write(feedPath, data)
}

// changeCount says how many changes an entry holds.
func (x *treeCtx) changeCount(n int) string {
	if n == 1 {
		return x.m.T("change_one")
	}
	return x.m.T("changes_count", n)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func (x *treeCtx) renderNode(w render.Writer, f *flatNode) error {
	n := f.n
	p := x.page("node", x.pages[n])
	p.blocks = x.blocks
	p.Title = x.title(n.Title)
	p.Description = cutRunes(descriptionText(f.fields), excerptRunes)
	if len(p.Description) > 160 {
		p.Description = truncateRunes(p.Description, 160)
	}
	// Breadcrumbs: catalog, curriculum, contents, ancestors, the node.
	var chain []*flatNode
	for a := f; a != nil; a = a.parent {
		chain = append(chain, a)
	}
	p.Breadcrumbs = []Link{
		{Title: p.Header.SiteTitle, Href: p.Header.SiteHref},
		{Title: x.c.Name, Href: p.Header.CurriculumHref, Lang: p.Header.CurriculumLang},
		{Title: x.m.T("contents"), Href: p.Href(x.toc)},
	}
	open := make(map[string]bool, len(chain))
	for i := len(chain) - 1; i >= 0; i-- {
		a := chain[i].n
		open[a.ID] = true
		l := x.link(p, a)
		if i == 0 {
			l.Href = ""
		}
		p.Breadcrumbs = append(p.Breadcrumbs, l)
	}
	x.switchers(p, n.ID)
	p.Sidebar = x.items(p, x.t.Nodes, open, x.fullSide, n.ID)

	nv := &NodeView{ID: n.ID, Title: n.Title, Type: n.NodeType.Name, TypeName: n.NodeType.DisplayName, TypeDisplay: n.Label(),
		Icon: x.r.assets.iconClass(n.NodeType.Icon), Draft: x.draft(n), Badges: x.badges(n)}
	if lang := x.t.FallbackLocale(n); lang != "" {
		name := lang
		if loc := localeByCode(x.c, lang); loc != nil {
			name = loc.Name
		}
		nv.Fallback = x.m.T("fallback_notice", name)
		nv.ContentLang = lang
		nv.ContentRTL = RTL(lang)
		if loc := localeByCode(x.c, lang); loc != nil {
			nv.ContentRTL = localeRTL(loc)
		}
	}
	html, err := x.r.content.node(x.ctx, n.Attributes, n.Title, x.m, contentPrefix, p.Path)
	if err != nil {
		return fmt.Errorf("html: node %q of %s: %w", n.ID, x.dir, err)
	}
	nv.Content = html
	p.Chroma = strings.Contains(string(html), `class="chroma`)
	p.Math = mathstyle.Holds([]byte(html))
	for _, ch := range n.Children {
		nv.Children = append(nv.Children, x.link(p, ch))
	}
	sections := ""
	if len(nv.Children) > 0 {
		sections = x.m.T("in_this_section")
	}
	nv.OnThisPage = onThisPage(html, contentPrefix, sections, nv.ContentLang)
	if f.index > 0 {
		l := x.link(p, x.flat[f.index-1].n)
		nv.Prev = &l
	}
	if f.index+1 < len(x.flat) {
		l := x.link(p, x.flat[f.index+1].n)
		nv.Next = &l
	}
	p.Node = nv
	return x.r.execute(w, "node", p)
}

// badges say where a node's content comes from: inherited unchanged from
// the base, added by a variant, or changed by one.
func (x *treeCtx) badges(n *model.Node) []string {
	in := n.Inheritance
	src := in.SourceCurriculum
	base := ""
	if len(x.t.VariantChain) > 0 {
		base = x.t.VariantChain[0]
	}
	switch {
	case src == "":
		return nil
	case in.OverrideLevel > 0:
		return []string{x.m.T("changed_in", src)}
	case src != base:
		return []string{x.m.T("added_in", src)}
	case in.IsInherited:
		return []string{x.m.T("inherited_from", src)}
	}
	return nil
}

// truncateRunes cuts s to n runes, ending with an ellipsis when cut.
func truncateRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return strings.TrimSpace(s[:j]) + "…"
		}
		i++
	}
	return s
}
