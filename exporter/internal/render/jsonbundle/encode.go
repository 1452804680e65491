package jsonbundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/curex/curex/exporter/internal/jsonstr"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
)

// maxIndent caps indentation: a line nested deeper than maxIndent levels
// is indented as if it were at that level. Real curricula stay far above
// it (a node at depth d has its members at level 2d+3), and without a cap
// a pathologically deep tree would cost space quadratic in its depth.
const maxIndent = 32

// spaces holds the widest indentation.
var spaces = strings.Repeat(" ", 2*maxIndent)

// Encode returns the tree.json bytes of t. The same tree always gives the
// same bytes.
//
// Encode fails, returning no bytes, rather than write a document that
// would not match the schema: for a nil tree or node, a node that is its
// own ancestor, a locale or primary locale that is not a language tag, an
// empty curriculum id, variant id or variant chain, an empty node id, a
// negative position, depth or override level, a source locale that is
// neither empty nor a language tag, a node whose segment is not one path
// segment or whose page (layout.NodePage) is not a safe relative ".html"
// path, an attribute value that is not valid JSON, or a resolution time outside
// the years 0 to 9999. Errors name the offending node by id and by its
// JSON Pointer in the document.
//
// Strings that are not valid UTF-8 are written with each invalid byte
// replaced by U+FFFD, as encoding/json does. An attribute whose value is
// empty is written as null.
func Encode(t *model.Tree) ([]byte, error) {
	if t == nil {
		return nil, errors.New("jsonbundle: nil tree")
	}
	count, size, err := check(t)
	if err != nil {
		return nil, err
	}
	e := encoder{buf: make([]byte, 0, size)}
	e.prefix, e.suffix = layout.NodePageParts(t.Export)
	if err := e.tree(t, count); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// frame is one open list of sibling nodes during a walk: next indexes the
// node to visit next, level is the indentation level of the list's "[".
type frame struct {
	nodes []*model.Node
	next  int
	level int
}

// pointer returns the JSON Pointer of the node last visited in the
// innermost frame.
func pointer(stack []frame) string {
	place := make([]int, len(stack))
	for i, f := range stack {
		place[i] = f.next - 1
	}
	return pointerAt(place)
}

// pointerAt returns the JSON Pointer of the node at place (the indexes of
// model.Tree.Visit).
func pointerAt(place []int) string {
	var b strings.Builder
	for i, p := range place {
		if i == 0 {
			b.WriteString("/nodes/")
		} else {
			b.WriteString("/children/")
		}
		b.WriteString(strconv.Itoa(p))
	}
	return b.String()
}

// check walks t once, without recursion, before anything is written: it
// rejects what the schema would, counts the nodes and estimates the size
// of the output.
func check(t *model.Tree) (count, size int, err error) {
	top := func(format string, args ...any) error {
		return fmt.Errorf("jsonbundle: "+format, args...)
	}
	switch {
	case t.CurriculumID == "":
		return 0, 0, top("empty curriculum id")
	case t.VariantID == "":
		return 0, 0, top("curriculum %q: empty variant id", t.CurriculumID)
	case len(t.VariantChain) == 0:
		return 0, 0, top("curriculum %q: empty variant chain", t.CurriculumID)
	case !validLocale(t.Locale):
		return 0, 0, top("curriculum %q: locale %q is not a language tag", t.CurriculumID, t.Locale)
	case !validLocale(t.PrimaryLocale):
		return 0, 0, top("curriculum %q: primary locale %q is not a language tag", t.CurriculumID, t.PrimaryLocale)
	}
	size = 512 + len(t.CurriculumName) + len(t.Variant) + len(t.ETag) + len(t.LocaleAsServed)
	for _, name := range t.VariantChain {
		size += len(name) + 8
	}

	// A node's path is prefix + segment + suffix: the parts are checked
	// once, each segment alone.
	prefix, suffix := layout.NodePageParts(t.Export)
	pagesOK := validPath(prefix + "x" + suffix)
	// Visit rejects nil nodes and nodes that are their own ancestor.
	err = t.Visit(func(n *model.Node, place []int) error {
		bad := func(format string, args ...any) error { return nodeError(n, place, format, args...) }
		switch {
		case n.ID == "":
			return bad("empty id")
		case n.Position < 0:
			return bad("negative position %d", n.Position)
		case n.Depth < 0:
			return bad("negative depth %d", n.Depth)
		case n.Inheritance.OverrideLevel < 0:
			return bad("negative override level %d", n.Inheritance.OverrideLevel)
		case n.Translation.SourceLocale != "" && n.Translation.SourceLocale != t.Locale &&
			n.Translation.SourceLocale != t.PrimaryLocale && !validLocale(n.Translation.SourceLocale):
			return bad("source locale %q is not a language tag", n.Translation.SourceLocale)
		case !pagesOK || !validSegment(n.Segment):
			return bad("path %q is not a relative path with forward slashes ending in .html (no leading /, no . or .. segment, no backslash, colon, ?, # or control character)", prefix+n.Segment+suffix)
		}
		count++
		size += nodeSize(n, 2*len(place)) + len(prefix) + len(n.Segment) + len(suffix)
		return nil
	})
	var shape *model.ShapeError
	switch {
	case errors.As(err, &shape) && errors.Is(err, model.ErrNilNode):
		return 0, 0, fmt.Errorf("jsonbundle: nil node at %s", pointerAt(shape.Place))
	case shape != nil:
		return 0, 0, fmt.Errorf("jsonbundle: node %q at %s: %w", shape.ID, pointerAt(shape.Place), shape.Err)
	case err != nil:
		return 0, 0, err
	}
	return count, size, nil
}

// nodeSize estimates the bytes node n takes, without its children and its
// path, when its object sits at indentation level: a little more than it
// needs for usual attributes, so that the buffer rarely grows.
func nodeSize(n *model.Node, level int) int {
	ind := func(l int) int { return 1 + 2*min(l, maxIndent) }
	size := 400 + 3*ind(level) + 16*ind(level+1) + 9*ind(level+2) +
		len(n.ID) + len(n.Title) + len(n.NodeType.Name) + len(n.NodeType.DisplayName) +
		len(n.NodeType.Icon) + len(n.OrdinalLabel) + len(n.TypeDisplay) + len(n.WorkflowStatus) +
		len(n.Inheritance.SourceCurriculum) + len(n.Translation.Status) +
		len(n.Translation.SourceLocale)
	for k, v := range n.Attributes {
		// Each element of a nested array or object gets a line of its own
		// (commas in strings count too: an estimate may exceed).
		lines := bytes.Count(v, []byte{','}) + 2*bytes.Count(v, []byte{'['}) + 2*bytes.Count(v, []byte{'{'})
		size += len(k) + 6 + ind(level+2) + len(v) + lines*ind(level+3)
	}
	return size
}

// nodeError describes a problem with node n, at place (model.Tree.Visit).
func nodeError(n *model.Node, place []int, format string, args ...any) error {
	return fmt.Errorf("jsonbundle: node %q at %s: %s", n.ID, pointerAt(place), fmt.Sprintf(format, args...))
}

// encoder appends the document to buf.
type encoder struct {
	buf  []byte
	keys []string // scratch for sorting attribute names
	// prefix and suffix surround a node's segment in its path
	// (layout.NodePageParts).
	prefix, suffix string
}

// nl starts a new line indented for level.
func (e *encoder) nl(level int) {
	e.buf = append(e.buf, '\n')
	e.buf = append(e.buf, spaces[:2*min(level, maxIndent)]...)
}

// first starts the first member of an object at level with the key k,
// which must need no escaping.
func (e *encoder) first(level int, k string) {
	e.nl(level)
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, k...)
	e.buf = append(e.buf, '"', ':', ' ')
}

// key starts a further member of an object at level.
func (e *encoder) key(level int, k string) {
	e.buf = append(e.buf, ',')
	e.first(level, k)
}

func (e *encoder) str(s string) { e.buf = jsonstr.Append(e.buf, s) }

// page writes the path of the node whose segment is seg as a JSON string,
// without building the path: the parts meet at a "/", so escaping them
// one by one escapes the whole.
func (e *encoder) page(seg string) {
	e.buf = append(e.buf, '"')
	e.buf = jsonstr.AppendEscaped(e.buf, e.prefix)
	e.buf = jsonstr.AppendEscaped(e.buf, seg)
	e.buf = jsonstr.AppendEscaped(e.buf, e.suffix)
	e.buf = append(e.buf, '"')
}

func (e *encoder) int(n int) { e.buf = strconv.AppendInt(e.buf, int64(n), 10) }

func (e *encoder) bool(b bool) { e.buf = strconv.AppendBool(e.buf, b) }

// tree writes the whole document. check must have accepted t.
func (e *encoder) tree(t *model.Tree, count int) error {
	e.buf = append(e.buf, '{')
	e.first(1, "format")
	e.str(Format)
	e.key(1, "curriculum_id")
	e.str(t.CurriculumID)
	e.key(1, "curriculum_name")
	e.str(t.CurriculumName)
	e.key(1, "variant")
	e.str(t.Variant)
	e.key(1, "variant_id")
	e.str(t.VariantID)
	e.key(1, "variant_chain")
	e.buf = append(e.buf, '[')
	for i, name := range t.VariantChain {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.nl(2)
		e.str(name)
	}
	e.nl(1)
	e.buf = append(e.buf, ']')
	e.key(1, "locale")
	e.str(t.Locale)
	if t.LocaleAsServed != "" && t.LocaleAsServed != t.Locale {
		e.key(1, "locale_as_served")
		e.str(t.LocaleAsServed)
	}
	e.key(1, "primary_locale")
	e.str(t.PrimaryLocale)
	e.key(1, "etag")
	e.str(t.ETag)
	e.key(1, "resolved_at")
	e.buf = append(e.buf, '"')
	var err error
	if e.buf, err = t.ResolvedAt.UTC().AppendText(e.buf); err != nil {
		return fmt.Errorf("jsonbundle: curriculum %q: resolved_at: %w", t.CurriculumID, err)
	}
	e.buf = append(e.buf, '"')
	e.key(1, "node_count")
	e.int(count)
	e.key(1, "nodes")
	if err := e.nodes(t.Nodes); err != nil {
		return err
	}
	e.nl(0)
	e.buf = append(e.buf, '}', '\n')
	return nil
}

// nodes writes the root list and every subtree, without recursion.
func (e *encoder) nodes(roots []*model.Node) error {
	if len(roots) == 0 {
		e.buf = append(e.buf, '[', ']')
		return nil
	}
	e.buf = append(e.buf, '[')
	stack := []frame{{nodes: roots, level: 1}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.nodes) {
			// Close the list, then the node that owns it.
			e.nl(f.level)
			e.buf = append(e.buf, ']')
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				e.nl(f.level - 1)
				e.buf = append(e.buf, '}')
			}
			continue
		}
		if f.next > 0 {
			e.buf = append(e.buf, ',')
		}
		n := f.nodes[f.next]
		f.next++
		level := f.level + 1
		e.nl(level)
		if err := e.head(n, level); err != nil {
			return fmt.Errorf("jsonbundle: node %q at %s: %w", n.ID, pointer(stack), err)
		}
		if len(n.Children) == 0 {
			e.buf = append(e.buf, '[', ']')
			e.nl(level)
			e.buf = append(e.buf, '}')
			continue
		}
		e.buf = append(e.buf, '[')
		stack = append(stack, frame{nodes: n.Children, level: level + 1})
	}
	return nil
}

// head writes node n, an object at level, up to the value of "children".
func (e *encoder) head(n *model.Node, level int) error {
	in := level + 1
	e.buf = append(e.buf, '{')
	e.first(in, "id")
	e.str(n.ID)
	e.key(in, "title")
	e.str(n.Title)
	e.key(in, "node_type")
	e.buf = append(e.buf, '{')
	e.first(in+1, "name")
	e.str(n.NodeType.Name)
	e.key(in+1, "display_name")
	e.str(n.NodeType.DisplayName)
	e.key(in+1, "icon")
	e.str(n.NodeType.Icon)
	e.nl(in)
	e.buf = append(e.buf, '}')
	e.key(in, "ordinal_label")
	e.str(n.OrdinalLabel)
	e.key(in, "type_display")
	e.str(n.TypeDisplay)
	e.key(in, "workflow_status")
	e.str(n.WorkflowStatus)
	e.key(in, "position")
	e.int(n.Position)
	e.key(in, "depth")
	e.int(n.Depth)
	e.key(in, "attributes")
	if err := e.attributes(n.Attributes, in); err != nil {
		return err
	}
	e.key(in, "inheritance")
	e.buf = append(e.buf, '{')
	e.first(in+1, "is_inherited")
	e.bool(n.Inheritance.IsInherited)
	e.key(in+1, "source_curriculum")
	e.str(n.Inheritance.SourceCurriculum)
	e.key(in+1, "override_level")
	e.int(n.Inheritance.OverrideLevel)
	e.nl(in)
	e.buf = append(e.buf, '}')
	e.key(in, "translation")
	e.buf = append(e.buf, '{')
	e.first(in+1, "is_translated")
	e.bool(n.Translation.IsTranslated)
	e.key(in+1, "status")
	e.str(n.Translation.Status)
	e.key(in+1, "source_locale")
	e.str(n.Translation.SourceLocale)
	e.nl(in)
	e.buf = append(e.buf, '}')
	e.key(in, "path")
	e.page(n.Segment)
	e.key(in, "children")
	return nil
}

// attributes writes m, an object at level, with its members sorted by
// name and each value re-indented but otherwise as received.
func (e *encoder) attributes(m map[string]json.RawMessage, level int) error {
	if len(m) == 0 {
		e.buf = append(e.buf, '{', '}')
		return nil
	}
	keys := e.keys[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.keys = keys
	e.buf = append(e.buf, '{')
	for i, k := range keys {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.nl(level + 1)
		e.str(k)
		e.buf = append(e.buf, ':', ' ')
		if err := e.raw(m[k], level+1); err != nil {
			return fmt.Errorf("attribute %q: %w", k, err)
		}
	}
	e.nl(level)
	e.buf = append(e.buf, '}')
	return nil
}

// raw writes the JSON value v re-indented for level: whitespace between
// tokens is replaced, tokens are copied unchanged (numbers keep their
// spelling, strings their escapes, objects their member order).
func (e *encoder) raw(v json.RawMessage, level int) error {
	v = trimSpace(v)
	if len(v) == 0 {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	if !json.Valid(v) {
		return errors.New("value is not valid JSON")
	}
	if !utf8.Valid(v) {
		// Only string contents can hold invalid UTF-8 in valid JSON.
		v = fixUTF8(v)
	}
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case ' ', '\t', '\n', '\r':
		case '"':
			j := i + 1
			for v[j] != '"' {
				if v[j] == '\\' {
					j++
				}
				j++
			}
			e.buf = append(e.buf, v[i:j+1]...)
			i = j
		case '{', '[':
			k := i + 1
			for isSpace(v[k]) {
				k++
			}
			if v[k] == '}' || v[k] == ']' {
				e.buf = append(e.buf, c, v[k])
				i = k
				continue
			}
			e.buf = append(e.buf, c)
			level++
			e.nl(level)
		case '}', ']':
			level--
			e.nl(level)
			e.buf = append(e.buf, c)
		case ',':
			e.buf = append(e.buf, ',')
			e.nl(level)
		case ':':
			e.buf = append(e.buf, ':', ' ')
		default: // a number, true, false or null
			j := i + 1
			for j < len(v) && !isSpace(v[j]) && !isDelim(v[j]) {
				j++
			}
			e.buf = append(e.buf, v[i:j]...)
			i = j - 1
		}
	}
	return nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isDelim(c byte) bool { return c == ',' || c == ']' || c == '}' }

// trimSpace removes JSON whitespace (only) around v.
func trimSpace(v []byte) []byte {
	for len(v) > 0 && isSpace(v[0]) {
		v = v[1:]
	}
	for len(v) > 0 && isSpace(v[len(v)-1]) {
		v = v[:len(v)-1]
	}
	return v
}

// fixUTF8 returns v with every byte that is not part of valid UTF-8
// replaced by the escape \ufffd, as encoding/json decodes it.
func fixUTF8(v []byte) []byte {
	out := make([]byte, 0, len(v)+16)
	for i := 0; i < len(v); {
		r, size := utf8.DecodeRune(v[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(out, `\ufffd`...)
		} else {
			out = append(out, v[i:i+size]...)
		}
		i += size
	}
	return out
}
