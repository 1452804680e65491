package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
)

// TestSummaryMathErrors checks that the printed summary names the math
// errors only when there are some.
func TestSummaryMathErrors(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{
		{0, ""},
		{3, "math: 3 expressions could not be converted and show their TeX source (see math_errors in manifest.json)\n"},
	} {
		var out bytes.Buffer
		g := &globals{stdout: &out, stderr: &bytes.Buffer{}}
		printSummary(g, "/out", &exporter.Summary{Planned: 1, Written: 1, MathErrors: tt.n})
		got := ""
		for line := range strings.Lines(out.String()) {
			if strings.HasPrefix(line, "math:") {
				got += line
			}
		}
		if got != tt.want {
			t.Errorf("MathErrors %d: %q, want %q", tt.n, got, tt.want)
		}
	}
}
