package html

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/exporter/internal/render/shard"
	"github.com/curex/curex/exporter/internal/render/terms"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// TestSearchShardsBounded: issue 27 part 1, the invariants of bounded
// loading on a 1,500-node synthetic tree. No terms file is above
// searchShardBytes unless it holds one stem (or its prefix is
// shard.MaxDepth runes long); a query word's shards (shard.Need, the
// search box's rule) hold its stem and every word it begins, and are a
// small part of the terms; no text chunk (what a result shown loads for
// its snippet) is above searchChunkBytes and one node's text.
func TestSearchShardsBounded(t *testing.T) {
	t.Parallel()
	ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: 1, Locales: 1, Nodes: 1500, Depth: 3, Seed: 1})
	f := fromDataset(t, ds, false)
	tree := f.trees[0]
	var flat []*flatNode
	pages := map[*model.Node]string{}
	m := i18n.For(tree.Export.Locale)
	tree.Walk(func(n *model.Node) bool {
		flat = append(flat, &flatNode{n: n, fields: nodeFields(n, m, nil)})
		pages[n] = layout.NodePage(tree.Export, n.Segment)
		return true
	})
	st, err := terms.NewStemmers().For(terms.Language(tree.Export.Locale))
	if err != nil {
		t.Fatal(err)
	}
	files, err := buildSearch(tree.Dir(), layout.ExportIndex(tree.Export), flat, pages, func(*model.Node) string { return "" },
		searchChunkBytes, searchShardBytes, st)
	if err != nil {
		t.Fatal(err)
	}
	var head searchHead
	decodeScript(t, files.Head, &head)
	if len(head.Shards) < 4 || len(files.Terms) != len(head.Shards) {
		t.Fatalf("%d shards, %d files: want several, one file each", len(head.Shards), len(files.Terms))
	}
	total := 0
	shards := map[string]searchTerms{}
	for _, p := range head.Shards {
		js, ok := files.Terms[shard.File(head.Terms, p)]
		if !ok {
			t.Fatalf("shard %q: no file", p)
		}
		total += len(js)
		var s searchTerms
		decodeScript(t, js, &s)
		shards[p] = s
		if len(js) > searchShardBytes && len(s.Terms) > 1 && utf8.RuneCountInString(p) < shard.MaxDepth {
			t.Errorf("shard %q: %d bytes, %d stems", p, len(js), len(s.Terms))
		}
	}
	for i, c := range files.Body {
		var chunk searchChunk
		decodeScript(t, c, &chunk)
		last := 0
		for _, v := range chunk.Nodes[len(chunk.Nodes)-1] {
			if s, ok := v.(string); ok {
				last += len(s) + 8
			}
		}
		if len(c) > searchChunkBytes+last+256 {
			t.Errorf("chunk %d: %d bytes", i, len(c))
		}
	}
	for _, w := range []string{"equations", "solving", "eq", "fractions", "zzzz", "a"} {
		stem := st.Stem(w)
		need := shard.Need(head.Shards, w, stem)
		loaded := 0
		has := map[string]bool{}
		for _, p := range need {
			loaded += len(files.Terms[shard.File(head.Terms, p)])
			for k := range shards[p].Terms {
				has[k] = true
			}
		}
		if loaded > 3*searchShardBytes || loaded*4 > total {
			t.Errorf("%q loads %d bytes of %d in %d shards", w, loaded, total, len(need))
		}
		// The words w begins are all in when it takes the shards that
		// begin with it (at most shard.MaxWithin of them).
		within := 0
		for _, p := range head.Shards {
			if len(p) > len(w) && strings.HasPrefix(p, w) {
				within++
			}
		}
		prefixes := utf8.RuneCountInString(w) >= 2 && within <= shard.MaxWithin
		t.Logf("%q: %d shards, %d bytes of %d", w, len(need), loaded, total)
		for p, s := range shards {
			for k := range s.Terms {
				begins := prefixes && strings.HasPrefix(k, w)
				for _, x := range strings.Fields(s.Words[k]) {
					begins = begins || prefixes && strings.HasPrefix(x, w)
				}
				if (k == stem || begins) && !has[k] {
					t.Errorf("%q: stem %q (shard %q) is not in the shards it loads %q", w, k, p, need)
				}
			}
		}
	}
}

// TestSearchNodePageWidens: issue 27 part 2. A contents or node page
// searches its own variant × locale, and its box names the curriculum's
// landing page (every variant × locale) for the link that widens the
// search; the catalog and landing pages, which search across, have none.
func TestSearchNodePageWidens(t *testing.T) {
	t.Parallel()
	_, w := rendered(t)
	for _, tc := range []struct{ page, want string }{
		{"algebra-1/texas/es/alg-u1-l1/index.html", `data-widen="../../../index.html"`},
		{"algebra-1/texas/es/index.html", `data-widen="../../index.html"`},
		{"algebra-1/index.html", ""},
		{"index.html", ""},
	} {
		html := string(w.files[tc.page])
		if html == "" {
			t.Fatalf("%s: not written", tc.page)
		}
		if tc.want == "" {
			if strings.Contains(html, "data-widen") {
				t.Errorf("%s: a box that searches across offers to widen", tc.page)
			}
			continue
		}
		if !strings.Contains(html, tc.want) || !strings.Contains(html, `data-widen-label="`) {
			t.Errorf("%s: no %s", tc.page, tc.want)
		}
	}
}
