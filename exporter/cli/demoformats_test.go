package cli

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render"
)

// TestDemoFormatsFollowTheProbes: when no formats are chosen, the demo
// writes the registry's defaults and every format whose Probe finds what
// it needs (Format.Probe, the PDF's Chromium), and says what is missing
// for the others; it no longer spells "pdf" itself.
func TestDemoFormatsFollowTheProbes(t *testing.T) {
	lacking := errors.New("no tool on PATH")
	tests := []struct {
		name    string
		probe   func() error
		want    []string
		missing string // what the demo says, "" for nothing
	}{
		{"found", func() error { return nil }, []string{"site", "data", "print"}, ""},
		{"missing", func() error { return lacking }, []string{"site", "data"}, "no print: no tool on PATH"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := render.NewRegistry(
				render.Format{Name: "site", Default: true},
				render.Format{Name: "data", Default: true},
				render.Format{Name: "print", Probe: tc.probe},
				render.Format{Name: "book"},
			)
			var say strings.Builder
			if got := demoFormats(&say, reg); !slices.Equal(got, tc.want) {
				t.Errorf("formats %v, want %v", got, tc.want)
			}
			if got := strings.TrimSpace(say.String()); got != tc.missing {
				t.Errorf("said %q, want %q", got, tc.missing)
			}
		})
	}
}
