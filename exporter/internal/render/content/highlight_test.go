package content

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestHighlightHasNoWallClockTimeout compiles every lexer the renderer
// highlights with and checks that no rule keeps chroma's 250 ms match
// timeout: every rule of every lexer (included states and nested lexers
// too) times out after HighlightTimeout only, which a match never comes
// near on a loaded machine, so the tokens cannot depend on the load. It
// also checks that the Go lexer's raw strings, which chroma highlights
// with a lexer of its own registry, use ours.
func TestHighlightHasNoWallClockTimeout(t *testing.T) {
	h := newHighlighter()
	if len(h.registry.Lexers) < 250 {
		t.Fatalf("%d lexers: most of chroma's are missing", len(h.registry.Lexers))
	}
	for _, l := range h.registry.Lexers {
		if _, err := h.tokenise(l, "x = 1\n"); err != nil {
			t.Fatalf("%s: %v", l.Config().Name, err)
		}
	}
	// Go's raw strings go through the template lexer.
	if _, err := h.tokenise(h.lexer("go"), "x := `raw {{ .Y }}`\n"); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.compiled) != len(h.registry.Lexers) {
		t.Errorf("%d of %d lexers compiled through the timeout setter", len(h.compiled), len(h.registry.Lexers))
	}
	rules := 0
	for name, states := range h.compiled {
		if _, ok := states[untimedState]; ok {
			t.Errorf("%s: the setter's state is left", name)
		}
		for state, rs := range states {
			for i, r := range rs {
				rules++
				if r.Regexp == nil || r.Regexp.MatchTimeout != HighlightTimeout {
					t.Fatalf("%s: rule %s.%d (%q) times out after %v, want %v", name, state, i, r.Pattern, r.Regexp.MatchTimeout, HighlightTimeout)
				}
			}
		}
	}
	if !h.goRawStrings {
		t.Errorf("the Go lexer's raw strings still use chroma's own template lexer (rule %q not found)", goRawString)
	}
	t.Logf("%d lexers, %d rules", len(h.compiled), rules)
}

// fakeClock is a clock that moves by step at each reading.
type fakeClock struct {
	now  time.Time
	step time.Duration
}

func (c *fakeClock) read() time.Time {
	c.now = c.now.Add(c.step)
	return c.now
}

// TestHighlightWatchdog renders a Go code block with an injected clock:
// when highlighting takes less than HighlightTimeout the block is
// highlighted, with the same bytes whatever the clock says; when it takes
// longer, the render fails with ErrHighlightTimeout, never giving other
// bytes (an error token, a plain block).
func TestHighlightWatchdog(t *testing.T) {
	src := "```go\npackage main\n\nfunc main() { println(`hi`, 1+2) }\n```\n"
	render := func(step time.Duration) (string, error) {
		r := New()
		c := &fakeClock{now: time.Unix(0, 0), step: step}
		r.hl.now = c.read
		out, err := r.Markdown(src, "")
		return string(out), err
	}
	want, err := render(0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(want, `<pre class="chroma" tabindex="0">`) || strings.Contains(want, `class="err"`) {
		t.Fatalf("not highlighted cleanly:\n%s", want)
	}
	for _, tc := range []struct {
		name string
		step time.Duration
		fail bool
	}{
		{"no time", 0, false},
		{"a millisecond a token", time.Millisecond, false},
		{"a tenth of the limit a token", HighlightTimeout / 100, false},
		{"the limit reached mid-block", HighlightTimeout / 3, true},
		{"the limit at the first token", HighlightTimeout, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := render(tc.step)
			switch {
			case tc.fail && !errors.Is(err, ErrHighlightTimeout):
				t.Fatalf("err = %v, want ErrHighlightTimeout; output:\n%s", err, got)
			case tc.fail && got != "":
				t.Errorf("a timed-out render gave output:\n%s", got)
			case !tc.fail && err != nil:
				t.Fatal(err)
			case !tc.fail && got != want:
				t.Errorf("other bytes under another clock:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestHighlightBounds: what is highlighted depends on the block alone.
// A block over maxHighlight bytes, or with a line over maxHighlightLine
// bytes, is shown plain; so is a language only chroma's own registry
// knows, and a block its lexer loops on (today's code never finished it).
func TestHighlightBounds(t *testing.T) {
	r := New()
	for _, tc := range []struct {
		name, lang, code string
		highlighted      bool
	}{
		{"short", "go", "x := 1\n", true},
		{"line at the limit", "go", "x := \"" + strings.Repeat("a", maxHighlightLine-8) + "\"\n", true},
		{"line over the limit", "go", "x := \"" + strings.Repeat("a", maxHighlightLine) + "\"\n", false},
		{"block over the limit", "go", strings.Repeat("x := 1\n", maxHighlight/7+1), false},
		{"markdown (chroma's registry only)", "markdown", "# title\n", false},
		{"raku (chroma's registry only)", "raku", "say 1;\n", false},
		// chroma's Jungle lexer loops without moving on over this line:
		// maxMatches stops it, the same on any machine.
		{"a lexer that loops", "jungle", "<a href='b'>c</a>\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := r.Markdown("```"+tc.lang+"\n"+tc.code+"```\n", "")
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(out), `<pre class="chroma" tabindex="0">`); got != tc.highlighted {
				t.Errorf("highlighted = %v, want %v", got, tc.highlighted)
			}
		})
	}
}
