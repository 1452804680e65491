package markdown

import (
	"strings"

	"github.com/curex/curex/exporter/internal/render/mathml"
)

// mathSource rewrites the math delimiters of received Markdown (as
// mathml.Scan finds them, the website's reading) to the forms that both
// Hugo's passthrough extension and MkDocs' pymdownx.arithmatex (generic
// mode) read, so the bundle's math renders in either (see
// docs/markdown.md):
//
//   - inline $...$ becomes \(...\); \(...\) stays;
//   - display math inside a paragraph ($$...$$ or \[...\]) becomes
//     \(\displaystyle ...\), which both read inline;
//   - a display block ("$$" lines, "\[" and "\]" lines, a ```math fence)
//     becomes "$$" lines around the TeX, indented as the block was.
//
// The TeX itself is never changed nor escaped: no backslash is added
// before its '_', '*' or '\'. A dollar in prose, code and escaped
// delimiters stay as they are.
func mathSource(s string) string {
	spans := mathml.Scan(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8*len(spans))
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp.Start])
		last = sp.End
		src := s[sp.Start:sp.End]
		switch {
		case sp.Block && sp.Delim == mathml.DoubleDollar:
			b.WriteString(src)
		case sp.Block && sp.Delim == mathml.Bracket:
			open := strings.Index(src, `\[`)
			closing := strings.LastIndex(src, `\]`)
			b.WriteString(src[:open] + "$$" + src[open+2:closing] + "$$" + src[closing+2:])
		case sp.Block: // a ```math fence
			indent := src[:len(src)-len(strings.TrimLeft(src, " "))]
			b.WriteString(indent + "$$\n" + sp.TeX + indent + "$$")
		case sp.Delim == mathml.Paren:
			b.WriteString(src)
		case sp.Delim.Display():
			b.WriteString(`\(\displaystyle ` + sp.TeX + `\)`)
		default:
			b.WriteString(`\(` + sp.TeX + `\)`)
		}
	}
	b.WriteString(s[last:])
	return b.String()
}
