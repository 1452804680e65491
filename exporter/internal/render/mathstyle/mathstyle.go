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

// rules are the style rules of math, after the @font-face.
const rules = `math { font-family: "` + FontFamily + `", math; }
/* Columns of aligned, cases and array keep Temml's alignment (columnalign):
   Chromium ignores text-align: right on an mtd and needs its -webkit- value
   (as Temml's temml.css says), which other engines ignore in turn. */
mtd[columnalign="left"] { text-align: left; text-align: -webkit-left; }
mtd[columnalign="right"] { text-align: right; text-align: -webkit-right; }
mtd[columnalign="center"] { text-align: center; text-align: -webkit-center; }
`

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
	return b.Bytes()
}

// Holds reports whether markup, written by curex's content renderer,
// holds a MathML math element: only then does a document need the rules
// and the font. (Text is escaped there, so "<math" is never prose.)
func Holds(markup []byte) bool { return bytes.Contains(markup, []byte("<math")) }
