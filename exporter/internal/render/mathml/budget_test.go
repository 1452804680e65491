package mathml

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// TestBudgetPatches checks that every patch of the budget finds its
// string in the vendored Temml exactly once, and that patchTemml names a
// patch that does not (as after re-vendoring a Temml whose source moved).
func TestBudgetPatches(t *testing.T) {
	for i, p := range budgetPatches {
		if n := strings.Count(temmlJS, p.old); n != 1 {
			t.Errorf("patch %d: %q occurs %d times in temml.min.js %s, want once", i, p.old, n, TemmlVersion)
		}
	}
	for i, p := range mhchemPatches {
		if n := strings.Count(mhchemJS, p.old); n != 1 {
			t.Errorf("mhchem patch %d: %q occurs %d times in mhchem.min.js %s, want once", i, p.old, n, TemmlVersion)
		}
	}
	tests := []struct {
		name, src, want string
	}{
		{"applied", "a(){x}b(){y}", ""},
		{"missing", "a(){z}b(){y}", `"a(){x}" occurs 0 times`},
		{"twice", "a(){x}a(){x}b(){y}", `"a(){x}" occurs 2 times`},
	}
	patches := []patch{{old: "a(){x}", new: "a(){X}"}, {old: "b(){y}", new: "b(){Y}"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := patchTemml(tt.src, patches)
			if tt.want == "" {
				if err != nil || got != "a(){X}b(){Y}" {
					t.Fatalf("patchTemml = %q, %v", got, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want it to hold %s", err, tt.want)
			}
		})
	}
}

// TestBudgetKeepsOutput checks that the patched Temml and mhchem write
// what the vendored ones write, byte for byte, for expressions under
// budget: what curex converts is Temml's own output.
func TestBudgetKeepsOutput(t *testing.T) {
	plain := goja.New()
	for _, src := range []string{temmlJS, mhchemJS} {
		if _, err := plain.RunString(src); err != nil {
			t.Fatal(err)
		}
	}
	v, err := plain.RunString(fmt.Sprintf(renderJS, maxExpand))
	if err != nil {
		t.Fatal(err)
	}
	fn, _ := goja.AssertFunction(v)
	c := New(Options{Runtimes: 1, CacheBytes: -1})
	e, err := c.engine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tex := range []string{
		quadratic, `x^2`, `\sqrt[3]{8}`, `\begin{cases} x+y=3 \\ x-y=1 \end{cases}`,
		`\begin{pmatrix}1&2\\3&4\end{pmatrix}`, `a<b`, `\text{a \& b}`, `\operatorname{sgn} x`,
		`\def\f#1{\frac{#1}{#1}}` + nest(`\f{`, `}`, 5, "x"),
		`\begin{aligned}` + rep(`f(x)&=\int_0^\infty e^{-x^2}\,dx+\sum_{n=1}^{N}\frac{1}{n^2}\\`, 40) + `\end{aligned}`,
		nest(`\frac{1}{1+`, `}`, 40, "x"), rep(quadratic+"+", 100),
		`\ce{H2O}`, `\ce{2H2 + O2 -> 2H2O}`, `\pu{123 kJ/mol}`, `\pu{1.2e-3 mol L^-1 s^-1}`,
		`\ce{[Cu(NH3)4]^2+ + 4H2O <=> [Cu(H2O)4]^2+ + 4NH3}`, `\ce{CH3-CH2-OH ->[H2SO4][\Delta] CH2=CH2 + H2O}`,
		`\ce{^{227}_{90}Th+}`, `\ce{KCr(SO4)2*12H2O}`, `\ce{Hg^2+ ->[I-] HgI2 ->[I-] [Hg^{II}I4]^2-}`,
		`\ce{` + rep("H2O + ", 60) + `H2O}`, `\pu{` + rep("kJ/", 30) + `mol}`,
	} {
		// renderJS resets the counters, which the plain Temml never reads.
		want, err := fn(goja.Undefined(), plain.ToValue(tex), plain.ToValue(true))
		if err != nil {
			t.Fatalf("%.40q: plain: %v", tex, err)
		}
		got, err := e.render(context.Background(), tex, true)
		if err != nil {
			t.Fatalf("%.40q: %v", tex, err)
		}
		if got != want.String() {
			t.Errorf("%.40q: patched Temml writes\n%s\nplain Temml\n%s", tex, got, want)
		}
	}
}

// TestConvertCancelMidFormula cancels the run's context while Temml is
// converting an expression: the conversion stops with ctx's error (the
// run's, not cached, not the expression's), and the interpreter converts
// again. The cancel comes from inside the conversion, from the hook the
// budget calls once past its bound (here set low), so nothing is timed;
// the real bound is set out of reach, so only ctx can stop the bomb.
func TestConvertCancelMidFormula(t *testing.T) {
	c := New(Options{Runtimes: 1})
	ctx, cancel := context.WithCancel(context.Background())
	e, err := c.engine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for name, v := range map[string]any{
		jsMaxSteps: 1000,
		jsOver:     func(int64) { calls++; cancel() },
	} {
		if err := e.vm.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	c.idle <- e
	tex := adversarial[0].tex // the macro bomb
	_, err = c.Convert(ctx, tex, true)
	if !errors.Is(err, context.Canceled) || IsExpressionError(err) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if calls == 0 {
		t.Fatal("the conversion never reached the hook")
	}
	if _, ok := c.cache.get(key{tex: tex, display: true}); ok {
		t.Error("an interrupted conversion was cached")
	}
	if got, err := c.Convert(context.Background(), `x^2`, false); err != nil || !strings.Contains(got, `<msup>`) {
		t.Fatalf("next conversion: %q, %v", got, err)
	}
}

// TestBudgetErrorCached checks that an expression over budget is an
// expression's error: cached, so the formats that show it after the first
// cost nothing, and the same each time.
func TestBudgetErrorCached(t *testing.T) {
	c := New(Options{Runtimes: 1})
	tex := adversarial[0].tex
	_, err1 := c.Convert(context.Background(), tex, true)
	var be *BudgetError
	if !errors.As(err1, &be) || be.Limit != maxTokenSteps {
		t.Fatalf("err %v, want a BudgetError of token steps", err1)
	}
	if _, ok := c.cache.get(key{tex: tex, display: true}); !ok {
		t.Error("not cached")
	}
	if _, err2 := c.Convert(context.Background(), tex, true); err2 == nil || err2.Error() != err1.Error() {
		t.Errorf("second: %v, first: %v", err2, err1)
	}
}
