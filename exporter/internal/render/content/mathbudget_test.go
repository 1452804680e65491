package content

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/mathml"
)

// bomb is issue 23's macro bomb: 390 bytes, under maxExpand, 240,000
// tokens once expanded.
var bomb = `\def\a{` + strings.Repeat("x", 300) + `}\def\b{` + strings.Repeat(`\a`, 10) + `}\def\c{` + strings.Repeat(`\b`, 10) + `}\def\d{` + strings.Repeat(`\c`, 8) + `}\d`

// TestMathOverBudget renders issue 23's macro bomb, inline and as a
// block, among other math: it fails alone, shown as its TeX with the
// reason, counted in the Tally, and the rest of the text renders.
func TestMathOverBudget(t *testing.T) {
	r := New()
	const why = `title="mathml: formula too large: more than `
	for _, tt := range []struct {
		name, src string
		want      []string // in order
	}{
		{"inline", "Before $x^2$, then $" + bomb + "$ and after.", []string{`<msup>`, `<code class="math-error" ` + why, `⚠ TeX</span> $\def\a{xxx`, `\d$</code> and after.</p>`}},
		{"block", "Before.\n\n$$\n" + bomb + "\n$$\n\nAfter $y$.", []string{`<p>Before.</p>`, `<pre class="math-error" ` + why, `\d`, `<p>After <math>`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var tally Tally
			got, err := r.Tallied(&tally).Markdown(tt.src, "b-")
			if err != nil {
				t.Fatal(err)
			}
			rest := string(got)
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("output lacks %q (in order):\n%.600s", w, got)
				}
				rest = rest[i+len(w):]
			}
			if tally.MathErrors() != 1 {
				t.Errorf("math errors %d, want 1", tally.MathErrors())
			}
		})
	}
}

// TestMathRunContext renders math under a context that is done: the
// conversion stops and the call fails with the context's error, which is
// the run's, so nothing is counted and no TeX is shown in its place.
func TestMathRunContext(t *testing.T) {
	r := New(WithMath(mathml.New(mathml.Options{CacheBytes: -1})))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var tally Tally
	got, err := r.Tallied(&tally).WithContext(ctx).Markdown("Solve $x^2 = 4$.", "c-")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Markdown = %q, %v; want context.Canceled", got, err)
	}
	if tally.MathErrors() != 0 {
		t.Errorf("math errors %d, want 0", tally.MathErrors())
	}
	// Without the context, the same Converter converts.
	if got, err := r.Markdown("Solve $x^2 = 4$.", "c-"); err != nil || !strings.Contains(string(got), "<msup>") {
		t.Fatalf("Markdown = %q, %v", got, err)
	}
}
