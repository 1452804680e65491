package epub

import (
	"bytes"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/mathstyle"
)

// TestMathFontWhenMath is issue 25's reproduction of the book's math:
// columns of aligned, cases and array were centred (no rule) and formulas
// set in the reader's default font. A book that holds math carries the
// math font, declared in its package document, and package mathstyle's
// rules in its style sheet (formulas at 1.21em, columns aligned and
// spaced as Temml sets them, its classes on the cells); a book without
// math carries neither.
func TestMathFontWhenMath(t *testing.T) {
	tests := []struct {
		name, desc string
		math       bool
	}{
		{"aligned", `"$$\\begin{aligned} 2x + 3 &= 7 \\\\ x &= 2 \\end{aligned}$$"`, true},
		{"chemistry", `"Water is $\\ce{H2O}$."`, true},
		{"no math", `"Prose, and a price of $5 and $10."`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, files := unzip(t, render(t, tree("en", node("Lesson", map[string]string{"description": tt.desc})), Info{}))
			if got := bytes.Contains(files["EPUB/text/p1.xhtml"], []byte("<math")); got != tt.math {
				t.Fatalf("holds math: %v, want %v", got, tt.math)
			}
			font, ok := files["EPUB/"+fontName]
			if ok != tt.math || ok && !bytes.Equal(font, mathstyle.Font()) {
				t.Errorf("font file: %v (%d bytes), want %v", ok, len(font), tt.math)
			}
			opf := string(files[PackagePath])
			if got := strings.Contains(opf, `<item id="mathfont" href="fonts/latinmodern-math.woff2" media-type="font/woff2"/>`); got != tt.math {
				t.Errorf("package document declares the font: %v, want %v", got, tt.math)
			}
			if page := string(files["EPUB/text/p1.xhtml"]); tt.name == "aligned" && !strings.Contains(page, `<mtd columnalign="right" class="tml-pl-0 tml-pr-0">`) {
				t.Errorf("the columns of aligned lost their spacing: %s", page)
			}
			css := string(files["EPUB/"+styleName])
			for _, rule := range []string{
				`mtd[columnalign="right"] { text-align: right; text-align: -webkit-right; }`,
				`mtd.tml-pl-0 { padding-left: 0; }`,
				`math { font-size: 1.21em; }`,
				`src: url("../fonts/latinmodern-math.woff2") format("woff2");`,
			} {
				if got := strings.Contains(css, rule); got != tt.math {
					t.Errorf("book.css holds %s: %v, want %v", rule, got, tt.math)
				}
			}
		})
	}
}
