package mathstyle

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"strconv"
)

//go:embed font/latinmodern-math.woff2
var font []byte

// FontName is the font's file name (a format may put it in any folder, or
// add a content hash to it).
const FontName = "latinmodern-math.woff2"

// FontType is the font's media type, as an EPUB manifest or an HTTP
// server names it.
const FontType = "font/woff2"

// FontFamily is the family the rules set math in, and the @font-face
// declares.
const FontFamily = "Latin Modern Math"

// Font returns the font's bytes. The caller may modify the returned
// slice.
func Font() []byte { return bytes.Clone(font) }

// DataURL returns the font as a data: URL, for a document that must stand
// alone (the handbook): about 522 KB.
func DataURL() string {
	return "data:" + FontType + ";base64," + base64.StdEncoding.EncodeToString(font)
}

// rules are the style rules of math, after the @font-face; the spacing
// of table cells (spacing) follows them.
const rules = `math { font-family: "` + FontFamily + `", math; }
/* Formulas at the size KaTeX sets them: Latin Modern Math's letters are
   light and small beside a text font's at the same size. */
math { font-size: 1.21em; }
/* Columns of aligned, cases and array keep Temml's alignment (columnalign):
   Chromium ignores text-align: right on an mtd and needs its -webkit- value
   (as Temml's temml.css says), which other engines ignore in turn. */
mtd[columnalign="left"] { text-align: left; text-align: -webkit-left; }
mtd[columnalign="right"] { text-align: right; text-align: -webkit-right; }
mtd[columnalign="center"] { text-align: center; text-align: -webkit-center; }
/* Rows of aligned, gathered, CD... (jot) and of smallmatrix, as temml.css. */
mtable.tml-jot > mtr > mtd { padding-top: 0.7ex; padding-bottom: 0.7ex; }
mtable.tml-small > mtr > mtd { padding-top: 0.35ex; padding-bottom: 0.35ex; }
`

// A padding is a length Temml writes as a table cell's padding-left or
// padding-right, in a style attribute no format keeps (the website's
// Content-Security-Policy refuses inline styles, and the sanitizer drops
// them), and the name of the classes that set it instead: tml-pl-<name>
// and tml-pr-<name>.
type padding struct{ length, name string }

// paddings are the lengths Temml 0.13 writes for the columns of its
// environments (the mathml package's TestTemmlPaddingsHaveClasses
// checks that none is missing). A length not listed (a \arraycolsep the
// author redefined) has no class: the cell keeps the reader's default,
// MathML Core's 0.4em.
func paddings() []padding {
	return []padding{
		{"0", "0"}, {"0em", "0"}, {"0pt", "0"}, // aligned, cases: columns abut
		{"0.1389em", "small"}, // smallmatrix
		{"0.25em", "cd"},      // CD
		{"0.4em", "env"},      // gathered, multline, and others' default
		{"1em", "quad"},       // align's gap between pairs, cases' second column
		{"5.9776pt", "array"}, // array and the matrices: \arraycolsep, 6pt
	}
}

// CellClass returns the class that gives a table cell (mtd) the style
// declaration "property: length" (property padding-left or padding-right,
// length exactly as Temml writes it), and whether the rules have one;
// it returns "" and false for anything else. Only the mathml package's
// sanitizer, which decides what of Temml's output a page keeps, calls it.
func CellClass(property, length string) (string, bool) {
	prefix := map[string]string{"padding-left": "tml-pl-", "padding-right": "tml-pr-"}[property]
	if prefix == "" {
		return "", false
	}
	for _, p := range paddings() {
		if p.length == length {
			return prefix + p.name, true
		}
	}
	return "", false
}

// Styles reports whether the rules style class on a MathML element of
// that name: on an mtable, Temml's tml-jot (the rows of aligned,
// gathered, CD...) and tml-small (smallmatrix); on an mtd, a class
// CellClass returns. The sanitizer keeps these classes and no other.
func Styles(element, class string) bool {
	switch element {
	case "mtable":
		return class == "tml-jot" || class == "tml-small"
	case "mtd":
		for _, p := range paddings() {
			if class == "tml-pl-"+p.name || class == "tml-pr-"+p.name {
				return true
			}
		}
	}
	return false
}

// spacing writes the rules of CellClass's classes, one per name and side,
// with the first length of that name ("0" for 0, 0em and 0pt).
func spacing(b *bytes.Buffer) {
	b.WriteString("/* Column spacing of aligned, cases, array and the matrices, as Temml sets it\n   (its inline styles, which no format keeps, become these classes). */\n")
	seen := map[string]bool{}
	for _, p := range paddings() {
		if seen[p.name] {
			continue
		}
		seen[p.name] = true
		b.WriteString("mtd.tml-pl-" + p.name + " { padding-left: " + p.length + "; }\n")
		b.WriteString("mtd.tml-pr-" + p.name + " { padding-right: " + p.length + "; }\n")
	}
}

// CSS returns the style rules of math, with an @font-face that loads the
// font from fontURL (relative to the style sheet that holds the rules, or
// a data: URL); an empty fontURL leaves the @font-face out, and math falls
// back to the reader's math font. A browser fetches the font only for a
// page whose math uses it.
func CSS(fontURL string) []byte {
	var b bytes.Buffer
	b.WriteString("/* curex: math, in every format that shows it (package mathstyle) */\n")
	if fontURL != "" {
		b.WriteString("@font-face {\n  font-family: \"" + FontFamily + "\";\n  src: url(" + strconv.Quote(fontURL) + ") format(\"woff2\");\n  font-display: swap;\n}\n")
	}
	b.WriteString(rules)
	spacing(&b)
	return b.Bytes()
}

// Holds reports whether markup, written by curex's content renderer,
// holds a MathML math element: only then does a document need the rules
// and the font. (Text is escaped there, so "<math" is never prose.)
func Holds(markup []byte) bool { return bytes.Contains(markup, []byte("<math")) }
