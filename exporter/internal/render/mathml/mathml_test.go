package mathml

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

func TestConvert(t *testing.T) {
	c := New(Options{})
	tests := []struct {
		name    string
		tex     string
		display bool
		want    []string // substrings of the output, in order
	}{
		{"inline", `x^2`, false, []string{`<math><semantics><msup><mi>x</mi><mn>2</mn></msup><annotation encoding="application/x-tex">x^2</annotation></semantics></math>`}},
		{"display", `\frac{a}{b}`, true, []string{`<math display="block">`, `<mfrac><mi>a</mi><mi>b</mi></mfrac>`}},
		{"quadratic", `x = \frac{-b \pm \sqrt{b^2-4ac}}{2a}`, true, []string{`<mo>±</mo>`, `<msqrt>`}},
		{"root", `\sqrt[3]{8}`, false, []string{`<mroot><mn>8</mn><mn>3</mn></mroot>`}},
		{"cases aligned left", `\begin{cases} x+y=3 \\ x-y=1 \end{cases}`, true, []string{`<mtable>`, `<mtd columnalign="left" class="tml-pl-0 tml-pr-0">`}},
		{"matrix", `\begin{pmatrix}1&2\\3&4\end{pmatrix}`, true, []string{`<mo fence="true" form="prefix" stretchy="true">(</mo><mtable>`}},
		{"escaped annotation", `a<b`, false, []string{`<mi>a</mi><mo>&lt;</mo><mi>b</mi>`, `a&lt;b</annotation>`}},
		{"color dropped", `\color{red}{x}`, false, []string{`<mi>x</mi>`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.Convert(context.Background(), tt.tex, tt.display)
			if err != nil {
				t.Fatal(err)
			}
			rest := got
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("Convert(%q) = %s\nmissing %s", tt.tex, got, w)
				}
				rest = rest[i+len(w):]
			}
			for _, bad := range []string{" style=", "href"} {
				if strings.Contains(got, bad) {
					t.Errorf("Convert(%q) = %s: holds %s", tt.tex, got, bad)
				}
			}
			checkSafe(t, got)
		})
	}
}

// TestChemistry is issue 25's reproduction of chemistry: \ce and \pu
// (mhchem) were "Unsupported function name: \ce". They convert now, as
// Temml with its mhchem extension writes them (TestBudgetKeepsOutput
// checks the bytes against the unpatched Temml and mhchem).
func TestChemistry(t *testing.T) {
	c := New(Options{})
	tests := []struct {
		name, tex string
		want      []string // substrings of the output, in order
	}{
		{"water", `\ce{H2O}`, []string{`<mi mathvariant="normal">H</mi>`, `<msub><mrow></mrow><mn>2</mn></msub>`, `<mi mathvariant="normal">O</mi>`}},
		{"reaction", `\ce{2H2 + O2 -> 2H2O}`, []string{`<mn>2</mn>`, `<mo>+</mo>`, `<mo stretchy="true" lspace="0" rspace="0">→</mo>`, `<mn>2</mn>`}},
		{"unit", `\pu{123 kJ/mol}`, []string{`<mn>123</mn>`, `<mi>kJ</mi>`, `<mi>/</mi>`, `<mi>mol</mi>`}},
		{"in a formula", `\Delta H = \pu{-286 kJ/mol} \text{ for } \ce{H2 + 1/2 O2 -> H2O}`, []string{`Δ</mi>`, `<mn>286</mn>`, `<mi>kJ</mi>`, `<mfrac><mn>1</mn><mn>2</mn></mfrac>`, `→`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.Convert(context.Background(), tt.tex, false)
			if err != nil {
				t.Fatalf("Convert(%q): %v", tt.tex, err)
			}
			rest := got
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("Convert(%q) = %s\nmissing %s", tt.tex, got, w)
				}
				rest = rest[i+len(w):]
			}
			checkSafe(t, got)
		})
	}
}

func TestConvertErrors(t *testing.T) {
	c := New(Options{MaxInput: 64})
	tests := []struct {
		name, tex, msg string
	}{
		{"unclosed", `\frac{1}{`, "Unexpected end of input"},
		{"unknown", `\foo x`, `Unsupported function name: \foo`},
		{"href untrusted", `\href{javascript:alert(1)}{x}`, `\href`},
		{"style untrusted", `\style{color:red}{x}`, `not trusted`},
		{"macro loop", `\def\a{\a}\a`, "Too many expansions"},
		{"nesting", strings.Repeat("{", 30) + strings.Repeat("}", 30), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := c.Convert(context.Background(), tt.tex, false)
			if tt.msg == "" {
				if err != nil {
					t.Fatalf("Convert(%q): %v", tt.tex, err)
				}
				checkSafe(t, out)
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Convert(%q) = %q, %v; want a ParseError", tt.tex, out, err)
			}
			if !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("message %q, want it to hold %q", pe.Msg, tt.msg)
			}
			if strings.Contains(pe.Msg, "temml.min.js") || strings.Contains(pe.Msg, "\u0332") {
				t.Errorf("message %q holds JavaScript positions or Temml's excerpt", pe.Msg)
			}
		})
	}
	if _, err := c.Convert(context.Background(), strings.Repeat("x", 65), false); !errors.Is(err, ErrTooLong) {
		t.Errorf("65 bytes: err %v, want ErrTooLong", err)
	}
}

// TestConvertDeepNesting checks that nesting within MaxInput is a parse
// error, a budget error or a conversion, never a crash of the
// interpreter's stack.
func TestConvertDeepNesting(t *testing.T) {
	c := New(Options{})
	for _, tex := range []string{
		strings.Repeat("{", 2000) + strings.Repeat("}", 2000),
		strings.Repeat(`\sqrt{`, 580) + "x" + strings.Repeat("}", 580),
		strings.Repeat(`\frac{1}{`, 400) + "x" + strings.Repeat("}", 400),
	} {
		out, err := c.Convert(context.Background(), tex, true)
		if err != nil && !IsExpressionError(err) {
			t.Fatalf("%.20s…: %v", tex, err)
		}
		if err == nil {
			checkSafe(t, out)
		}
	}
}

func TestConvertCancelled(t *testing.T) {
	c := New(Options{CacheBytes: -1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Convert(ctx, `x`, false)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	// The interpreter is usable again after the interrupt.
	if _, err := c.Convert(context.Background(), `x`, false); err != nil {
		t.Fatal(err)
	}
}

func TestConvertConcurrent(t *testing.T) {
	c := New(Options{Runtimes: 2, CacheBytes: 8 * (entryOverhead + 400)})
	texs := []string{`x`, `y^2`, `\frac12`, `\sqrt{2}`, `a+b`, `\alpha`, `\beta`, `e^{i\pi}`, `\sum_i i`, `\int_0^1 x\,dx`}
	want := map[string]string{}
	for _, tex := range texs {
		out, err := New(Options{}).Convert(context.Background(), tex, false)
		if err != nil {
			t.Fatal(err)
		}
		want[tex] = out
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				tex := texs[(g+i)%len(texs)]
				out, err := c.Convert(context.Background(), tex, false)
				if err != nil {
					t.Error(err)
					return
				}
				if out != want[tex] {
					t.Errorf("%s: %s, want %s", tex, out, want[tex])
				}
			}
		})
	}
	wg.Wait()
	if c.made > 2 {
		t.Errorf("%d interpreters made, at most 2", c.made)
	}
}

func TestCacheBound(t *testing.T) {
	c := newCache(2 * cacheSize(key{tex: "a"}, result{out: "A"}))
	c.put(key{tex: "a"}, result{out: "A"})
	c.put(key{tex: "b"}, result{out: "B"})
	if _, ok := c.get(key{tex: "a"}); !ok { // a is now the most recent
		t.Fatal("a evicted early")
	}
	c.put(key{tex: "c"}, result{out: "C"})
	if _, ok := c.get(key{tex: "b"}); ok {
		t.Error("b kept past the bound")
	}
	for _, k := range []string{"a", "c"} {
		if _, ok := c.get(key{tex: k}); !ok {
			t.Errorf("%s evicted", k)
		}
	}
	if _, ok := c.get(key{tex: "a", display: true}); ok {
		t.Error("display shares the inline entry")
	}
	// An entry larger than the bound is not kept, and evicts nothing.
	c.put(key{tex: "big"}, result{out: strings.Repeat("x", c.max)})
	if _, ok := c.get(key{tex: "big"}); ok {
		t.Error("an entry over the bound kept")
	}
	// Replacing an entry counts its new size: a larger C evicts a.
	c.put(key{tex: "c"}, result{out: "C" + strings.Repeat("x", entryOverhead-1)})
	if _, ok := c.get(key{tex: "a"}); ok {
		t.Error("a kept past the bound once c grew")
	}
	if c.size > c.max {
		t.Errorf("size %d over the bound %d", c.size, c.max)
	}
}

func FuzzConvert(f *testing.F) {
	for _, s := range []string{`x^2`, `\frac{1}{2}`, `\begin{pmatrix}1&2\\3&4\end{pmatrix}`, `\href{x}{y}`, `\def\a{\a}\a`, `\text{<b>x</b>}`, `\operatorname{<svg>}`, `\ce{2H2 + O2 -> 2H2O}`, `\pu{123 kJ/mol}`, `\ce{A ->[\text{x}] B}`} {
		f.Add(s, false)
	}
	c := New(Options{CacheBytes: -1})
	f.Fuzz(func(t *testing.T, tex string, display bool) {
		out, err := c.Convert(context.Background(), tex, display)
		switch {
		case err == nil:
			checkSafe(t, out)
		case IsExpressionError(err):
		default:
			t.Fatalf("Convert(%q): %v", tex, err)
		}
	})
}
