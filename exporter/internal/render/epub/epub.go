package epub

import (
	"bytes"
	_ "embed" // the style sheet
	"fmt"
	"github.com/curex/curex/exporter/internal/render/attrs"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/exporter/internal/render/markup"
	"github.com/curex/curex/exporter/internal/render/mathml"
	"github.com/curex/curex/exporter/internal/render/mathstyle"
	"github.com/curex/curex/exporter/internal/render/zipfile"
)

//go:embed book.css
var styleSheet []byte

// bookCSS is the book's one stylesheet: its own light touches, then the
// rules every format needs for content's markup (content.ReadingCSS),
// then, in a book that holds math, the rules of math with the math font
// the book carries (package mathstyle).
func bookCSS(math bool) []byte {
	css := append(bytes.Clone(styleSheet), content.ReadingCSS()...)
	if math {
		css = append(css, mathstyle.CSS(path.Join("..", fontName))...)
	}
	return css
}

// Names inside the book.
const (
	// MediaType is the content of the mimetype entry and the book's media
	// type.
	MediaType = "application/epub+zip"
	// PackagePath is the package document's path in the container.
	PackagePath = "EPUB/package.opf"
	// root is the folder of the publication's files.
	root = "EPUB/"
	// textDir holds the XHTML documents, imagesDir the images, relative
	// to root.
	textDir   = "text/"
	imagesDir = "images/"
	styleName = "css/book.css"
	// fontName is the math font, in a book that holds math.
	fontName  = "fonts/" + mathstyle.FontName
	navName   = textDir + "nav.xhtml"
	titleName = textDir + "title.xhtml"
)

// maxHeadingLevel is the deepest heading level; deeper nodes keep it.
const maxHeadingLevel = 6

// Options configure a Renderer.
type Options struct {
	// Words are the run's words (render.Options.Words): the attribute
	// labels of the publisher among them. Nil: the built-in words.
	Words *i18n.Catalog
	// Order is the publisher's order of attribute members
	// (render.Options.AttributeOrder).
	Order attrs.Order
	// Math converts TeX to MathML (nil: a converter of the renderer's
	// own).
	Math *mathml.Converter
	// Content, when set, is the run's converter of node content, which
	// the formats share (render.Options.Content); nil makes one from Math
	// and Order.
	Content *content.Converter
}

// Info is what a book shows beyond the tree.
type Info struct {
	// LocaleName is the locale's own name ("Español"); empty: the code.
	LocaleName string
	// ContentDate dates the book (dcterms:modified, the title page, the
	// zip entries): the tree's ResolvedAt or SOURCE_DATE_EPOCH, never the
	// wall clock. Zero stands for 1980-01-01, the earliest zip time.
	ContentDate time.Time
	// LocaleNames name the curriculum's locales by code, to say which
	// language an untranslated node is shown in.
	LocaleNames map[string]string
	// Images resolves an image's URL to its local copy in the output
	// (render.Options.Images) and ImageData gives that copy's bytes; an
	// image either cannot give is shown as its alt text, linked to its
	// URL. Nil: every image is.
	Images    content.Images
	ImageData func(path string) ([]byte, bool)
	// Generator names the program on the title page; empty: not shown.
	Generator string
}

// Renderer writes books. Make one with New; it is safe for concurrent
// use.
type Renderer struct {
	content *content.Converter
	words   *i18n.Catalog
}

// New returns a Renderer.
func New(o Options) *Renderer {
	return &Renderer{content: content.Reuse(o.Content, content.WithMath(o.Math), content.WithOrder(o.Order)), words: o.Words}
}

// Render returns the EPUB book of t (published nodes only, as the run
// gives it): the bytes of the zip container.
func (r *Renderer) Render(t *model.Tree, info Info) ([]byte, error) {
	if t == nil {
		return nil, fmt.Errorf("epub: no tree")
	}
	b := newBook(t, info, r.words)
	// Documents sit in text/, one folder below the images/ folder.
	cr := r.content.WithImages(b.resolve, textDir+"page.xhtml")
	if err := b.renderUnits(cr); err != nil {
		return nil, fmt.Errorf("epub %s: %w", t.Dir(), err)
	}
	data, err := b.zip()
	if err != nil {
		return nil, fmt.Errorf("epub %s: %w", t.Dir(), err)
	}
	return data, nil
}

// book is one book being built.
type book struct {
	t    *model.Tree
	info Info
	m    i18n.Messages
	// words are the run's words (Options.Words).
	words *i18n.Catalog
	// lang is the book's language tag ("und" when the locale is not
	// one); rtl is set for a right-to-left locale.
	lang string
	rtl  bool
	// modified is the book's date, as the zip entries record it.
	modified time.Time
	// title is dc:title.
	title string
	// units are the content documents, one per top-level node.
	units []*part
	// images are the images shown, in order of first use; byURL maps an
	// image's URL to its entry, nil for an image shown as text.
	images []*bookImage
	byURL  map[string]*bookImage
	// byPath maps a local copy's path to its entry: two URLs of the same
	// bytes share one file.
	byPath map[string]*bookImage
	// toc is the navigation: every node in reading order.
	toc []tocEntry
	// imgCount and altCount count the <img> elements and those with alt
	// text, blankLinks the links with nothing to read; math is set when
	// some document holds MathML.
	imgCount, altCount, blankLinks int
	math                           bool
}

type part struct {
	id, name, title string
	math            bool
	body            []byte
}

type bookImage struct {
	id, name, mediaType string
	data                []byte
	width, height       int
}

type tocEntry struct {
	depth int
	href  string
	text  string
	// lang is the language of text when it is not the book's (an
	// untranslated node), else "".
	lang string
}

func newBook(t *model.Tree, info Info, words *i18n.Catalog) *book {
	b := &book{t: t, info: info, m: words.For(t.Locale), words: words, rtl: i18n.RTL(t.Locale), byURL: map[string]*bookImage{}, byPath: map[string]*bookImage{}}
	b.lang = markup.Lang(t.Locale)
	if b.lang == "" {
		b.lang = "und"
	}
	b.modified = zipfile.Time(info.ContentDate)
	title := []string{markup.Line(t.CurriculumName)}
	if t.Variant != "" {
		title = append(title, markup.Line(t.Variant))
	}
	b.title = strings.Join(title, " · ")
	if strings.TrimSpace(b.title) == "" {
		b.title = b.m.T("untitled")
	}
	return b
}

// mediaTypes are the image formats EPUB 3.2 requires every reading
// system to show (core media types), by extension; SVG is left out, as
// the images content refers to are raster images (package assets).
var mediaTypes = map[string]string{
	"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
}

// resolve is the content.Images of the book's documents: an image whose
// local copy is of a core media type is copied into the book; any other
// is shown as text (Failed).
func (b *book) resolve(url string) (content.Image, bool) {
	img, seen := b.byURL[url]
	if !seen {
		img = b.copyImage(url)
		b.byURL[url] = img
	}
	if img == nil {
		return content.Image{Failed: true}, true
	}
	return content.Image{Path: img.name, Width: img.width, Height: img.height}, true
}

// copyImage returns the book's copy of the image at url, or nil.
func (b *book) copyImage(url string) *bookImage {
	if b.info.Images == nil || b.info.ImageData == nil {
		return nil
	}
	local, ok := b.info.Images(url)
	if !ok || local.Failed || local.Path == "" {
		return nil
	}
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(local.Path), "."))
	mt, ok := mediaTypes[ext]
	if !ok {
		return nil
	}
	if img, ok := b.byPath[local.Path]; ok {
		return img
	}
	data, ok := b.info.ImageData(local.Path)
	if !ok {
		return nil
	}
	n := len(b.images) + 1
	img := &bookImage{
		id: "img" + strconv.Itoa(n), name: imagesDir + "img" + strconv.Itoa(n) + "." + ext, mediaType: mt,
		data: data, width: local.Width, height: local.Height,
	}
	b.images = append(b.images, img)
	b.byPath[local.Path] = img
	return img
}

// flat is a node in reading order with its depth.
type flat struct {
	n     *model.Node
	depth int
}

// flatten lists the nodes of t in reading order with their depth, without
// recursion.
func flatten(t *model.Tree) []flat {
	var out []flat
	stack := make([]flat, 0, 64)
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		stack = append(stack, flat{t.Nodes[i], 0})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.n == nil {
			continue
		}
		out = append(out, f)
		for i := len(f.n.Children) - 1; i >= 0; i-- {
			stack = append(stack, flat{f.n.Children[i], f.depth + 1})
		}
	}
	return out
}

// renderUnits renders the content documents: one per top-level node, holding
// the nodes under it as nested sections.
func (b *book) renderUnits(cr *content.Converter) error {
	nodes := flatten(b.t)
	var body strings.Builder
	var cur *part
	open := 0 // sections open in body
	finish := func() error {
		if cur == nil {
			return nil
		}
		body.WriteString(strings.Repeat("</section>\n", open))
		open = 0
		err := b.finishPart(cur, body.String())
		body.Reset()
		return err
	}
	for i, f := range nodes {
		if f.depth == 0 || cur == nil {
			if err := finish(); err != nil {
				return err
			}
			n := len(b.units) + 1
			cur = &part{id: "p" + strconv.Itoa(n), name: textDir + "p" + strconv.Itoa(n) + ".xhtml"}
			b.units = append(b.units, cur)
		}
		// Close the sections of the previous nodes that are not
		// ancestors of this one: a node's depth is its open ancestors.
		for open > f.depth {
			body.WriteString("</section>\n")
			open--
		}
		anchor := "n" + strconv.Itoa(i)
		text, lang, err := b.section(cr, &body, f, anchor)
		if err != nil {
			return fmt.Errorf("node %d (%q): %w", i, f.n.ID, err)
		}
		open++
		if cur.title == "" {
			cur.title = text
		}
		b.toc = append(b.toc, tocEntry{depth: f.depth, href: path.Base(cur.name) + "#" + anchor, text: text, lang: lang})
	}
	return finish()
}
