package mathml

import (
	"errors"
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/curex/curex/exporter/internal/render/mathstyle"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// elements are the MathML elements Sanitize keeps: presentation MathML
// (MathML Core and what Temml writes), with semantics and annotation for
// the TeX source.
var elements = map[string]bool{
	"math": true, "semantics": true, "annotation": true,
	"mrow": true, "mi": true, "mn": true, "mo": true, "ms": true, "mtext": true, "mspace": true,
	"msup": true, "msub": true, "msubsup": true, "mfrac": true, "msqrt": true, "mroot": true,
	"mover": true, "munder": true, "munderover": true, "mmultiscripts": true, "mprescripts": true, "none": true,
	"mtable": true, "mtr": true, "mtd": true, "mlabeledtr": true,
	"mstyle": true, "mpadded": true, "mphantom": true, "menclose": true, "merror": true,
}

// attributes are the attributes Sanitize keeps, on any kept element, when
// their value passes the check. None can name a URL, a style or a script.
var attributes = map[string]func(string) bool{
	"display":       oneOf("block", "inline"),
	"mathvariant":   oneOf("normal", "bold", "italic", "bold-italic", "double-struck", "bold-fraktur", "script", "bold-script", "fraktur", "sans-serif", "bold-sans-serif", "sans-serif-italic", "sans-serif-bold-italic", "monospace", "initial", "tailed", "looped", "stretched"),
	"stretchy":      boolean,
	"fence":         boolean,
	"separator":     boolean,
	"accent":        boolean,
	"accentunder":   boolean,
	"displaystyle":  boolean,
	"movablelimits": boolean,
	"largeop":       boolean,
	"symmetric":     boolean,
	"form":          oneOf("prefix", "infix", "postfix"),
	"lspace":        lengths,
	"rspace":        lengths,
	"width":         lengths,
	"height":        lengths,
	"depth":         lengths,
	"voffset":       lengths,
	"minsize":       lengths,
	"maxsize":       lengths,
	"mathsize":      lengths,
	"linethickness": lengths,
	"scriptlevel":   lengths,
	"rowspacing":    lengths,
	"columnspacing": lengths,
	"columnalign":   words,
	"rowalign":      words,
	"notation":      words,
	"columnlines":   words,
	"rowlines":      words,
	"frame":         words,
	"encoding":      oneOf("application/x-tex"),
}

func oneOf(vs ...string) func(string) bool {
	return func(v string) bool {
		for _, w := range vs {
			if v == w {
				return true
			}
		}
		return false
	}
}

func boolean(v string) bool { return v == "true" || v == "false" }

// lengths accepts numbers with units, lists of them, and named spaces:
// ASCII letters, digits, '.', '-', '+', '%' and spaces, 64 bytes at most.
func lengths(v string) bool {
	if len(v) > 64 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(".-+% ", c) >= 0) {
			return false
		}
	}
	return true
}

// words accepts lower-case ASCII words separated by spaces (columnalign
// "left right", notation "updiagonalstrike").
func words(v string) bool {
	if len(v) > 256 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !(c >= 'a' && c <= 'z' || c == ' ') {
			return false
		}
	}
	return true
}

// classAlign maps Temml's column classes to the attribute they stand for
// (Temml sets alignment of cases and aligned rows by class and style).
var classAlign = map[string]string{"tml-left": "left", "tml-right": "right", "tml-center": "center"}

// ErrNoMath is Sanitize's error for input that holds no <math> element.
var ErrNoMath = errors.New("no math element")

// Sanitize returns the first <math> element of s with only presentation
// MathML left: elements outside the list (HTML, SVG, annotation-xml,
// maction, anything unknown) are dropped with all they contain;
// attributes outside the list, or whose value fails its check, are
// dropped; an annotation is kept only with encoding application/x-tex.
// Temml's alignment classes become columnalign. Of a class and a style,
// only what the math style sheet (package mathstyle) styles survives, as
// classes it names (mathstyle.Styles): the padding-left and padding-right
// Temml writes in an mtd's style, the spacing of a table's columns, when
// the length is one mathstyle has a class for (mathstyle.CellClass), and
// Temml's tml-jot and tml-small on an mtable; no style attribute is ever
// written (the website's Content-Security-Policy refuses them). The
// result is well formed, with every text and attribute value escaped.
func Sanitize(s string) (string, error) {
	nodes, err := nethtml.ParseFragment(strings.NewReader(s), &nethtml.Node{Type: nethtml.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return "", fmt.Errorf("parse mathml: %w", err)
	}
	var m *nethtml.Node
	for _, n := range nodes {
		if m = findMath(n); m != nil {
			break
		}
	}
	if m == nil {
		return "", ErrNoMath
	}
	var b strings.Builder
	write(&b, m, true)
	return b.String(), nil
}

// findMath returns the first MathML math element at or under n.
func findMath(n *nethtml.Node) *nethtml.Node {
	if n.Type == nethtml.ElementNode && n.Namespace == "math" && n.Data == "math" {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if m := findMath(c); m != nil {
			return m
		}
	}
	return nil
}

// write writes n, sanitized, to b; root is set for the math element
// itself (a math element inside it is dropped).
func write(b *strings.Builder, n *nethtml.Node, root bool) {
	switch n.Type {
	case nethtml.TextNode:
		b.WriteString(html.EscapeString(n.Data))
		return
	case nethtml.ElementNode:
	default:
		return // comments, doctypes
	}
	if n.Namespace != "math" || !elements[n.Data] || n.Data == "math" && !root {
		return
	}
	if n.Data == "annotation" && attr(n, "encoding") != "application/x-tex" {
		return
	}
	b.WriteByte('<')
	b.WriteString(n.Data)
	align := ""
	var classes []string
	for _, a := range n.Attr {
		if a.Namespace != "" {
			continue // xlink:href and the like
		}
		switch a.Key {
		case "class":
			for _, c := range strings.Fields(a.Val) {
				if v, ok := classAlign[c]; ok && align == "" {
					align = v
				}
				if mathstyle.Styles(n.Data, c) {
					classes = append(classes, c)
				}
			}
			continue
		case "style":
			if n.Data == "mtd" {
				classes = append(classes, cellClasses(a.Val)...)
			}
			continue
		}
		ok := attributes[a.Key]
		if ok == nil || !ok(a.Val) {
			continue
		}
		writeAttr(b, a.Key, a.Val)
	}
	if align != "" && (n.Data == "mtd" || n.Data == "mtable" || n.Data == "mtr") && attr(n, "columnalign") == "" {
		writeAttr(b, "columnalign", align)
	}
	if classes = uniq(classes); len(classes) > 0 {
		writeAttr(b, "class", strings.Join(classes, " "))
	}
	b.WriteByte('>')
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		write(b, c, false)
	}
	b.WriteString("</")
	b.WriteString(n.Data)
	b.WriteByte('>')
}

// cellClasses returns the classes of package mathstyle that stand for a
// table cell's style as Temml writes it: its padding-left and
// padding-right (the spacing of a table's columns), when the value is
// one of the lengths mathstyle has a class for (CellClass). Nothing else
// of a style survives: no other property, no value that is not such a
// length (url(), expression(), var(), !important...). The last
// declaration of a side wins, as in CSS.
func cellClasses(style string) []string {
	var left, right string
	for _, decl := range strings.Split(style, ";") {
		prop, val, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		// A value CellClass has no class for clears the side (an
		// invalid declaration in CSS would be ignored instead; either
		// way nothing of it is written).
		prop = strings.ToLower(strings.TrimSpace(prop))
		c, _ := mathstyle.CellClass(prop, strings.TrimSpace(val))
		switch prop {
		case "padding-left":
			left = c
		case "padding-right":
			right = c
		}
	}
	var cs []string
	for _, c := range []string{left, right} {
		if c != "" {
			cs = append(cs, c)
		}
	}
	return cs
}

// uniq returns cs without its repeats, in order.
func uniq(cs []string) []string {
	var out []string
	for _, c := range cs {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

func writeAttr(b *strings.Builder, k, v string) {
	b.WriteByte(' ')
	b.WriteString(k)
	b.WriteString(`="`)
	b.WriteString(html.EscapeString(v))
	b.WriteByte('"')
}

// attr returns the value of n's attribute k, or "".
func attr(n *nethtml.Node, k string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == k {
			return a.Val
		}
	}
	return ""
}
