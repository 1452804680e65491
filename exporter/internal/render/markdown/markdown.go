package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/attrs"
	"strconv"
	"strings"
	"unicode"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/exporter/internal/render/zipfile"
	"github.com/curex/curex/exporter/internal/slug"
)

// Limits of the folder tree. They bound path lengths whatever the depth of
// the curriculum; real curricula stay far inside them.
const (
	// MaxFolderDepth is the deepest a folder nests within the bundle.
	MaxFolderDepth = 16
	// MaxFolderPath is the length in bytes from which a folder's path
	// within the bundle takes no more subfolders.
	MaxFolderPath = 512
)

// maxListDepth caps the nesting of the tables of contents: deeper entries
// are listed at this level, so that indentation stays bounded.
const maxListDepth = 32

// Options configure Write. The zero value writes the bundle for code hosts,
// MkDocs and mdBook.
type Options struct {
	// Words are the run's words (render.Options.Words): the attribute
	// labels of the publisher among them. Nil: the built-in words.
	Words *i18n.Catalog
	// Order is the publisher's order of attribute members
	// (render.Options.AttributeOrder).
	Order attrs.Order
	// Hugo lays the bundle out as a Hugo content folder: section pages and
	// the root page are named _index.md (links follow), pages leave out the
	// "# Title" heading that Hugo themes print from the front matter, the
	// front matter gains translationKey (the node id, which ties a node's
	// pages in several locales together) and SUMMARY.md is not written.
	Hugo bool
	// Generator, when not empty, is recorded as "generator" in the front
	// matter of the root page, e.g. "curex 0.1.0".
	Generator string
}

// Entry tells the exporter what Write wrote. Paths are relative to the
// output root, with forward slashes.
type Entry struct {
	// Dir is the bundle's folder, "bundles/<curriculum>/<variant>/<locale>/markdown/".
	Dir string
	// Zip is the archive, "bundles/<curriculum>/<variant>/<locale>/markdown.zip".
	Zip string
	// Files is the number of .md files in Dir (and in the archive).
	Files int
}

// Write writes the Markdown bundle of t and its zip archive to w. t is
// written as given: filter it first (model.Tree.PublishedOnly). The same
// tree always gives the same files, byte for byte.
//
// Write fails for a nil tree, a nil node, a node that is its own ancestor,
// an export whose folder slugs are not safe path segments, or an error of
// w; errors name the bundle's folder.
func Write(w render.Writer, t *model.Tree, o Options) (Entry, error) {
	if t == nil {
		return Entry{}, errors.New("markdown bundle: nil tree")
	}
	dir := t.Dir()
	fail := func(err error) (Entry, error) {
		return Entry{}, fmt.Errorf("markdown bundle %s: %w", dir, err)
	}
	for _, s := range []string{t.CurriculumSlug, t.VariantSlug, t.LocaleSlug} {
		if !safeSegment(s) {
			return fail(fmt.Errorf("export folder segment %q is not a safe path segment", s))
		}
	}
	// A nil node or a cycle would make the walks below fail or endless.
	if err := t.Visit(func(*model.Node, []int) error { return nil }); err != nil {
		return fail(err)
	}
	b := newBundle(t, o)
	b.plan()
	e := Entry{
		Dir: layout.MarkdownDir(t.Export),
		Zip: layout.MarkdownZip(t.Export),
	}
	// Entries go under one folder named after the export and carry t's
	// resolution time.
	z := zipfile.New(t.ResolvedAt, t.CurriculumSlug+"-"+t.VariantSlug+"-"+t.LocaleSlug+"/")
	put := func(rel string, data []byte) error {
		if err := w.Write(e.Dir+rel, data); err != nil {
			return fmt.Errorf("write %s: %w", rel, err)
		}
		e.Files++
		return z.Add(rel, data)
	}
	if err := put(b.indexName, b.index()); err != nil {
		return fail(err)
	}
	if !o.Hugo {
		if err := put("SUMMARY.md", b.summary()); err != nil {
			return fail(err)
		}
	}
	for i := range b.pages {
		if err := put(b.pages[i].file, b.page(i)); err != nil {
			return fail(err)
		}
	}
	data, err := z.Close()
	if err != nil {
		return fail(fmt.Errorf("zip: %w", err))
	}
	if err := w.Write(e.Zip, data); err != nil {
		return fail(fmt.Errorf("write %s: %w", e.Zip, err))
	}
	return e, nil
}

// safeSegment reports whether s can be one segment of the export's folder.
func safeSegment(s string) bool {
	if s == "" || s == "." || s == ".." {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// page is one node's file.
type page struct {
	n *model.Node
	// file is the page's path within the bundle.
	file string
	// level is the node's depth in the tree, 0 for root nodes.
	level int
	// weight is the node's 1-based place among its siblings.
	weight int
	// parent is the index of the parent's page, -1 for root nodes.
	parent int
	// kids are the indexes of the children's pages, in order.
	kids []int
}

// bundle holds the state of one Write call.
type bundle struct {
	t         *model.Tree
	o         Options
	m         i18n.Messages
	indexName string
	pages     []page
	md        *containment
}

func newBundle(t *model.Tree, o Options) *bundle {
	b := &bundle{t: t, o: o, m: o.Words.For(t.Locale), indexName: "index.md", md: newContainment()}
	if o.Hugo {
		b.indexName = "_index.md"
	}
	return b
}

// flatZone numbers the pages of a folder that takes no more subfolders.
type flatZone struct {
	seq, width int
}

// plan names every page, in reading order, without recursion.
func (b *bundle) plan() {
	type frame struct {
		nodes  []*model.Node
		next   int
		parent int
		dir    string
		depth  int // folders in dir
		level  int // tree depth of nodes
		width  int
		flat   *flatZone
	}
	b.pages = make([]page, 0, 64)
	stack := []frame{{nodes: b.t.Nodes, parent: -1, width: width(len(b.t.Nodes))}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.nodes) {
			stack = stack[:len(stack)-1]
			continue
		}
		n := f.nodes[f.next]
		f.next++
		p := page{n: n, level: f.level, weight: f.next, parent: f.parent}
		s := nodeSlug(n)
		var child frame
		switch {
		case f.flat != nil:
			f.flat.seq++
			p.file = join(f.dir, pad(f.flat.seq, f.flat.width)+"-"+s+".md")
			child = frame{dir: f.dir, depth: f.depth, flat: f.flat}
		case len(n.Children) > 0:
			folder := join(f.dir, pad(f.next, f.width)+"-"+s)
			p.file = folder + "/" + b.indexName
			child = frame{dir: folder, depth: f.depth + 1, width: width(len(n.Children))}
			if child.depth >= MaxFolderDepth || len(folder) >= MaxFolderPath {
				child.flat = &flatZone{width: width(descendants(n))}
			}
		default:
			p.file = join(f.dir, pad(f.next, f.width)+"-"+s+".md")
		}
		i := len(b.pages)
		if f.parent >= 0 {
			b.pages[f.parent].kids = append(b.pages[f.parent].kids, i)
		}
		b.pages = append(b.pages, p)
		if len(n.Children) > 0 {
			child.nodes, child.parent, child.level = n.Children, i, f.level+1
			stack = append(stack, child)
		}
	}
}

// descendants counts the nodes below n.
func descendants(n *model.Node) int {
	count := 0
	stack := [][]*model.Node{n.Children}
	for len(stack) > 0 {
		ns := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		count += len(ns)
		for _, c := range ns {
			if len(c.Children) > 0 {
				stack = append(stack, c.Children)
			}
		}
	}
	return count
}

// nodeSlug is the readable part of a node's name: the slug of its title
// (in any script), or of its id when the title gives no letter ("5").
func nodeSlug(n *model.Node) string {
	s := slug.Make(n.Title)
	if strings.IndexFunc(s, unicode.IsLetter) >= 0 {
		return s
	}
	return slug.ID(n.ID)
}

// width is the number of digits of count, at least two.
func width(count int) int {
	return max(2, len(strconv.Itoa(count)))
}

// pad formats i with leading zeros to w digits.
func pad(i, w int) string {
	s := strconv.Itoa(i)
	if len(s) < w {
		s = strings.Repeat("0", w-len(s)) + s
	}
	return s
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// rel returns the relative link from a file in folder fromDir to the file
// to, both within the bundle ("" is the bundle's root).
func rel(fromDir, to string) string {
	if fromDir == "" {
		return to
	}
	if strings.HasPrefix(to, fromDir+"/") {
		return to[len(fromDir)+1:]
	}
	fd := strings.Split(fromDir, "/")
	ts := strings.Split(to, "/")
	i := 0
	for i < len(fd) && i < len(ts)-1 && fd[i] == ts[i] {
		i++
	}
	var sb strings.Builder
	for range len(fd) - i {
		sb.WriteString("../")
	}
	sb.WriteString(strings.Join(ts[i:], "/"))
	return sb.String()
}

// dirOf is the folder of a file within the bundle, "" for the root.
func dirOf(file string) string {
	if i := strings.LastIndexByte(file, '/'); i >= 0 {
		return file[:i]
	}
	return ""
}

// rootTitle names the export: its variant chain, or the curriculum.
func (b *bundle) rootTitle() string {
	if len(b.t.VariantChain) > 0 {
		return strings.Join(b.t.VariantChain, " › ")
	}
	if b.t.Variant != "" {
		return b.t.CurriculumName + " › " + b.t.Variant
	}
	return b.t.CurriculumName
}

// index returns the root page: the export's identity and a table of
// contents of every node.
func (b *bundle) index() []byte {
	var buf bytes.Buffer
	buf.Grow(256 + 96*len(b.pages))
	fm := frontMatter{buf: &buf}
	fm.begin()
	fm.str("title", b.rootTitle())
	fm.str("curriculum", b.t.CurriculumName)
	fm.str("curriculum_id", b.t.CurriculumID)
	fm.str("variant", b.t.Variant)
	fm.str("variant_id", b.t.VariantID)
	fm.list("variant_chain", b.t.VariantChain)
	fm.str("locale", b.t.Locale)
	fm.str("primary_locale", b.t.PrimaryLocale)
	fm.str("etag", b.t.ETag)
	fm.str("resolved_at", b.t.ResolvedAt.UTC().Format("2006-01-02T15:04:05Z07:00"))
	fm.int("node_count", len(b.pages))
	if b.o.Generator != "" {
		fm.str("generator", b.o.Generator)
	}
	fm.end()
	if !b.o.Hugo {
		buf.WriteString("# ")
		buf.WriteString(inline(b.rootTitle() + " (" + b.t.Locale + ")"))
		buf.WriteString("\n\n")
	}
	b.toc(&buf)
	return finish(&buf)
}

// summary returns SUMMARY.md in the mdBook and GitBook format: the root
// page as a prefix chapter, then every node as a nested list.
func (b *bundle) summary() []byte {
	var buf bytes.Buffer
	buf.Grow(64 + 96*len(b.pages))
	buf.WriteString("# Summary\n\n")
	writeLink(&buf, inline(b.rootTitle()), b.indexName)
	buf.WriteString("\n\n")
	b.toc(&buf)
	return finish(&buf)
}

// toc writes every page as a nested list with links from the root.
func (b *bundle) toc(buf *bytes.Buffer) {
	if len(b.pages) == 0 {
		return
	}
	for i := range b.pages {
		p := &b.pages[i]
		indent(buf, min(p.level, maxListDepth-1))
		buf.WriteString("- ")
		writeLink(buf, linkText(p.n), p.file)
		buf.WriteByte('\n')
	}
}

// indent writes four spaces per list level: Python-Markdown (MkDocs)
// nests lists only at four, CommonMark at two or more.
func indent(buf *bytes.Buffer, level int) {
	for range level {
		buf.WriteString("    ")
	}
}

// writeLink writes a Markdown link; text is already escaped and dest is a
// path made of safe segments.
func writeLink(buf *bytes.Buffer, text, dest string) {
	buf.WriteByte('[')
	buf.WriteString(text)
	buf.WriteString("](")
	buf.WriteString(dest)
	buf.WriteByte(')')
}

// displayTitle is the title to show for n, as plain text: its title, else
// its id.
func displayTitle(n *model.Node) string {
	if s := plain(n.Title); s != "" {
		return s
	}
	if s := plain(n.ID); s != "" {
		return s
	}
	return "(untitled)"
}

// linkText is the escaped text of a link to n: "Lesson 3: Title".
func linkText(n *model.Node) string {
	t := displayTitle(n)
	if td := plain(n.Label()); td != "" {
		t = td + ": " + t
	}
	return inline(t)
}
