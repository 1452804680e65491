package content

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestMath(t *testing.T) {
	r := New()
	tests := []struct {
		name, src string
		want      []string // in order
		not       []string
		errors    int
	}{
		{"inline dollar", "Solve $2x+3=7$ now.", []string{`<p>Solve <math><semantics><mrow><mn>2</mn><mi>x</mi>`, `</math> now.</p>`}, nil, 0},
		{"prose dollars", "It costs $5 and $10.", []string{`<p>It costs $5 and $10.</p>`}, []string{"<math"}, 0},
		{"escaped dollar", `Pay \$5 for $x$.`, []string{`Pay $5 for <math>`}, nil, 0},
		{"paren", `Here \(a_1 * b_2\) stays.`, []string{`Here <math>`, `<msub><mi>a</mi><mn>1</mn></msub>`, `a_1 * b_2</annotation>`}, []string{"<em>"}, 0},
		{"escaped paren", `\\(x\\)`, []string{`<p>\(x\)</p>`}, []string{"<math"}, 0},
		{"bracket inline", `so \[x^2\] here`, []string{`so <math display="block">`}, nil, 0},
		{"display block", "Before\n\n$$\n\\frac{a}{b}\n$$\n\nAfter", []string{`<p>Before</p>`, `<div class="math-display" tabindex="0"><math display="block">`, `<mfrac>`, "</math></div>\n<p>After</p>"}, nil, 0},
		{"display interrupts paragraph", "The formula\n$$\nx=1\n$$\nafter", []string{`<p>The formula</p>`, `<div class="math-display" tabindex="0">`, `<p>after</p>`}, nil, 0},
		{"one-line block", "$$x^2$$", []string{`<div class="math-display" tabindex="0"><math display="block">`}, []string{"<p>"}, 0},
		{"bracket block", "\\[\n\\begin{cases} x+y=3 \\\\ x-y=1 \\end{cases}\n\\]", []string{`<div class="math-display" tabindex="0">`, `<mtable>`}, nil, 0},
		{"math fence", "```math\n\\sqrt{2}\n```", []string{`<div class="math-display" tabindex="0"><math display="block"><semantics><msqrt>`}, []string{"<pre"}, 0},
		{"code span", "Use `$x$` literally", []string{`<code>$x$</code>`}, []string{"<math"}, 0},
		{"code fence", "```\n$x$\n```", []string{`<pre tabindex="0"><code>$x$`}, []string{"<math"}, 0},
		{"unclosed double", "$$5 off and $3$", []string{`$$5 off and <math>`}, nil, 0},
		{"in list", "- item $x$\n- $$\n  y\n  $$", []string{`<li>item <math>`, `<li>` + "\n" + `<div class="math-display" tabindex="0"><math display="block"><semantics><mi>y</mi><annotation encoding="application/x-tex">y</annotation>`}, nil, 0},
		{"error inline", `Bad $\frac{1}{$ here`, []string{`Bad <code class="math-error" title="mathml: Unexpected end of input in a macro argument, expected &#39;}&#39;"><span class="math-error-mark">⚠ TeX</span> $\frac{1}{$</code> here`}, []string{"<math"}, 1},
		{"error block", "$$\n\\foo<b>\n$$", []string{`<pre class="math-error" title="mathml: Unsupported function name: \foo"><code><span class="math-error-mark">⚠ TeX</span> $$` + "\n" + `\foo&lt;b&gt;` + "\n" + `$$</code></pre>`}, []string{"<math", "<b>"}, 1},
		{"errors counted", `$\foo$ and $\bar$ and $x$`, []string{`math-error`}, nil, 2},
		{"untrusted", `$\href{javascript:alert(1)}{x}$`, []string{`class="math-error"`}, []string{"<a ", "href="}, 1},
		{"text escaped", `$\text{<script>}$`, []string{`<mtext>&lt;script&gt;</mtext>`}, nil, 0},
		{"emphasis kept", `*a* $b_1$ *c*`, []string{`<em>a</em> <math>`, `</math> <em>c</em>`}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tally Tally
			got, err := r.Tallied(&tally).Markdown(tt.src, "m-")
			if err != nil {
				t.Fatal(err)
			}
			s := string(got)
			checkHTML(t, s)
			rest := s
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("Markdown(%q) =\n%s\nmissing (in order) %s", tt.src, s, w)
				}
				rest = rest[i+len(w):]
			}
			for _, n := range tt.not {
				if strings.Contains(s, n) {
					t.Errorf("Markdown(%q) =\n%s\nholds %s", tt.src, s, n)
				}
			}
			if tally.MathErrors() != tt.errors {
				t.Errorf("%d math errors counted, want %d", tally.MathErrors(), tt.errors)
			}
		})
	}
}

// TestMathTallyPerCall checks that a Tally counts only the calls it is
// given to, including a node's every attribute.
func TestMathTallyPerCall(t *testing.T) {
	r := New()
	var a, b Tally
	members := map[string]json.RawMessage{
		"description":         json.RawMessage(`"Bad $\\foo$"`),
		"learning_objectives": json.RawMessage(`["Solve $\\bar$", "ok $x$"]`),
		"notes":               json.RawMessage(`"$$\n\\baz\n$$"`),
	}
	if _, err := r.Tallied(&a).Node(members, "T", nil, "n-"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Node(members, "T", nil, "n-"); err != nil {
		t.Fatal(err)
	}
	if a.MathErrors() != 3 || b.MathErrors() != 0 {
		t.Errorf("tallies %d and %d, want 3 and 0", a.MathErrors(), b.MathErrors())
	}
}

// TestMathDefuse checks that defuse's rewriting of long lines leaves
// math that is within its limits alone.
func TestMathDefuse(t *testing.T) {
	for _, src := range []string{
		"$[a](b) + c$",
		"$$\n[0, 1] \\times [2, 3]\n$$",
		"\\[\n- x\n\\]",
		"> $x$ and \\(y\\)",
	} {
		if got := defuse(src); got != src {
			t.Errorf("defuse(%q) = %q", src, got)
		}
	}
}

func FuzzMath(f *testing.F) {
	for _, s := range []string{
		"$x$ and $5 and $10", "$$\n\\frac12\n$$", "\\[x\\] \\(y\\)", "```math\n\\sqrt2\n```",
		"`$x$` \\$y$", "$\\href{javascript:x}{y}$", "$\\text{<b>}$", "- $$\n  a\n  $$\n> $b$",
		"$\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}$", "$\\def\\a{\\a}\\a$", "$$5 off $3$",
		"```MATH\n\\foo\n```", "~~~~ M-a.t_h!\n\\foo\n~~~~", "![a](https://x.example/a.png) ![b][r]\n\n[r]: https://x.example/b.png", "````math\r\\foo\r````", "> ```math\n> x\n> ```",
	} {
		f.Add(s)
	}
	r := New()
	onPanic = func(v any) { panic(v) }
	f.Fuzz(func(t *testing.T, src string) {
		var tally Tally
		got, err := r.Tallied(&tally).Markdown(src, "f-")
		if err != nil {
			t.Fatal(err)
		}
		checkHTML(t, string(got))
		if n := strings.Count(string(got), `class="math-error"`); n != tally.MathErrors() {
			t.Fatalf("%d errors shown, %d counted", n, tally.MathErrors())
		}
		raw, _ := json.Marshal(src)
		n, err := r.MathErrors(context.Background(), map[string]json.RawMessage{"description": raw}, "")
		if err != nil || n != tally.MathErrors() {
			t.Fatalf("MathErrors = %d, %v; rendering counted %d", n, err, tally.MathErrors())
		}
		// The cheap tests never say no to what the page shows: math, an image.
		if members := map[string]json.RawMessage{"description": raw}; len(r.imageURLs(members, "")) > 0 && !mayHoldImages(members) {
			t.Fatalf("the page holds images %q, mayHoldImages says none", r.imageURLs(members, ""))
		}
		if shown := strings.Contains(string(got), "<math") || tally.MathErrors() > 0; shown &&
			(!MayHaveMath(src) || !AttributesMayHaveMath(map[string]json.RawMessage{"description": raw})) {
			t.Fatalf("the page shows math, MayHaveMath = %v, AttributesMayHaveMath = %v", MayHaveMath(src),
				AttributesMayHaveMath(map[string]json.RawMessage{"description": raw}))
		}
	})
}

// members returns the attributes of a node with one member, key, the
// string s.
func members(key, s string) map[string]json.RawMessage {
	raw, _ := json.Marshal(s)
	return map[string]json.RawMessage{key: raw}
}

// TestMathErrorsAsShown checks that MathErrors, which converts without
// rendering, counts the expressions a node's page shows as errors: the
// Tally of rendering it, and the marks on the page.
func TestMathErrorsAsShown(t *testing.T) {
	r := New()
	for _, tt := range []struct {
		name    string
		members map[string]json.RawMessage
		want    int
	}{
		{"none", members("description", `$x$ and $$y$$`), 0},
		{"inline, block and fence", members("description", "Bad $\\foo$\n\n$$\n\\bar\n$$\n\n```math\n\\baz\n```"), 3},
		{"in an image's text: not math", members("description", `![$\foo$](x.png) and [$\bar$](https://e.org)`), 1},
		{"in a heading, a table, a footnote", members("notes", "## $\\foo$\n\n| a |\n|---|\n| $\\bar$ |\n\nx[^1]\n\n[^1]: $\\baz$"), 3},
		{"objectives and records", map[string]json.RawMessage{
			"learning_objectives": json.RawMessage(`["Solve $\\foo$", "ok $x$"]`),
			"vocabulary":          json.RawMessage(`[{"term":"$\\bar$","definition":"$y$"}]`),
			"steps":               json.RawMessage(`{"first":"$\\baz$"}`),
		}, 3},
		{"a code span and a code block", members("description", "`$\\foo$`\n\n```\n$\\bar$\n```"), 0},
		{"the title, shown once", map[string]json.RawMessage{"title": json.RawMessage(`"T"`), "summary": json.RawMessage(`"$\\foo$"`)}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var tally Tally
			page, err := r.Tallied(&tally).Node(tt.members, "T", nil, "n-")
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.MathErrors(context.Background(), tt.members, "T")
			if err != nil {
				t.Fatal(err)
			}
			shown := strings.Count(string(page), `class="math-error"`)
			if got != tt.want || tally.MathErrors() != tt.want || shown != tt.want {
				t.Errorf("MathErrors %d, rendering counted %d and showed %d, want %d\n%s", got, tally.MathErrors(), shown, tt.want, page)
			}
		})
	}
}

// TestMayHaveMath: which text the cheap tests let through to the parse
// that counts math, as text and as a node's members.
func TestMayHaveMath(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"Solve $x$", true},
		{`\(x\) and \[y\]`, true},
		{"```math\nx\n```", true},
		{"```MATH\nx\n```", true},
		{"~~~~ Math!\nx\n~~~~", true},
		{"````math\rx\r````", true},
		{"> ```math\n> x\n> ```", true},
		{"Mathematics, a math course", false},
		{"```python\nprint(1)\n```", false},
		{"```ma th\nx\n```", false},
		{"plain text", false},
	} {
		raw, _ := json.Marshal(tt.text)
		if got := MayHaveMath(tt.text); got != tt.want {
			t.Errorf("MayHaveMath(%q) = %v, want %v", tt.text, got, tt.want)
		}
		if got := AttributesMayHaveMath(map[string]json.RawMessage{"body": raw}); got != tt.want {
			t.Errorf("AttributesMayHaveMath(%s) = %v, want %v", raw, got, tt.want)
		}
	}
	for _, raw := range []string{`"\u0024x\u0024"`, `["a", {"k": "~~~math\nx\n~~~"}]`, `{"a": 1, "b": ["$"]}`} {
		if !AttributesMayHaveMath(map[string]json.RawMessage{"body": json.RawMessage(raw)}) {
			t.Errorf("AttributesMayHaveMath(%s) = false", raw)
		}
	}
}
