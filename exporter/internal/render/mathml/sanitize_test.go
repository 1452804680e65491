package mathml

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/mathstyle"
	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", `<math><mi>x</mi></math>`, `<math><mi>x</mi></math>`},
		{"display kept", `<math display="block" class="tml-display" style="display:block math;"><mn>1</mn></math>`, `<math display="block"><mn>1</mn></math>`},
		{"bad display", `<math display="flex"><mn>1</mn></math>`, `<math><mn>1</mn></math>`},
		{"operator attrs", `<math><mo form="prefix" stretchy="false" lspace="0em" rspace="0.2222em">−</mo></math>`, `<math><mo form="prefix" stretchy="false" lspace="0em" rspace="0.2222em">−</mo></math>`},
		{"annotation tex", `<math><semantics><mi>x</mi><annotation encoding="application/x-tex">x&lt;1</annotation></semantics></math>`, `<math><semantics><mi>x</mi><annotation encoding="application/x-tex">x&lt;1</annotation></semantics></math>`},
		{"annotation other", `<math><semantics><mi>x</mi><annotation encoding="text/html">&lt;b&gt;</annotation></semantics></math>`, `<math><semantics><mi>x</mi></semantics></math>`},
		{"annotation-xml dropped", `<math><semantics><mi>x</mi><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml></semantics></math>`, `<math><semantics><mi>x</mi></semantics></math>`},
		{"href", `<math><mi href="javascript:alert(1)">x</mi></math>`, `<math><mi>x</mi></math>`},
		{"xlink", `<math><mi xlink:href="javascript:alert(1)">x</mi></math>`, `<math><mi>x</mi></math>`},
		{"events", `<math onload="alert(1)"><mi onclick="alert(1)" onmouseover=x>x</mi></math>`, `<math><mi>x</mi></math>`},
		{"style class id", `<math><mi style="color:red" class="a" id="b" mathcolor="red" mathbackground="blue">x</mi></math>`, `<math><mi>x</mi></math>`},
		{"svg dropped", `<math><mrow><svg><script>alert(1)</script></svg><mi>x</mi></mrow></math>`, `<math><mrow><mi>x</mi></mrow></math>`},
		{"html in mtext dropped", `<math><mtext><img src=x onerror=alert(1)>a</mtext></math>`, `<math><mtext>a</mtext></math>`},
		{"script", `<math><script>alert(1)</script><mi>x</mi></math>`, `<math><mi>x</mi></math>`},
		{"maction dropped", `<math><maction actiontype="statusline"><mi>x</mi><mtext>y</mtext></maction></math>`, `<math></math>`},
		{"nested math", `<math><mrow><math><mi>x</mi></math></mrow></math>`, `<math><mrow></mrow></math>`},
		{"length checked", `<math><mspace width="1em;background:url(x)"/><mspace width="0.5em"/></math>`, `<math><mspace></mspace><mspace width="0.5em"></mspace></math>`},
		{"notation words", `<math><menclose notation="updiagonalstrike box"><mi>x</mi></menclose></math>`, `<math><menclose notation="updiagonalstrike box"><mi>x</mi></menclose></math>`},
		{"align class", `<math><mtable><mtr><mtd class="tml-left" style="padding:0"><mi>x</mi></mtd></mtr></mtable></math>`, `<math><mtable><mtr><mtd columnalign="left"><mi>x</mi></mtd></mtr></mtable></math>`},
		{"align explicit wins", `<math><mtable><mtr><mtd columnalign="right" class="tml-left"><mi>x</mi></mtd></mtr></mtable></math>`, `<math><mtable><mtr><mtd columnalign="right"><mi>x</mi></mtd></mtr></mtable></math>`},
		{"text escaped", `<math><mtext>&lt;script&gt;&amp;"</mtext></math>`, `<math><mtext>&lt;script&gt;&amp;&#34;</mtext></math>`},
		{"prefix junk", `<p>hi</p><math><mi>x</mi></math><b>after</b>`, `<math><mi>x</mi></math>`},
		{"scripts", `<math><mmultiscripts><mi>X</mi><none/><mi>a</mi><mprescripts/><mi>b</mi><none/></mmultiscripts></math>`, `<math><mmultiscripts><mi>X</mi><none></none><mi>a</mi><mprescripts></mprescripts><mi>b</mi><none></none></mmultiscripts></math>`},
		{"comment", `<math><!-- x --><mi>x</mi></math>`, `<math><mi>x</mi></math>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Sanitize(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Sanitize(%q)\n got %s\nwant %s", tt.in, got, tt.want)
			}
		})
	}
}

// TestSanitizeKeepsColumnSpacing is issue 25's reproduction of the
// columns of aligned, cases and array: Temml spaces them with inline
// styles (padding-left and padding-right on each mtd), which Sanitize
// dropped with every style, so the cells took the reader's default
// padding (a gap before the = of aligned; the matrices' spacing lost).
// Temml's lengths become classes the math style sheet styles, and a
// hostile style or class leaves nothing.
func TestSanitizeKeepsColumnSpacing(t *testing.T) {
	cell := func(attrs string) string {
		if attrs != "" {
			attrs = " " + attrs
		}
		return `<math><mtable><mtr><mtd` + attrs + `><mi>x</mi></mtd></mtr></mtable></math>`
	}
	tests := []struct {
		name, in, want string
	}{
		{"aligned", cell(`class="tml-right" style="padding-left:0em;padding-right:0em;"`), cell(`columnalign="right" class="tml-pl-0 tml-pr-0"`)},
		{"array", cell(`style="padding-left:5.9776pt;padding-right:0pt;"`), cell(`class="tml-pl-array tml-pr-0"`)},
		{"cases second column", cell(`class="tml-left" style="padding-left:1em;padding-right:0em;"`), cell(`columnalign="left" class="tml-pl-quad tml-pr-0"`)},
		{"align spacer", cell(`style="padding:0;width:50%;padding-left:0em;padding-right:0em;"`), cell(`class="tml-pl-0 tml-pr-0"`)},
		{"spaces and case", cell(`style=" PADDING-LEFT : 0.25em ; padding-right:0.1389em"`), cell(`class="tml-pl-cd tml-pr-small"`)},
		{"last wins", cell(`style="padding-left:1em;padding-left:0em"`), cell(`class="tml-pl-0"`)},
		{"jot rows", `<math><mtable displaystyle="true" class="tml-jot"><mtr><mtd><mi>x</mi></mtd></mtr></mtable></math>`,
			`<math><mtable displaystyle="true" class="tml-jot"><mtr><mtd><mi>x</mi></mtd></mtr></mtable></math>`},
		{"idempotent", cell(`columnalign="left" class="tml-pl-quad tml-pr-0"`), cell(`columnalign="left" class="tml-pl-quad tml-pr-0"`)},
		{"length not Temml's", cell(`style="padding-left:3em;padding-right:2.9888pt"`), cell(``)},
		{"url", cell(`style="padding-left:url(javascript:alert(1))"`), cell(``)},
		{"expression", cell(`style="padding-left:expression(alert(1));padding-right:0em"`), cell(`class="tml-pr-0"`)},
		{"important", cell(`style="padding-left:0em !important"`), cell(``)},
		{"other properties", cell(`style="background:url(x);color:red;width:100%;border-right:0.06em solid;padding-left:0em"`), cell(`class="tml-pl-0"`)},
		{"escaped quote", cell(`style='padding-left:0em" onmouseover="alert(1)'`), cell(``)},
		{"comment", cell(`style="padding-left:/**/0em"`), cell(``)},
		{"unknown class", `<math><mtable class="tml-jot evil tml-pl-0"><mtr><mtd class="tml-jot x tml-pl-0"><mi class="tml-pl-0" style="padding-left:0em">x</mi></mtd></mtr></mtable></math>`,
			`<math><mtable class="tml-jot"><mtr><mtd class="tml-pl-0"><mi>x</mi></mtd></mtr></mtable></math>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Sanitize(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Sanitize(%q)\n got %s\nwant %s", tt.in, got, tt.want)
			}
			checkSafe(t, got)
			if strings.Contains(got, " style=") {
				t.Errorf("a style attribute survives: %s", got)
			}
		})
	}
}

func TestSanitizeNoMath(t *testing.T) {
	for _, in := range []string{"", "x", "<p>x</p>", "<svg><math></math></svg>"} {
		if _, err := Sanitize(in); !errors.Is(err, ErrNoMath) {
			t.Errorf("Sanitize(%q): err %v, want ErrNoMath", in, err)
		}
	}
}

// checkSafe fails t when out holds anything Sanitize must never let
// through: an element outside the list, an attribute outside the list,
// a second math element, or text that parses to markup.
func checkSafe(t *testing.T, out string) {
	t.Helper()
	if out == "" {
		return
	}
	if !strings.HasPrefix(out, "<math") || !strings.HasSuffix(out, "</math>") {
		t.Fatalf("not one math element: %q", out)
	}
	nodes, err := nethtml.ParseFragment(strings.NewReader(out), &nethtml.Node{Type: nethtml.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		t.Fatal(err)
	}
	maths := 0
	var walk func(n *nethtml.Node)
	walk = func(n *nethtml.Node) {
		if n.Type == nethtml.ElementNode {
			if n.Namespace != "math" || !elements[n.Data] {
				t.Fatalf("element %s:%s in %q", n.Namespace, n.Data, out)
			}
			if n.Data == "math" {
				maths++
			}
			for _, a := range n.Attr {
				if a.Namespace == "" && a.Key == "class" {
					for _, c := range strings.Fields(a.Val) {
						if !mathstyle.Styles(n.Data, c) || !strings.Contains(string(mathstyle.CSS("")), "."+c+" ") {
							t.Fatalf("class %q on %s, which math.css does not style, in %q", c, n.Data, out)
						}
					}
					continue
				}
				if ok := attributes[a.Key]; a.Namespace != "" || ok == nil || !ok(a.Val) {
					t.Fatalf("attribute %s:%s=%q in %q", a.Namespace, a.Key, a.Val, out)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	if maths != 1 {
		t.Fatalf("%d math elements in %q", maths, out)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		`<math><mi>x</mi></math>`,
		`<math display="block"><semantics><mfrac><mn>1</mn><mn>2</mn></mfrac><annotation encoding="application/x-tex">\frac12</annotation></semantics></math>`,
		`<math><mtext><img src=x onerror=alert(1)></mtext><svg><a xlink:href="javascript:x">y</a></svg></math>`,
		`<math><mtable><mtr><mtd class="tml-left" style="x">1</mtd></mtr></mtable></math>`,
		`<math><mtable class="tml-jot x"><mtr><mtd class="tml-pl-0" style="padding-left:0em;padding-right:5.9776pt;width:50%">1</mtd></mtr></mtable></math>`,
		`<math><annotation-xml encoding="text/html"><p>x</p></annotation-xml></math>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := Sanitize(s)
		if err != nil {
			return
		}
		checkSafe(t, out)
		// Sanitizing is idempotent: its output is already clean.
		again, err := Sanitize(out)
		if err != nil || again != out {
			t.Fatalf("Sanitize not idempotent:\n%q\n%q (%v)", out, again, err)
		}
	})
}

// TestTemmlPaddingsHaveClasses runs every environment of Temml that
// builds a table and checks that each padding-left and padding-right it
// writes on a cell has its class in the math style sheet
// (mathstyle.CellClass), so that no column's spacing is lost; a Temml
// that writes another length fails here, naming it.
func TestTemmlPaddingsHaveClasses(t *testing.T) {
	c := New(Options{})
	e, err := c.engine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { c.idle <- e }()
	decl := regexp.MustCompile(`(padding-(?:left|right)):([^;"]*)`)
	seen := map[string]bool{}
	for _, tex := range []string{
		`\begin{aligned}a&=b\\c&=d\end{aligned}`, `\begin{alignedat}{2}a&=b&c&=d\end{alignedat}`,
		`\begin{align}a&=b\\c&=d\end{align}`, `\begin{align*}a&=b&c&=d\end{align*}`, `\begin{alignat}{2}a&=b&c&=d\end{alignat}`,
		`\begin{gather}a\\b\end{gather}`, `\begin{gathered}a\\b\end{gathered}`, `\begin{multline}a\\b\end{multline}`,
		`\begin{split}a&=b\\c&=d\end{split}`, `\begin{equation}a\end{equation}`,
		`\begin{cases}a&b\\c&d\end{cases}`, `\begin{dcases}a&b\end{dcases}`, `\begin{rcases}a&b\end{rcases}`,
		`\begin{array}{lcr|c:c}a&b&c&d&e\\\hline 1&2&3&4&5\end{array}`, `\begin{darray}{cc}a&b\end{darray}`,
		`\begin{matrix}a&b\\c&d\end{matrix}`, `\begin{pmatrix}a&b\end{pmatrix}`, `\begin{bmatrix*}[r]a&b\end{bmatrix*}`,
		`\begin{vmatrix}a&b\end{vmatrix}`, `\begin{Vmatrix}a&b\end{Vmatrix}`, `\begin{Bmatrix}a&b\end{Bmatrix}`,
		`\begin{smallmatrix}a&b\\c&d\end{smallmatrix}`, `\begin{subarray}{c}a\\b\end{subarray}`, `\sum_{\substack{a\\b}}`,
		`\begin{CD}A @>>> B @<<< C\end{CD}`,
	} {
		raw, err := e.render(context.Background(), tex, true)
		if err != nil {
			t.Errorf("%s: %v", tex, err)
			continue
		}
		for _, m := range decl.FindAllStringSubmatch(raw, -1) {
			if _, ok := mathstyle.CellClass(m[1], m[2]); !ok && !seen[m[0]] {
				t.Errorf("%s writes %s, which has no class in math.css (mathstyle.CellClass)", tex, m[0])
			}
			seen[m[0]] = true
		}
	}
	if len(seen) < 4 {
		t.Errorf("only %d distinct paddings seen: %v", len(seen), seen)
	}
}
