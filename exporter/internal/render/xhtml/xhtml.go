package xhtml

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The namespaces the output uses.
const (
	// NamespaceXHTML is the namespace of XHTML elements.
	NamespaceXHTML = "http://www.w3.org/1999/xhtml"
	// NamespaceMathML is the namespace of MathML elements.
	NamespaceMathML = "http://www.w3.org/1998/Math/MathML"
	// NamespaceSVG is the namespace of SVG elements.
	NamespaceSVG = "http://www.w3.org/2000/svg"
	// NamespaceXLink is the namespace of SVG's and MathML's xlink:
	// attributes.
	NamespaceXLink = "http://www.w3.org/1999/xlink"
)

// Convert returns fragment, HTML as it may appear inside a body element,
// as well-formed XHTML (see the package documentation).
func Convert(fragment string) (string, error) {
	var b strings.Builder
	if err := Write(&b, strings.NewReader(fragment)); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Write reads an HTML fragment from r and writes it to w as well-formed
// XHTML (see the package documentation).
func Write(w io.Writer, r io.Reader) error {
	nodes, err := Parse(r)
	if err != nil {
		return err
	}
	return WriteNodes(w, nodes)
}

// Parse reads an HTML fragment from r and parses it as the inside of a
// body element, for a caller that changes the nodes (links, images)
// before WriteNodes writes them.
func Parse(r io.Reader) ([]*html.Node, error) {
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(r, body)
	if err != nil {
		return nil, fmt.Errorf("xhtml: parse fragment: %w", err)
	}
	return nodes, nil
}

// WriteNodes writes nodes, HTML elements and text as Parse returns them,
// to w as well-formed XHTML (see the package documentation).
func WriteNodes(w io.Writer, nodes []*html.Node) error {
	s := &serializer{w: w}
	for _, n := range nodes {
		s.node(n, NamespaceXHTML)
	}
	if s.err != nil {
		return fmt.Errorf("xhtml: write: %w", s.err)
	}
	return nil
}

// serializer writes nodes to w, keeping the first write error.
type serializer struct {
	w   io.Writer
	err error
}

func (s *serializer) str(v string) {
	if s.err == nil {
		_, s.err = io.WriteString(s.w, v)
	}
}

// node writes n, whose parent's default namespace is ns.
func (s *serializer) node(n *html.Node, ns string) {
	switch n.Type {
	case html.TextNode:
		s.str(escape(n.Data, false))
	case html.ElementNode:
		s.element(n, ns)
	case html.DocumentNode:
		s.children(n, ns)
	}
	// Comments, doctypes and raw nodes have no place in the output.
}

func (s *serializer) children(n *html.Node, ns string) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		s.node(c, ns)
	}
}

// element writes n, or only its children when its name is not one XML
// can hold.
func (s *serializer) element(n *html.Node, parentNS string) {
	name := n.Data
	if !isName(name) {
		s.children(n, parentNS)
		return
	}
	ns := namespaceOf(n.Namespace)
	s.str("<" + name)
	if ns != parentNS {
		s.str(` xmlns="` + ns + `"`)
	}
	s.attributes(n)
	if ns == NamespaceXHTML && leftToRight[name] && !hasAttr(n, "dir") {
		s.str(` dir="ltr"`)
	}
	if n.FirstChild == nil && (ns != NamespaceXHTML || isVoid(name)) {
		s.str("/>")
		return
	}
	s.str(">")
	if ns == NamespaceXHTML && isVoid(name) {
		// A void element has no content in HTML; the parser never
		// gives it children, but the tree may come from elsewhere.
		s.str("</" + name + ">")
		return
	}
	s.children(n, ns)
	s.str("</" + name + ">")
}

// leftToRight are the elements of code, which read left to right in
// every locale, also inside a right-to-left page: one without a dir
// attribute gets dir="ltr" (which also isolates it from the text around
// it). The direction lives in the markup because EPUB forbids the CSS
// direction and unicode-bidi properties in a book's stylesheet.
var leftToRight = map[string]bool{"pre": true, "code": true, "kbd": true, "samp": true}

// hasAttr reports whether n has the attribute key, in no namespace.
func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}

// attributes writes n's attributes that XML can hold, each name once, and
// xml:lang after lang.
func (s *serializer) attributes(n *html.Node) {
	seen := map[string]bool{}
	var lang string
	hasLang, hasXMLLang, declaredXLink := false, false, false
	for _, a := range n.Attr {
		var name string
		switch a.Namespace {
		case "":
			if a.Key == "xmlns" || !isName(a.Key) {
				continue
			}
			name = a.Key
		case "xml":
			if a.Key != "lang" && a.Key != "space" && a.Key != "base" {
				continue
			}
			name = "xml:" + a.Key
		case "xlink":
			if !isName(a.Key) {
				continue
			}
			if !declaredXLink {
				s.str(` xmlns:xlink="` + NamespaceXLink + `"`)
				declaredXLink = true
			}
			name = "xlink:" + a.Key
		default: // xmlns:* declarations are the serializer's business
			continue
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		switch name {
		case "lang":
			hasLang, lang = true, a.Val
		case "xml:lang":
			hasXMLLang = true
		}
		s.str(" " + name + `="` + escape(a.Val, true) + `"`)
	}
	if hasLang && !hasXMLLang {
		s.str(` xml:lang="` + escape(lang, true) + `"`)
	}
}

// namespaceOf returns the namespace URI of an element the HTML parser put
// in namespace short ("" for HTML, "math", "svg").
func namespaceOf(short string) string {
	switch short {
	case "math":
		return NamespaceMathML
	case "svg":
		return NamespaceSVG
	}
	return NamespaceXHTML
}

// isVoid reports whether the HTML element name has no end tag.
func isVoid(name string) bool {
	switch name {
	case "area", "base", "br", "col", "embed", "hr", "img", "input",
		"link", "meta", "source", "track", "wbr", "param", "keygen":
		return true
	}
	return false
}

// isName reports whether v is a name XML 1.0 holds without a namespace
// prefix. Only ASCII names are accepted: they are the only ones HTML,
// MathML and SVG define.
func isName(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// escape returns v with XML's markup characters escaped and characters
// XML 1.0 cannot hold replaced by U+FFFD. In an attribute value, quotes
// and whitespace other than the space are escaped too, so that they keep
// their value through attribute-value normalization.
func escape(v string, attr bool) string {
	var b strings.Builder
	b.Grow(len(v))
	for i := 0; i < len(v); {
		r, size := utf8.DecodeRuneInString(v[i:])
		if r == utf8.RuneError && size == 1 {
			r = utf8.RuneError
		}
		i += size
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case attr && r == '"':
			b.WriteString("&quot;")
		case attr && r == '\t':
			b.WriteString("&#9;")
		case attr && r == '\n':
			b.WriteString("&#10;")
		case r == '\r':
			b.WriteString("&#13;")
		case !isChar(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isChar reports whether r is a character XML 1.0 allows.
func isChar(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}
