package fetch_test

import (
	"testing"

	"github.com/curex/curex/exporter/internal/fetch"
)

func TestPlainText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "Unit 1: Linear equations", "Unit 1: Linear equations"},
		{"arabic", "الوحدة ١", "الوحدة ١"},
		{"controls", "a\x00b\x1b[31mc\td\r\ne\x7ff\u0085g", "a b [31mc d  e f g"},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
		{"balanced override", "abc\u202Egnp.exe\u202C def", "abc\u202Egnp.exe\u202C def"},
		{"open override", "abc\u202Egnp.exe", "abc\u202Egnp.exe\u202C"},
		{"open embeddings", "\u202A\u202Bx", "\u202A\u202Bx\u202C\u202C"},
		{"open isolate", "\u2067x", "\u2067x\u2069"},
		{"stray closers", "\u202Cx\u2069", "x"},
		{"PDF does not close across an isolate", "\u202E\u2066x\u202Cy", "\u202E\u2066xy\u2069\u202C"},
		{"PDI closes the embeddings inside", "\u2066\u202Ex\u2069y", "\u2066\u202Ex\u2069y"},
		{"mixed", "\u2068a\u202Db\u202Cc\u2069\u202B", "\u2068a\u202Db\u202Cc\u2069\u202B\u202C"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fetch.PlainText(tt.in); got != tt.want {
				t.Errorf("PlainText(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if again := fetch.PlainText(tt.want); again != tt.want {
				t.Errorf("PlainText is not idempotent: %q -> %q", tt.want, again)
			}
		})
	}
}
