package shard

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSplit: a plan keeps every shard within the bound unless it holds
// one key or its prefix is MaxDepth runes long, and always holds the
// root.
func TestSplit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		sizes map[string]int
		max   int
		want  []string
	}{
		{"empty", map[string]int{}, 10, []string{""}},
		{"fits", map[string]int{"apple": 4, "banana": 5}, 10, []string{""}},
		{"first letters", map[string]int{"apple": 6, "avocado": 6, "banana": 6}, 10, []string{"", "a", "ap", "av", "b"}},
		{"key is a prefix", map[string]int{"a": 6, "ab": 6, "b": 1}, 10, []string{"", "a", "ab", "b"}},
		{"one big key", map[string]int{"the": 100}, 10, []string{""}},
		{"cjk", map[string]int{"方程": 8, "方法": 8, "程式": 8}, 10, []string{"", "方", "方法", "方程", "程"}},
		{"deep", map[string]int{"aaaaa1": 8, "aaaaa2": 8}, 10, []string{"", "a", "aa", "aaa", "aaaa"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Split(tc.sizes, tc.max)
			if !slices.Equal(got, tc.want) {
				t.Errorf("Split = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSplitBound: on many keys, every shard is within the bound unless it
// holds one key or its prefix is MaxDepth runes long; every key finds its
// shard by Of, and a word finds every key it begins in the shards Need
// gives, when it takes them.
func TestSplitBound(t *testing.T) {
	t.Parallel()
	sizes := map[string]int{}
	for i := range 5000 {
		k := strings.Repeat(string(rune('a'+i%26)), 1+i%3) + string(rune('a'+i/26%26)) + string(rune('a'+i/676%26))
		sizes[k] = 10 + i%40
	}
	const max = 2000
	plan := Split(sizes, max)
	held := map[string][]string{}
	for k := range sizes {
		p := Of(plan, k)
		if !strings.HasPrefix(k, p) {
			t.Fatalf("Of(%q) = %q, not a prefix", k, p)
		}
		held[p] = append(held[p], k)
	}
	for p, keys := range held {
		total := 0
		for _, k := range keys {
			total += sizes[k]
		}
		if total > max && len(keys) > 1 && utf8.RuneCountInString(p) < MaxDepth {
			t.Errorf("shard %q: %d bytes in %d keys, over %d", p, total, len(keys), max)
		}
	}
	for _, w := range []string{"a", "bb", "ccc", "dde", "zzzz", "q"} {
		in := Need(plan, w, w)
		if len(in) > 2+MaxWithin {
			t.Errorf("Need(%q) = %d shards", w, len(in))
		}
		if len(in) == 1 && utf8.RuneCountInString(w) >= 2 {
			continue // more shards begin with w than it takes
		}
		for k := range sizes {
			if strings.HasPrefix(k, w) && utf8.RuneCountInString(w) >= 2 && !slices.Contains(in, Of(plan, k)) {
				t.Errorf("Need(%q) = %q misses the shard of %q (%q)", w, in, k, Of(plan, k))
			}
		}
	}
}

// TestOf: the longest prefix of the plan, by runes.
func TestOf(t *testing.T) {
	t.Parallel()
	plan := []string{"", "a", "ab", "é", "方"}
	for _, tc := range []struct{ key, want string }{
		{"abc", "ab"}, {"ac", "a"}, {"a", "a"}, {"b", ""}, {"", ""}, {"école", "é"}, {"方程式", "方"}, {"程", ""},
	} {
		if got := Of(plan, tc.key); got != tc.want {
			t.Errorf("Of(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}

// TestNeed: a word needs its shard and its stem's, and the shards of the
// words it begins when they are few.
func TestNeed(t *testing.T) {
	t.Parallel()
	plan := []string{"", "a", "al", "eq", "equ", "equa", "ma", "mo", "س", "م"}
	for _, tc := range []struct {
		word, stem string
		want       []string
	}{
		{"equations", "equat", []string{"equa"}},
		{"eq", "eq", []string{"eq", "equ", "equa"}},
		{"a", "a", []string{"a"}},
		{"المعادلات", "معادل", []string{"", "م"}},
		{"zebra", "zebra", []string{""}},
	} {
		if got := Need(plan, tc.word, tc.stem); !slices.Equal(got, tc.want) {
			t.Errorf("Need(%q, %q) = %q, want %q", tc.word, tc.stem, got, tc.want)
		}
	}
}

// TestFile: the root is base.js; other names are the prefix's bytes in
// hexadecimal, safe in any file system.
func TestFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ prefix, want string }{
		{"", "search-terms.js"}, {"a", "search-terms-61.js"}, {"é", "search-terms-c3a9.js"}, {"/.", "search-terms-2f2e.js"},
	} {
		if got := File("search-terms", tc.prefix); got != tc.want {
			t.Errorf("File(%q) = %q, want %q", tc.prefix, got, tc.want)
		}
	}
}
