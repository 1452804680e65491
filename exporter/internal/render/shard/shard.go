// Package shard splits the terms of a search index into files by the
// start of their keys, each file at most a given size, so that a query
// loads only the files its words need.
//
// A plan is a sorted set of prefixes. A key belongs to the shard of the
// longest prefix in the plan that it begins with; the prefix "" (the
// root) holds what no longer prefix takes. A small index is the root
// alone; a larger one splits a prefix into one rune longer prefixes
// until each shard fits. The search box (themes/default/search.js)
// reads the same plan by the same rule (Need).
package shard

import (
	"encoding/hex"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// MaxDepth is the longest prefix Split makes, in runes: past it a shard
// keeps its keys whatever their size.
const MaxDepth = 4

// Split plans the shards of keys, each with its size in bytes, so that no
// shard holds more than max bytes unless its keys all share a prefix of
// MaxDepth runes or it holds one key. The plan is sorted and always
// holds the root "".
func Split(sizes map[string]int, max int) []string {
	keys := make([]string, 0, len(sizes))
	for k := range sizes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	plan := []string{""}
	split(keys, sizes, "", 0, max, &plan)
	slices.Sort(plan)
	return plan
}

// split adds to plan the prefixes that divide keys (sorted, each
// beginning with prefix, of depth runes) when they do not fit in one
// shard.
func split(keys []string, sizes map[string]int, prefix string, depth, max int, plan *[]string) {
	total := 0
	for _, k := range keys {
		total += sizes[k]
	}
	if total <= max || len(keys) < 2 || depth >= MaxDepth {
		return
	}
	for len(keys) > 0 {
		rest := keys[0][len(prefix):]
		if rest == "" {
			keys = keys[1:] // the key is the prefix: it stays in its shard
			continue
		}
		_, n := utf8.DecodeRuneInString(rest)
		child := prefix + rest[:n]
		end := sort.Search(len(keys), func(i int) bool { return !strings.HasPrefix(keys[i], child) })
		*plan = append(*plan, child)
		split(keys[:end], sizes, child, depth+1, max, plan)
		keys = keys[end:]
	}
}

// Of returns the prefix of the shard holding key in plan: the longest
// prefix of plan that key begins with ("" for the root).
func Of(plan []string, key string) string {
	best := ""
	for p := key; p != ""; {
		if _, ok := slices.BinarySearch(plan, p); ok {
			best = p
			break
		}
		_, n := utf8.DecodeLastRuneInString(p)
		p = p[:len(p)-n]
	}
	return best
}

// File is the file name of the shard of prefix: base + ".js" for the
// root, else base + "-" + the prefix's bytes in hexadecimal + ".js" (a
// name every file system and URL takes as it is).
func File(base, prefix string) string {
	if prefix == "" {
		return base + ".js"
	}
	return base + "-" + hex.EncodeToString([]byte(prefix)) + ".js"
}

// MaxWithin is how many shards Need takes for the words a query word
// begins: a word of a letter or two that begins a large part of the
// terms finds its prefixes once more of it is typed.
const MaxWithin = 4

// Need returns the prefixes of the shards a query word needs, given its
// stem: the word's and the stem's shards (exact, stem and one-edit
// matches after the prefix), and, for a word of two runes or more, the
// shards of the words it begins when they are at most MaxWithin. The
// search box (themes/default/search.js, needShards) follows the same
// rule.
func Need(plan []string, word, stem string) []string {
	need := []string{Of(plan, word)}
	if s := Of(plan, stem); s != need[0] {
		need = append(need, s)
	}
	if utf8.RuneCountInString(word) < 2 {
		return need
	}
	var within []string
	i, _ := slices.BinarySearch(plan, word)
	for ; i < len(plan) && strings.HasPrefix(plan[i], word); i++ {
		if len(plan[i]) > len(word) {
			within = append(within, plan[i])
		}
	}
	if len(within) <= MaxWithin {
		for _, p := range within {
			if !slices.Contains(need, p) {
				need = append(need, p)
			}
		}
	}
	return need
}
