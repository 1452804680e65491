package cartridge

import (
	"bytes"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/mathstyle"
)

// TestMathFontWhenMath is issue 25's reproduction of the cartridge's
// math: columns of aligned, cases and array were centred (no rule) and
// formulas set in the browser's default font. A cartridge that holds math
// carries math.css (package mathstyle: formulas at 1.21em, columns
// aligned and spaced as Temml sets them, its classes on the cells) and
// the font, in a resource of their own that the pages with math depend
// on and link; a cartridge without math carries neither.
func TestMathFontWhenMath(t *testing.T) {
	tests := []struct {
		name, desc string
		math       bool
	}{
		{"aligned", `"$$\\begin{aligned} 2x + 3 &= 7 \\\\ x &= 2 \\end{aligned}$$"`, true},
		{"array", `"$\\begin{array}{lr} a & 10 \\\\ bb & 2 \\end{array}$"`, true},
		{"no math", `"Prose, and a price of $5 and $10."`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := tree("en", node("l1", "Lesson", map[string]string{"description": tt.desc}), node("l2", "Plain", map[string]string{"description": `"No math here."`}))
			a := open(t, makeCartridge(t, New(Options{}), tr))
			check(t, tr, a, false) // each page with math links math.css and depends on it
			if got := bytes.Contains(a.files[PagesDir+"l1.html"], []byte("<math")); got != tt.math {
				t.Fatalf("holds math: %v, want %v", got, tt.math)
			}
			font, ok := a.files[MathFontFile]
			if ok != tt.math || ok && !bytes.Equal(font, mathstyle.Font()) {
				t.Errorf("font file: %v (%d bytes), want %v", ok, len(font), tt.math)
			}
			if strings.Contains(string(a.files[PagesDir+"l2.html"]), MathStyleFile) {
				t.Error("the page without math links math.css")
			}
			if page := string(a.files[PagesDir+"l1.html"]); tt.math && !strings.Contains(page, `class="tml-pl-0 tml-pr-`) {
				t.Errorf("the columns lost their spacing (no tml-pl-0 class): %s", page)
			}
			css := string(a.files[MathStyleFile])
			for _, rule := range []string{
				`mtd[columnalign="right"] { text-align: right; text-align: -webkit-right; }`,
				`mtd.tml-pl-0 { padding-left: 0; }`,
				`math { font-size: 1.21em; }`,
				`src: url("latinmodern-math.woff2") format("woff2");`,
			} {
				if got := strings.Contains(css, rule); got != tt.math {
					t.Errorf("math.css holds %s: %v, want %v", rule, got, tt.math)
				}
			}
		})
	}
}
