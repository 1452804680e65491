package handbook

import (
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/mathstyle"
)

// TestMathStyleWhenMath is issue 25's reproduction of the handbook's (and
// so the PDF's) math: a handbook that holds math carries package
// mathstyle's rules (the columns of aligned, cases and array aligned and
// spaced as Temml says, in Chromium too; formulas at 1.21em) and the math
// font inline, so the file
// still stands alone; a handbook without math carries neither.
func TestMathStyleWhenMath(t *testing.T) {
	r := newRenderer(t, Options{})
	tests := []struct {
		name, desc string
		math       bool
	}{
		{"aligned", `"$$\\begin{aligned} 2x + 3 &= 7 \\\\ x &= 2 \\end{aligned}$$"`, true},
		{"cases", `"$f(x) = \\begin{cases} 1 & x > 0 \\\\ 0 & \\text{else} \\end{cases}$"`, true},
		{"no math", `"Prose, and a price of $5 and $10."`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := render(t, r, tree("en", node("Lesson", map[string]string{"description": tt.desc})), Info{})
			if got := strings.Contains(doc, "<math"); got != tt.math {
				t.Fatalf("holds math: %v, want %v", got, tt.math)
			}
			if tt.math && !strings.Contains(doc, `columnalign="left" class="tml-pl-0 tml-pr-0">`) {
				t.Error("the columns lost their spacing (no tml-pl-0 class)")
			}
			for _, rule := range []string{
				`mtd[columnalign="right"] { text-align: right; text-align: -webkit-right; }`,
				`mtd.tml-pl-0 { padding-left: 0; }`,
				`math { font-size: 1.21em; }`,
				`font-family: "Latin Modern Math";`,
				`src: url("` + mathstyle.DataURL() + `") format("woff2");`,
			} {
				if got := strings.Contains(doc, rule); got != tt.math {
					t.Errorf("holds %.80s: %v, want %v", rule, got, tt.math)
				}
			}
		})
	}
}
