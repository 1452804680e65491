package markup

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTextAndLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, text, line string
	}{
		{"plain", "plain", "plain", "plain"},
		{"empty", "", "", ""},
		{"nul", "a\x00b", "a\uFFFDb", "a b"},
		{"escape sequence", "red \x1b[31m", "red \uFFFD[31m", "red  [31m"},
		{"del", "d\x7f", "d\uFFFD", "d "},
		{"c1", "c1\u0085", "c1\uFFFD", "c1 "},
		{"tab and line breaks", "tab\tnl\ncr\r", "tab\tnl\ncr\r", "tab nl cr "},
		{"invalid utf-8", "\xffx", "\uFFFDx", "\uFFFDx"},
		{"invalid utf-8, each byte", "\xff\xfex", "\uFFFD\uFFFDx", "\uFFFD\uFFFDx"},
		{"noncharacter", "n\uFDD0", "n\uFFFD", "n "},
		{"noncharacter fffe", "n\uFFFE", "n\uFFFD", "n "},
		{"noncharacter in plane 1", "n\U0001FFFF", "n\uFFFD", "n "},
		{"replacement character kept", "\uFFFD", "\uFFFD", "\uFFFD"},
		{"bidi controls kept", "a\u202Eb\u202C", "a\u202Eb\u202C", "a\u202Eb\u202C"},
		{"non-breaking space kept", "a\u00a0b", "a\u00a0b", "a\u00a0b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Text(tc.in); got != tc.text {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.text)
			}
			if got := Line(tc.in); got != tc.line {
				t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.line)
			}
		})
	}
}

func TestLang(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"es", "es"}, {"pt_BR", "pt-BR"}, {"zh-Hans", "zh-Hans"}, {"es-419", "es-419"}, {"ckb", "ckb"},
		{" es ", "es"}, {"zh_Hant_TW", "zh-Hant-TW"},
		{"", ""}, {"e", ""}, {"abcd", ""}, {`es"x`, ""}, {"en-", ""}, {"toolongsubtag-x", ""}, {"1a", ""},
		{"es-MX" + strings.Repeat("-abc", 20), ""},
	} {
		if got := Lang(tc.in); got != tc.want {
			t.Errorf("Lang(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestNoCopy: text that needs no change is returned as it is, without
// allocating.
func TestNoCopy(t *testing.T) {
	text := strings.Repeat("Plain text, tab\tand line\n", 4)
	line := "One line, « quoted »"
	if n := testing.AllocsPerRun(10, func() { _, _ = Text(text), Line(line) }); n != 0 {
		t.Errorf("Text and Line allocate %v times for text that needs no change", n)
	}
}

func FuzzTextAndLine(f *testing.F) {
	for _, s := range []string{"plain", "a\x00b\x1b[31m", "tab\tnl\n\r", "\xff\xfe", "\uFDD0\uFFFE\U0010FFFF", "\u202Ex"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		text, line := Text(s), Line(s)
		for name, out := range map[string]string{"Text": text, "Line": line} {
			if !utf8.ValidString(out) {
				t.Fatalf("%s(%q) = %q is not valid UTF-8", name, s, out)
			}
			if i := strings.IndexFunc(out, forbidden); i >= 0 {
				t.Fatalf("%s(%q) = %q keeps a forbidden character at %d", name, s, out, i)
			}
			if utf8.RuneCountInString(out) != utf8.RuneCountInString(s) {
				t.Fatalf("%s(%q) = %q changes the number of characters", name, s, out)
			}
		}
		if strings.ContainsAny(line, "\t\n\r") {
			t.Fatalf("Line(%q) = %q keeps a line break", s, line)
		}
		if Text(text) != text || Line(line) != line {
			t.Fatalf("Text or Line of %q is not stable", s)
		}
	})
}
