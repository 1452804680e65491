package api

import (
	"strings"
	"testing"
	"unicode"
)

// TestPrintable checks that names from the API lose every control, escape
// sequence and bidirectional control before they reach a terminal.
func TestPrintable(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "Algebra 1 — Texas", "Algebra 1 — Texas"},
		{"arabic", "الجبر ١", "الجبر ١"},
		{"csi colour", "\x1b[31mred\x1b[0m text", "red text"},
		{"csi clear screen", "a\x1b[2J\x1b[Hb", "ab"},
		{"osc title", "x\x1b]0;pwned\x07y", "xy"},
		{"osc hyperlink ST", "\x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"c1 csi", "a\u009b31mb", "ab"},
		{"two-byte esc", "a\x1bcb", "ab"},
		{"cut csi", "a\x1b[31", "a"},
		{"broken csi", "a\x1b[1é", "aé"},
		{"controls", "a\x00b\rc\nd\te\x7ff\u0085g", "a b c d e f g"},
		{"bidi override", "abc\u202Egnp.exe\u202C", "abc gnp.exe"},
		{"bidi isolates and marks", "\u2066a\u2069\u200Eb\u200Fc\u061Cd\u202A\u202B\u202D\u2067\u2068", "a b c d"},
		{"invalid utf8", "a\xffb", "a\uFFFDb"},
		{"long", strings.Repeat("é", 5000), strings.Repeat("é", 2048) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Printable(tt.in)
			if got != tt.want {
				t.Errorf("Printable(%q) = %q, want %q", tt.in, got, tt.want)
			}
			checkPrintable(t, got)
		})
	}
}

// checkPrintable fails when s holds a character a terminal would act on.
func checkPrintable(t *testing.T, s string) {
	t.Helper()
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			t.Fatalf("%q holds %U", s, r)
		}
	}
}

func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"a\x1b[31mb", "\x1b]0;x\x07", "\u202Ex", "\u009b1m", "\x1b", "\x1b]", "plain"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Printable(s)
		checkPrintable(t, got)
		if len(got) > maxPrintable+len("…")+4 {
			t.Fatalf("Printable gave %d bytes", len(got))
		}
	})
}
