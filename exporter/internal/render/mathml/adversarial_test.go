package mathml

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// rep is s written n times.
func rep(s string, n int) string { return strings.Repeat(s, n) }

// nest is open written n times, then inner, then close n times.
func nest(open, close string, n int, inner string) string {
	return rep(open, n) + inner + rep(close, n)
}

// bomb is a macro bomb: \d expands to 800 copies of body, in 889
// expansions, under maxExpand (\b×10 is the body of \b written 10 times).
func bomb(body, use string) string {
	return `\def\a{` + body + `}\def\b{` + rep(`\a`, 10) + `}\def\c{` + rep(`\b`, 10) + `}\def\d{` + rep(`\c`, 8) + `}` + use
}

// Outcomes of an adversarial expression.
const (
	overBudget = iota // a *BudgetError
	converts          // MathML
	refused           // a *ParseError
)

// adversarial are expressions under DefaultMaxInput that cost Temml far
// more than their size: the reproductions of issue 23 (each took from 9 s
// to over 60 s and up to GBs before the budget) and their kin. See
// docs/BENCHMARKS.md for what each costs.
var adversarial = []struct {
	name string
	tex  string
	want int
}{
	// Issue 23's reproductions.
	// 390 bytes: 800 copies of 300 letters, 240,000 tokens.
	{"macro bomb", bomb(rep("x", 300), `\d`), overBudget},
	// 800 rows of 60 cells in an array.
	{"array expansion", bomb(rep("x&", 59)+`x\\`, `\begin{array}{`+rep("c", 60)+`}\d\end{array}`), overBudget},
	// 800 copies of a nest of \frac 280 deep.
	{"frac expansion", bomb(nest(`\frac{`, `}{x}`, 280, "x"), `\d`), overBudget},
	// A plain nest of \frac, 4 KB, no macro: Temml reads each argument
	// twice, so the nest costs the square of its depth.
	{"frac nest 4KB", nest(`\frac{`, `}{x}`, 400, "x"), overBudget},
	// 120 bytes: a macro that doubles its argument into a \frac, nine
	// deep, around a small nest of \frac.
	{"frac nest 120B", `\def\f#1{\frac{#1}{#1}}` + nest(`\f{`, `}`, 9, nest(`\frac{`, `}{x}`, 6, "x")), overBudget},

	// Their kin.
	{"digits", bomb(rep("1", 300), `\d`), overBudget},
	{"text bomb", bomb(`\text{`+rep("x", 300)+`}`, `\d`), overBudget},
	{"rows", bomb(rep(`x\\`, 10), `\begin{matrix}\d\end{matrix}`), overBudget},
	// 100 bytes, 9,000 letters: under the token budget, over the
	// elements' (Temml wrote them in 4 s, appending each to a string).
	{"letters 100B", `\def\a{xxxxxxxxxx}\def\b{` + rep(`\a`, 10) + `}\def\c{` + rep(`\b`, 10) + `}\def\d{` + rep(`\c`, 9) + `}\d`, overBudget},
	{"argument x10", `\def\a#1{` + rep("#1", 10) + `}\a{\a{\a{` + nest(`\frac{`, `}{x}`, 4, "x") + `}}}`, overBudget},
	// 4,000 letters inside 400 square roots: each root copies them once
	// more when its markup is written.
	{"deep and wide", nest(`\sqrt{`, `}`, 400, `\def\a{xxxxxxxxxx}\def\b{`+rep(`\a`, 10)+`}\def\c{`+rep(`\b`, 10)+`}\def\d{`+rep(`\c`, 4)+`}\d`), overBudget},
	{"frac doubling", `\def\f#1{\frac{#1}{#1}}` + nest(`\f{`, `}`, 9, "x"), converts},
	{"argument x2", `\def\a#1{#1#1}` + nest(`\a{`, `}`, 9, "x"), converts},
	// Converts, but nests deeper than HTML parsers go.
	{"sqrt nest 4KB", nest(`\sqrt{`, `}`, 580, "x"), refused},
	{"left nest 4KB", nest(`\left(`, `\right)`, 290, "x"), converts},
	{"frac nest 120B plain", nest(`\frac{`, `}{x}`, 12, "x"), converts},
	{"sup nest 4KB", nest(`x^{`, `}`, 1000, "x"), refused},

	// Chemistry (mhchem): its parser and writer work outside Temml's
	// macro expander, on strings (see mhchemPatches). A nest of units
	// took minutes before its work was counted, the others seconds.
	{"pu nest 4KB", `\pu{` + rep("kJ/", 1360) + `}`, overBudget},
	{"ce bonds 4KB", `\ce{` + rep("a-", 2040) + `}`, overBudget},
	{"ce sum 4KB", `\ce{` + rep("H2O + ", 680) + `}`, overBudget},
	{"ce nest", nest(`\ce{`, `}`, 400, "x"), overBudget},
	{"pu numbers 4KB", `\pu{` + rep("1 ", 2040) + `}`, overBudget},
}

// TestAdversarial converts each adversarial expression: it converts, or
// fails alone with the error that names what was wrong, and the
// interpreter goes on converting. Nothing is timed: the budget counts
// work, so the outcome is the same on every machine.
func TestAdversarial(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: each expression runs Temml to its budget (make test runs it)")
	}
	c := New(Options{Runtimes: 1, CacheBytes: -1})
	ctx := context.Background()
	for _, a := range adversarial {
		t.Run(a.name, func(t *testing.T) {
			if len(a.tex) > DefaultMaxInput {
				t.Fatalf("%d bytes, over the input cap", len(a.tex))
			}
			out, err := c.Convert(ctx, a.tex, true)
			var be *BudgetError
			var pe *ParseError
			switch {
			case a.want == overBudget && errors.As(err, &be):
				if !strings.HasPrefix(be.Error(), "mathml: formula too large: more than ") || !IsExpressionError(err) {
					t.Errorf("error %q", err)
				}
			case a.want == converts && err == nil:
				checkSafe(t, out)
			case a.want == refused && errors.As(err, &pe):
			default:
				t.Fatalf("Convert(%.60q…) = %.60q…, %v; want outcome %d", a.tex, out, err, a.want)
			}
			// The interpreter is whole after an expression over budget.
			if got, err := c.Convert(ctx, `x^2`, false); err != nil || !strings.Contains(got, `<msup>`) {
				t.Fatalf("next conversion: %q, %v", got, err)
			}
		})
	}
}

// BenchmarkAdversarial measures each adversarial expression, converted
// afresh (no cache) on a warm interpreter: CPU time per conversion (ns/op
// on one core), bytes allocated, and the peak of the heap in use (heap-MB,
// read from the runtime after each conversion: an upper bound's floor,
// since the collector may run between). Figures in docs/BENCHMARKS.md.
func BenchmarkAdversarial(b *testing.B) {
	for _, a := range adversarial {
		b.Run(strings.ReplaceAll(a.name, " ", "_"), func(b *testing.B) {
			c := New(Options{Runtimes: 1, CacheBytes: -1})
			ctx := context.Background()
			if _, err := c.Convert(ctx, "x", false); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var peak uint64
			var ms runtime.MemStats
			for b.Loop() {
				_, _ = c.Convert(ctx, a.tex, true)
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
			b.ReportMetric(float64(peak)/(1<<20), "heap-MB")
		})
	}
}
