package cartridge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"github.com/curex/curex/exporter/internal/render/attrs"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	rendering "github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/exporter/internal/render/markup"
	"github.com/curex/curex/exporter/internal/render/mathml"
	"github.com/curex/curex/exporter/internal/render/mathstyle"
	"github.com/curex/curex/exporter/internal/render/xhtml"
	"github.com/curex/curex/exporter/internal/render/zipfile"
)

// Names every version shares.
const (
	// Schema names the profile in the manifest's metadata; the version
	// is the Version's (see Options.Version).
	Schema = "IMS Common Cartridge"
	// TypeWebContent is a page's resource type.
	TypeWebContent = "webcontent"
)

// Paths inside the archive.
const (
	// ManifestFile is the manifest, the archive's first entry.
	ManifestFile = "imsmanifest.xml"
	// StyleFile is the stylesheet every page shares.
	StyleFile = "style.css"
	// MathStyleFile is the rules of math (package mathstyle), linked by
	// the pages that hold math, and MathFontFile the font it loads; both
	// are in a cartridge only when a page holds math.
	MathStyleFile = "math.css"
	MathFontFile  = mathstyle.FontName
	// PagesDir, ImagesDir and LinksDir hold pages, images and web links.
	PagesDir  = "pages/"
	ImagesDir = "images/"
	LinksDir  = "links/"
)

// Fixed identifiers.
const (
	orgID   = "ORG"
	rootID  = "I_ROOT"
	styleID = "R_STYLE"
	mathID  = "R_MATH"
)

// Options configure a Renderer.
type Options struct {
	// Words are the run's words (render.Options.Words): the attribute
	// labels of the publisher among them. Nil: the built-in words.
	Words *i18n.Catalog
	// Order is the publisher's order of attribute members
	// (render.Options.AttributeOrder).
	Order attrs.Order
	// SiteURL is the website's absolute address: leaves get a web link to
	// their page there. Empty: no web links.
	SiteURL string
	// Images resolves the images content refers to to their copies in the
	// output, and ImageData gives those copies' bytes: an image both know
	// is put inside the archive. Nil: images stay remote.
	Images    content.Images
	ImageData func(path string) ([]byte, bool)
	// Math converts TeX to MathML; nil gives the Renderer its own.
	Math *mathml.Converter
	// Content, when set, is the run's converter of node content, which
	// the formats share (render.Options.Content); nil makes one from Math
	// and Order.
	Content *content.Converter
	// Date, when not zero, dates the content instead of the tree's
	// resolved_at (SOURCE_DATE_EPOCH).
	Date time.Time
	// Version is the Common Cartridge version written; "" is
	// DefaultVersion.
	Version Version
}

// Renderer builds cartridges. It is safe for concurrent use.
type Renderer struct {
	content *content.Converter
	opts    Options
	p       profile
}

// New returns a Renderer with options o.
func New(o Options) *Renderer {
	if o.Version == "" {
		o.Version = DefaultVersion
	}
	return &Renderer{content: content.Reuse(o.Content, content.WithMath(o.Math), content.WithOrder(o.Order)), opts: o, p: profileOf(o.Version)}
}

// build is the state of one cartridge being built.
type build struct {
	r     *Renderer
	t     *rendering.Tree
	msgs  i18n.Messages
	lang  string
	files map[string][]byte // images by archive path
	order []string          // image paths in the order first shown
	man   bytes.Buffer
	res   bytes.Buffer // the <resources> children
	pages []entry      // pages and links in reading order
	math  bool         // a page holds math
}

// entry is one file of the archive besides the manifest and the images.
type entry struct {
	name string
	data []byte
}

// Build returns the cartridge of t (already filtered to what is
// published): the bytes of the .imscc archive.
func (r *Renderer) Build(t *rendering.Tree) ([]byte, error) {
	b := &build{r: r, t: t, msgs: r.opts.Words.For(t.Locale), lang: t.Locale, files: map[string][]byte{}}
	date := t.ResolvedAt
	if !r.opts.Date.IsZero() {
		date = r.opts.Date
	}
	var items bytes.Buffer
	for _, n := range t.Nodes {
		if err := b.node(&items, n, 4); err != nil {
			return nil, err
		}
	}
	b.manifest(date, items.Bytes())
	z := zipfile.New(date, "")
	if err := z.Add(ManifestFile, b.man.Bytes()); err != nil {
		return nil, err
	}
	if err := z.Add(StyleFile, styleCSS()); err != nil {
		return nil, err
	}
	if b.math {
		if err := z.Add(MathStyleFile, mathstyle.CSS(MathFontFile)); err != nil {
			return nil, err
		}
		if err := z.Add(MathFontFile, mathstyle.Font()); err != nil {
			return nil, err
		}
	}
	for _, p := range b.pages {
		if err := z.Add(p.name, p.data); err != nil {
			return nil, err
		}
	}
	for _, name := range b.order {
		if err := z.Add(name, b.files[name]); err != nil {
			return nil, err
		}
	}
	return z.Close()
}

// ident returns an identifier derived from a node's segment: prefix and
// the first 20 hex digits of its SHA-256, a valid NCName whatever the
// segment.
func ident(prefix, seg string) string {
	sum := sha256.Sum256([]byte(seg))
	return prefix + hex.EncodeToString(sum[:10])
}

// ManifestID is the manifest's identifier: derived from the curriculum,
// variant and locale ids, the same at every export of the same tree.
func ManifestID(e model.Export) string {
	sum := sha256.Sum256([]byte(e.CurriculumID + "\x00" + e.VariantID + "\x00" + e.Locale))
	return "M_" + hex.EncodeToString(sum[:16])
}

// node writes n's items at indent and its resources and files.
func (b *build) node(items *bytes.Buffer, n *model.Node, indent int) error {
	title := nodeTitle(n, b.msgs)
	page := PagesDir + n.Segment + ".html"
	imgs, math, err := b.page(n, title, page)
	if err != nil {
		return err
	}
	deps := []string{styleID}
	if math {
		deps = append(deps, mathID)
	}
	b.resource(ident("R_", n.Segment), TypeWebContent, page, append([]string{page}, imgs...), deps...)
	pageItem := func(ind int) {
		b.item(items, ind, ident("I_", n.Segment), ident("R_", n.Segment), title)
	}
	if len(n.Children) == 0 {
		pageItem(indent)
		if b.r.opts.SiteURL != "" {
			link := LinksDir + n.Segment + ".xml"
			b.pages = append(b.pages, entry{link, b.webLink(title, siteURL(b.r.opts.SiteURL, layout.NodePage(b.t.Export, n.Segment)))})
			b.resource(ident("RW_", n.Segment), b.r.p.webLinkType, "", []string{link})
			b.item(items, indent, ident("IW_", n.Segment), ident("RW_", n.Segment), b.msgs.T("cartridge_on_site", title))
		}
		return nil
	}
	pad := strings.Repeat("  ", indent)
	fmt.Fprintf(items, "%s<item identifier=\"%s\">\n%s  <title>%s</title>\n", pad, ident("F_", n.Segment), pad, esc(title))
	pageItem(indent + 1)
	for _, c := range n.Children {
		if err := b.node(items, c, indent+1); err != nil {
			return err
		}
	}
	fmt.Fprintf(items, "%s</item>\n", pad)
	return nil
}

// item writes a leaf item.
func (b *build) item(items *bytes.Buffer, indent int, id, ref, title string) {
	pad := strings.Repeat("  ", indent)
	fmt.Fprintf(items, "%s<item identifier=\"%s\" identifierref=\"%s\">\n%s  <title>%s</title>\n%s</item>\n", pad, id, ref, pad, esc(title), pad)
}

// resource writes a resource with its files (href first, when set) and
// its dependencies (a page's on the stylesheet, and on math's when it
// holds math).
func (b *build) resource(id, typ, href string, files []string, deps ...string) {
	fmt.Fprintf(&b.res, "    <resource identifier=\"%s\" type=\"%s\"", id, typ)
	if href != "" {
		fmt.Fprintf(&b.res, " href=\"%s\"", esc(href))
	}
	b.res.WriteString(">\n")
	for _, f := range files {
		fmt.Fprintf(&b.res, "      <file href=\"%s\"/>\n", esc(f))
	}
	for _, d := range deps {
		fmt.Fprintf(&b.res, "      <dependency identifierref=\"%s\"/>\n", d)
	}
	b.res.WriteString("    </resource>\n")
}

// manifest writes imsmanifest.xml.
func (b *build) manifest(date time.Time, items []byte) {
	t := b.t
	m := &b.man
	m.WriteString(xml.Header)
	fmt.Fprintf(m, "<manifest identifier=\"%s\" xmlns=\"%s\" xmlns:lomimscc=\"%s\" xmlns:lom=\"%s\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"%s\">\n",
		ManifestID(t.Export), b.r.p.cp, b.r.p.lomManifest, b.r.p.lomResource, b.r.p.schemaLocation)
	m.WriteString("  <metadata>\n")
	fmt.Fprintf(m, "    <schema>%s</schema>\n    <schemaversion>%s</schemaversion>\n", Schema, b.r.p.schemaVersion)
	m.WriteString("    <lomimscc:lom>\n      <lomimscc:general>\n")
	lang := esc(b.lang)
	fmt.Fprintf(m, "        <lomimscc:title>\n          <lomimscc:string language=\"%s\">%s</lomimscc:string>\n        </lomimscc:title>\n", lang, esc(Title(t)))
	fmt.Fprintf(m, "        <lomimscc:language>%s</lomimscc:language>\n", lang)
	fmt.Fprintf(m, "        <lomimscc:description>\n          <lomimscc:string language=\"%s\">%s</lomimscc:string>\n        </lomimscc:description>\n", lang, esc(b.description()))
	for _, name := range chain(t) {
		fmt.Fprintf(m, "        <lomimscc:keyword>\n          <lomimscc:string language=\"%s\">%s</lomimscc:string>\n        </lomimscc:keyword>\n", lang, esc(name))
	}
	m.WriteString("      </lomimscc:general>\n")
	fmt.Fprintf(m, "      <lomimscc:lifeCycle>\n        <lomimscc:contribute>\n          <lomimscc:date>\n            <lomimscc:dateTime>%s</lomimscc:dateTime>\n          </lomimscc:date>\n        </lomimscc:contribute>\n      </lomimscc:lifeCycle>\n",
		zipfile.Time(date).Format(time.DateOnly))
	m.WriteString("    </lomimscc:lom>\n  </metadata>\n")
	fmt.Fprintf(m, "  <organizations>\n    <organization identifier=\"%s\" structure=\"rooted-hierarchy\">\n      <item identifier=\"%s\">\n", orgID, rootID)
	m.Write(items)
	m.WriteString("      </item>\n    </organization>\n  </organizations>\n  <resources>\n")
	fmt.Fprintf(m, "    <resource identifier=\"%s\" type=\"%s\" href=\"%s\">\n      <file href=\"%s\"/>\n    </resource>\n", styleID, TypeWebContent, StyleFile, StyleFile)
	if b.math {
		fmt.Fprintf(m, "    <resource identifier=\"%s\" type=\"%s\" href=\"%s\">\n      <file href=\"%s\"/>\n      <file href=\"%s\"/>\n    </resource>\n", mathID, TypeWebContent, MathStyleFile, MathStyleFile, MathFontFile)
	}
	m.Write(b.res.Bytes())
	m.WriteString("  </resources>\n</manifest>\n")
}

// Title is the cartridge's title: the variant chain's names joined, from
// the base to the variant ("Algebra 1 › Texas"), else the curriculum's
// name.
func Title(t *rendering.Tree) string {
	if c := chain(t); len(c) > 0 {
		return strings.Join(c, " › ")
	}
	return markup.Line(t.CurriculumName)
}

// chain returns the variant chain's names, cleaned, without empty ones.
func chain(t *rendering.Tree) []string {
	var out []string
	for _, n := range t.VariantChain {
		if n = strings.TrimSpace(markup.Line(n)); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// description is the cartridge's description: its title, the locale's
// name and the number of nodes.
func (b *build) description() string {
	name := b.t.Locale
	if l, ok := b.t.OwnLocale(); ok && strings.TrimSpace(l.Name) != "" {
		name = l.Name
	}
	return b.msgs.T("cartridge_description", Title(b.t), markup.Line(name), b.t.Count())
}

// webLink returns a web link document.
func (b *build) webLink(title, href string) []byte {
	var w bytes.Buffer
	w.WriteString(xml.Header)
	fmt.Fprintf(&w, "<webLink xmlns=\"%s\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"%s\">\n", b.r.p.webLink, b.r.p.webLinkSchemaLocation)
	fmt.Fprintf(&w, "  <title>%s</title>\n  <url href=\"%s\" target=\"_blank\"/>\n</webLink>\n", esc(title), esc(href))
	return w.Bytes()
}

// siteURL joins the site's URL and a path relative to the output root,
// leaving out a folder's page ("https://x/c/v/l/n/"), as the sitemap does.
func siteURL(site, p string) string {
	if !strings.HasSuffix(site, "/") {
		site += "/"
	}
	segs := strings.Split(strings.TrimSuffix(p, layout.Index), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return site + strings.Join(segs, "/")
}

// page renders n's page at the archive path name and returns the archive
// paths of the images it shows, and whether it holds math.
func (b *build) page(n *model.Node, title, name string) ([]string, bool, error) {
	var imgs []string
	cr := b.pageContent(name, &imgs)
	contentMsgs, fallback, notice := b.fallback(n)
	html, err := cr.NodeLevel(n.Attributes, n.Title, contentMsgs, "c-", 2)
	if err != nil {
		return nil, false, fmt.Errorf("node %q: %w", n.ID, err)
	}
	body, err := xhtml.Convert(string(html))
	if err != nil {
		return nil, false, fmt.Errorf("node %q: %w", n.ID, err)
	}
	math := mathstyle.Holds([]byte(html))
	b.math = b.math || math
	var w bytes.Buffer
	lang := esc(markup.Lang(b.lang))
	dir := ""
	if i18n.RTL(b.lang) {
		dir = ` dir="rtl"`
	}
	w.WriteString("<!DOCTYPE html>\n")
	fmt.Fprintf(&w, "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"%s\" xml:lang=\"%s\"%s>\n<head>\n<meta charset=\"utf-8\"/>\n", lang, lang, dir)
	w.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n")
	fmt.Fprintf(&w, "<title>%s</title>\n<link rel=\"stylesheet\" href=\"../%s\"/>\n", esc(title), StyleFile)
	if math {
		fmt.Fprintf(&w, "<link rel=\"stylesheet\" href=\"../%s\"/>\n", MathStyleFile)
	}
	w.WriteString("</head>\n<body>\n<main>\n")
	if notice != "" {
		fmt.Fprintf(&w, "<p class=\"fallback\">%s</p>\n", esc(notice))
		fdir := "ltr"
		if i18n.RTL(fallback) {
			fdir = "rtl"
		}
		fmt.Fprintf(&w, "<div lang=\"%s\" xml:lang=\"%s\" dir=\"%s\">\n", esc(fallback), esc(fallback), fdir)
	}
	w.WriteString("<header>\n")
	if l := markup.Line(n.Label()); l != "" {
		fmt.Fprintf(&w, "<p class=\"label\">%s</p>\n", esc(l))
	}
	fmt.Fprintf(&w, "<h1>%s</h1>\n</header>\n", esc(title))
	w.WriteString(body)
	if notice != "" {
		w.WriteString("\n</div>")
	}
	w.WriteString("\n</main>\n</body>\n</html>\n")
	b.pages = append(b.pages, entry{name, w.Bytes()})
	// Each image once per page, in the order shown.
	seen := map[string]bool{}
	out := imgs[:0]
	for _, p := range imgs {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, math, nil
}

// pageContent is the content renderer for the page at the archive path
// name: with the exporter's images, it adds each image the page shows to the
// archive once and appends its archive path to imgs.
func (b *build) pageContent(name string, imgs *[]string) *content.Converter {
	cr := b.r.content
	if b.r.opts.Images == nil || b.r.opts.ImageData == nil {
		return cr
	}
	return cr.WithImages(func(u string) (content.Image, bool) {
		img, ok := b.r.opts.Images(u)
		if !ok || img.Failed {
			return img, ok
		}
		data, ok := b.r.opts.ImageData(img.Path)
		if !ok {
			return content.Image{Failed: true}, true
		}
		p := ImagesDir + path.Base(img.Path)
		if _, seen := b.files[p]; !seen {
			b.files[p] = data
			b.order = append(b.order, p)
		}
		*imgs = append(*imgs, p)
		img.Path = p
		return img, true
	}, name)
}

// fallback returns the messages n's content is written in and, when it is
// untranslated (in another language, which its lang declares, with a
// notice in the page's, as in the handbook), that language's lang
// attribute and the notice.
func (b *build) fallback(n *model.Node) (contentMsgs i18n.Messages, lang, notice string) {
	fl := b.t.FallbackLocale(n)
	if fl == "" {
		return b.msgs, "", ""
	}
	name := fl
	for _, l := range b.t.Locales {
		if l.Code == fl && strings.TrimSpace(l.Name) != "" {
			name = l.Name
		}
	}
	return b.r.opts.Words.For(fl), markup.Lang(fl), b.msgs.T("handbook_fallback", markup.Line(name))
}

// nodeTitle is n's title, cleaned, or a placeholder.
func nodeTitle(n *model.Node, m i18n.Messages) string {
	if t := strings.TrimSpace(markup.Line(n.Title)); t != "" {
		return t
	}
	return m.T("untitled")
}

// esc escapes s for XML text and attribute values.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// styleCSS is the stylesheet of the pages: a readable page and the
// content's own rules (code highlighting, tables); math's are in
// MathStyleFile.
func styleCSS() []byte {
	base := `body{font-family:system-ui,sans-serif;line-height:1.5;max-width:48rem;margin:0 auto;padding:1rem}
.label{color:#555;margin:0;text-transform:uppercase;font-size:.85em}
.fallback{color:#555;font-style:italic;border-inline-start:3px solid #ccc;padding-inline-start:.5em}
h1{margin-top:.2em}
img{max-width:100%;height:auto}
table{border-collapse:collapse}
th,td{border:1px solid #ccc;padding:.25em .5em}
pre{overflow-x:auto}
`
	return append(append([]byte(base), content.ReadingCSS()...), content.StyleCSS()...)
}
