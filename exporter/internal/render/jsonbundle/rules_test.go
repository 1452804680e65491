package jsonbundle

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

var (
	localeRE         = regexp.MustCompile(localePattern)
	optionalLocaleRE = regexp.MustCompile(optionalLocalePattern)
	pathRE           = regexp.MustCompile(pathPattern)
)

// TestPaths checks paths that must pass and fail, with the function and
// with the schema's pattern.
func TestPaths(t *testing.T) {
	for _, p := range []string{
		"index.html", "algebra-1/texas/es/alg-u1/index.html", "a/.well-known/x.html", "a/..b/c.html",
		"a/.../x.html", "a/b../x.html", "ünï/çödé/index.html", "a/b c/index.html", ".html", "a/\xff/index.html",
	} {
		if !validPath(p) || !pathRE.MatchString(p) {
			t.Errorf("path %q rejected (function %v, pattern %v)", p, validPath(p), pathRE.MatchString(p))
		}
	}
	for _, p := range []string{
		"", "/index.html", "../index.html", "a/../index.html", "./index.html", "a/./index.html",
		"a//index.html", `a\index.html`, "a/index.htm", "a/index.html/", "c:/index.html",
		"a/x?y/index.html", "a/x#y/index.html", "a/x\n/index.html", "a/..", "index.html\n", "a/\x7f/index.html",
	} {
		if validPath(p) || pathRE.MatchString(p) {
			t.Errorf("path %q accepted (function %v, pattern %v)", p, validPath(p), pathRE.MatchString(p))
		}
	}
}

// TestSegments checks node segments that must pass and fail: a segment
// passes when the page it names matches the schema's pattern and it is
// one path segment.
func TestSegments(t *testing.T) {
	for _, tc := range []struct {
		seg  string
		want bool
	}{
		{"alg-u1", true}, {"unit-1-6b3a55e0", true}, {"..b", true}, {"ünï", true}, {"a b", true},
		{"", false}, {".", false}, {"..", false}, {"a/b", false}, {"/a", false}, {`a\b`, false},
		{"c:", false}, {"x?y", false}, {"x#y", false}, {"x\ny", false}, {"\x7f", false},
	} {
		page := "algebra-1/texas/es/" + tc.seg + "/index.html"
		if got := validSegment(tc.seg); got != tc.want {
			t.Errorf("validSegment(%q) = %v, want %v", tc.seg, got, tc.want)
		}
		if tc.want && !pathRE.MatchString(page) {
			t.Errorf("segment %q passes, but the schema's pattern rejects %q", tc.seg, page)
		}
	}
}

func TestLocales(t *testing.T) {
	for _, l := range []string{"en", "es", "pt-BR", "zh-Hant", "ast", "sr-Latn-RS", "de-CH-1996", "EN-us"} {
		if !validLocale(l) || !localeRE.MatchString(l) {
			t.Errorf("locale %q rejected", l)
		}
	}
	for _, l := range []string{"", "e", "engl", "es_MX", "en-", "-en", "en--US", "en-U", "en-123456789", "e1", "en US", "ñu"} {
		if validLocale(l) || localeRE.MatchString(l) {
			t.Errorf("locale %q accepted", l)
		}
	}
}

// TestRulesAgreeWithPatterns compares the functions with the patterns on
// random strings built from the characters that matter.
func TestRulesAgreeWithPatterns(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	random := func(alphabet []string, suffixes ...string) string {
		var b strings.Builder
		for n := r.IntN(10); n > 0; n-- {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		if len(suffixes) > 0 && r.IntN(2) == 0 {
			b.WriteString(suffixes[r.IntN(len(suffixes))])
		}
		return b.String()
	}
	pathChars := []string{"a", "z", ".", ".", "/", "/", "\\", ":", "?", "#", "\n", "\x7f", "é", "\xff", "-", " ", ".html", "html"}
	localeChars := []string{"a", "Z", "q", "1", "9", "-", "-", "_", " ", "é", "\x00"}
	for i := 0; i < 100_000; i++ {
		if p := random(pathChars, ".html", "/index.html"); validPath(p) != pathRE.MatchString(p) {
			t.Fatalf("path %q: function says %v, pattern %v", p, validPath(p), pathRE.MatchString(p))
		}
		if l := random(localeChars); validLocale(l) != localeRE.MatchString(l) {
			t.Fatalf("locale %q: function says %v, pattern %v", l, validLocale(l), localeRE.MatchString(l))
		}
		if l := random(localeChars); (l == "" || validLocale(l)) != optionalLocaleRE.MatchString(l) {
			t.Fatalf("optional locale %q: function says %v, pattern %v", l, validLocale(l), optionalLocaleRE.MatchString(l))
		}
	}
}
