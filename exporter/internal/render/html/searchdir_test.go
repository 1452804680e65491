package html

import (
	"bytes"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/render/shard"
)

// dirPosts reads every shard of a terms file set (an export's terms
// files, or a directory group's), named base, as the search box does:
// each stem's postings decoded to node (or export) × 16 + mark × 4 +
// class.
func dirPosts(t *testing.T, files map[string][]byte, base string, plan []string) map[string][]int {
	t.Helper()
	out := map[string][]int{}
	for _, p := range plan {
		js, ok := files[shard.File(base, p)]
		if !ok {
			t.Fatalf("%s: shard %q not written", base, p)
		}
		var st searchTerms
		decodeScript(t, js, &st)
		for stem, d := range st.Terms {
			prev := -1
			for _, v := range d {
				prev += v >> 4
				out[stem] = append(out[stem], prev<<4|v&15)
			}
		}
	}
	return out
}

// TestSearchDirectory: issue 27 part 1, the catalog's bounded loading.
// The site's search directory says, for every stem of every export's
// index, that the export holds it and in which field class at best, and
// says nothing else: read back from the files the search box reads (each
// export's terms, the directory's shards), in every group.
func TestSearchDirectory(t *testing.T) {
	t.Parallel()
	f, w := rendered(t)
	var l searchList
	decodeScript(t, w.files[layout.SiteSearchSources], &l)
	if len(l.Groups) < 2 {
		t.Fatalf("%d groups: the sample is in three stemming languages", len(l.Groups))
	}
	dir := make([]map[string][]int, len(l.Groups))
	for i, g := range l.Groups {
		dir[i] = dirPosts(t, w.files, g.Key, g.Shards)
	}
	// What the directory should hold, from each export's own index.
	want := make([]map[string]map[int]int, len(l.Groups))
	for i := range want {
		want[i] = map[string]map[int]int{}
	}
	sources := readList(t, w.files, l)
	for _, s := range sources {
		var head searchHead
		decodeScript(t, w.files[s.Key+"/"+layout.SearchScriptFile], &head)
		if head.Stem != l.Groups[s.Group].Stem {
			t.Errorf("%s: stemmed in %q, in the group of %q", s.Key, head.Stem, l.Groups[s.Group].Stem)
		}
		base := s.Key + "/" + head.Terms
		for stem, posts := range dirPosts(t, w.files, base, head.Shards) {
			best := 0
			for _, v := range posts {
				if c := fileClass(v); weighs(c) > weighs(best) {
					best = c
				}
			}
			if want[s.Group][stem] == nil {
				want[s.Group][stem] = map[int]int{}
			}
			want[s.Group][stem][s.ID] = best
		}
	}
	if len(f.trees) != len(sources) {
		t.Fatalf("%d sources for %d trees", len(sources), len(f.trees))
	}
	for g := range l.Groups {
		for _, stem := range slices.Sorted(maps.Keys(want[g])) {
			got := map[int]int{}
			for _, v := range dir[g][stem] {
				got[v>>4] = v & 15
			}
			if !maps.Equal(got, want[g][stem]) {
				t.Errorf("group %d, %q: directory %v, indexes %v", g, stem, got, want[g][stem])
			}
		}
		for stem := range dir[g] {
			if want[g][stem] == nil {
				t.Errorf("group %d: %q is in the directory and in no index", g, stem)
			}
		}
	}
}

// TestSearchDirectoryOfReusedTrees: a tree whose pages an incremental
// run keeps (Reuse, not rendered again) has the same part in the
// directory as one rendered, read from its index in the previous output
// or, when that cannot be read, gathered again, so the site's directory and search lists
// are the same bytes whichever trees a run renders; a tree the run never
// saw (its pages kept after a failed fetch) is in no group, searched
// whatever the query.
func TestSearchDirectoryOfReusedTrees(t *testing.T) {
	t.Parallel()
	f, full := rendered(t)
	read := 0
	previous := func(rel string) ([]byte, error) {
		b, ok := full.files[rel]
		if !ok {
			return nil, fs.ErrNotExist
		}
		read++
		return b, nil
	}
	garbled := func(rel string) ([]byte, error) {
		if strings.HasSuffix(rel, layout.SearchScriptFile) {
			return full.files[rel], nil
		}
		return []byte("(window.curexSearchTerms=window.curexSearchTerms||{})[\"x\"]={\"terms\":"), nil
	}
	run := func(unseen int) *memWriter {
		r, err := New(Options{})
		if err != nil {
			t.Fatal(err)
		}
		w := newMemWriter()
		for i, tr := range f.trees {
			switch {
			case i == unseen:
			case i%2 == 0:
				if err := r.RenderTree(t.Context(), w, f.site, tr, f.outlines); err != nil {
					t.Fatal(err)
				}
			case i%3 == 0:
				r.Reuse(tr, nil) // indexed again
			case i%3 == 1:
				r.Reuse(tr, previous) // read from the previous output
			default:
				r.Reuse(tr, garbled) // unreadable: indexed again
			}
		}
		if err := r.RenderSite(w, f.site); err != nil {
			t.Fatal(err)
		}
		return w
	}
	site := func(w *memWriter) map[string]string {
		out := map[string]string{}
		for name, b := range w.files {
			if strings.HasPrefix(name, layout.SearchDirPrefix) || strings.HasPrefix(path.Base(name), "search-sources") {
				out[name] = string(b)
			}
		}
		return out
	}
	want, got := site(full), site(run(-1))
	if len(want) < 3 {
		t.Fatalf("%d directory and list files", len(want))
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if got[name] != want[name] {
			t.Errorf("%s: not the bytes of a run that rendered every tree", name)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d files, want %d", len(got), len(want))
	}
	if read == 0 {
		t.Error("no tree's part was read from the previous output")
	}

	var l searchList
	w0 := run(0)
	decodeScript(t, w0.files[layout.SiteSearchSources], &l)
	unseen := f.trees[0].Dir()
	for _, s := range readList(t, w0.files, l) {
		if (s.Group < 0) != (s.Key == unseen) {
			t.Errorf("%s: group %d", s.Key, s.Group)
		}
		if s.Key == unseen && !slices.Equal(l.Loose, []int{s.ID, 1}) {
			t.Errorf("loose ids %v, want [%d 1] (%s)", l.Loose, s.ID, s.Key)
		}
	}
}

// TestAppendRange: ids met in order make ranges (first, count, ...).
func TestAppendRange(t *testing.T) {
	for _, tc := range []struct {
		ids  []int
		want []int
	}{
		{nil, nil},
		{[]int{0}, []int{0, 1}},
		{[]int{0, 1, 2}, []int{0, 3}},
		{[]int{3, 4, 7, 9, 10}, []int{3, 2, 7, 1, 9, 2}},
	} {
		var got []int
		for _, id := range tc.ids {
			got = appendRange(got, id)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v: %v, want %v", tc.ids, got, tc.want)
		}
	}
}

// FuzzReadSearchScript: reading back any bytes as a search script fails
// or decodes, without panicking; what searchScript writes reads back.
func FuzzReadSearchScript(f *testing.F) {
	js, err := searchScript("curexSearch", `a/b "c"]=`, searchHead{Count: 2, Terms: "search-terms", Shards: []string{"", "ab"}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(js)
	f.Add([]byte(`(window.x=window.x||{})["k"]=;` + "\n"))
	f.Add([]byte(`||{})["k"]={"count":1};` + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var h searchHead
		read := func(string) ([]byte, error) { return b, nil }
		if err := readSearchScript(read, "x.js", &h); err == nil && bytes.Equal(b, js) && (h.Count != 2 || len(h.Shards) != 2) {
			t.Fatalf("%s read back as %+v", b, h)
		}
	})
}
