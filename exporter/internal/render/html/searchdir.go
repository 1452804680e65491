package html

import (
	"bytes"
	"encoding/json"

	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/shard"
	"github.com/curex/curex/exporter/internal/render/terms"
)

// The search directory (issue 27, part 1) is the site's index of its
// indexes: for each stem, which exports hold it and in which field class
// at best. The search box of the catalog and of a landing page, which
// search many variants × locales, reads the directory's shards for a
// query's words first, then loads the indexes of the exports that can
// hold a match only, best first, and stops once no export left can rank
// a result among those shown (themes/default/search.js). There is one
// directory per stemming language (terms.Language), its words stemmed
// as the trees' indexes are, in files shaped as the trees' terms files
// (searchTerms) whose postings count exports instead of nodes.

// dirTree is what the directory keeps of one tree's index.
type dirTree struct {
	// lang is the language its words are stemmed in ("" for none).
	lang string
	// best is the best field class of each stem (classBody to
	// classTitle), with 4 added when it begins a title, as the postings
	// of termIndex.add hold them; words are the words each stem stands
	// for when they differ from it.
	best  map[string]int
	words map[string]map[string]bool
	// kinds are the names of the tree's node types, folded, one a line:
	// a query's word that begins one of their words finds a node by its
	// type (score in search.js), which no stem says.
	kinds string
}

// dirTree is what the directory keeps of the index x gathered, of a
// tree in lang whose node types are named types.
func (x *termIndex) dirTree(lang string, types []string) *dirTree {
	d := &dirTree{lang: lang, best: make(map[string]int, len(x.posts)), words: x.words}
	for stem, tp := range x.posts {
		b := 0
		for _, v := range tp.posts {
			if v = v & 7; weighs(v) > weighs(b) {
				b = v
			}
		}
		d.best[stem] = b
	}
	folded := make([]string, len(types))
	for i, t := range types {
		folded[i] = terms.Fold(t)
	}
	d.kinds = strings.Join(folded, "\n")
	return d
}

// weighs orders the low bits of postings (termIndex.add: the field
// class, and 4 for a title's first word) as the search box weighs them:
// by class, then the first word's mark.
func weighs(v int) int { return (v&3)<<1 | v>>2&1 }

// fileClass is what the directory keeps of a posting of a terms file:
// its field class, and for a title whether the word begins it (the bit
// that marks it there is a body's length class elsewhere, which the
// directory does not keep).
func fileClass(v int) int {
	if c := v & 3; c != classTitle {
		return c
	}
	return v & 7
}

// fieldClass is the class of a field of key in the index: ranked with
// the titles' (objectives, standards, vocabulary) or body text.
func fieldClass(key string) int {
	if rankedKeys[key] {
		return classRanked
	}
	return classBody
}

// typeName is the name of n's type in the search box's type filter
// (unnumbered: "Lesson").
func typeName(n *model.Node) string {
	if tn := strings.TrimSpace(n.NodeType.DisplayName); tn != "" {
		return tn
	}
	return n.Label()
}

// keepDir keeps what the directory needs of the tree at dir.
func (r *Renderer) keepDir(dir string, d *dirTree) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dirs[dir] = d
}

// reuseDir gathers the directory's part of a tree whose pages and index
// were kept from the previous run (Reuse): its index as buildSearch
// gathers it, without the files.
func (r *Renderer) reuseDir(t *model.Tree) (*dirTree, error) {
	lang := terms.Language(t.Export.Locale)
	var st *terms.Stemmer
	if lang != "" {
		var err error
		if st, err = r.stemmers.For(lang); err != nil {
			return nil, err
		}
	}
	m := r.words.For(t.Export.Locale)
	ix := newTermIndex(st)
	var types []string
	i := 0
	t.Walk(func(n *model.Node) bool {
		ix.add(i, classTitle, n.Title)
		for _, f := range nodeFields(n, m, r.opts.Order) {
			ix.add(i, fieldClass(f.Key), f.Text)
		}
		if tn := typeName(n); !slices.Contains(types, tn) {
			types = append(types, tn)
		}
		i++
		return true
	})
	return ix.dirTree(lang, types), nil
}

// siteDir is the directory as the site's search boxes list it: the
// groups written (one per stemming language) and, for each export that
// has a part in it, its number in the site's order and its group.
type siteDir struct {
	groups []dirGroup
	// id numbers every export with pages in the site's order
	// (siteSources), by folder; group is the index in groups of those
	// the directory holds.
	id    map[string]int
	group map[string]int
	kinds map[string]string
	// curricula are the site's, in its order.
	curricula []*Curriculum
}

// dirGroup is the directory of one stemming language.
type dirGroup struct {
	// Lang is the stemming language; Base the start of its files'
	// names (layout.SearchDir), relative to the output root, also the
	// key of each shard's entry in window.curexSearchDir (Base + " " +
	// the prefix); Shards the plan (package shard).
	Lang   string
	Base   string
	Shards []string
}

// writeSearchDir writes the directory of the trees whose index parts
// RenderTree and Reuse kept, for the exports of site, shards of about
// shardBytes: each language's postings are the exports (by number in
// siteSources) that hold a stem, with its best class (and, in a title,
// whether it begins one).
func (r *Renderer) writeSearchDir(w render.Writer, site *SiteInfo, shardBytes int) (*siteDir, error) {
	sd := &siteDir{id: map[string]int{}, group: map[string]int{}, kinds: map[string]string{}, curricula: site.Curricula}
	byLang := map[string]*termIndex{}
	lang := map[string]string{}
	r.mu.Lock()
	for i, ss := range siteSources(site.Curricula) {
		e := ss.e
		sd.id[e.Dir()] = i
		d := r.dirs[e.Dir()]
		if d == nil {
			continue // its index is the previous run's: searched whatever the query
		}
		ix := byLang[d.lang]
		if ix == nil {
			ix = newTermIndex(nil)
			byLang[d.lang] = ix
		}
		ix.addTree(i, d)
		lang[e.Dir()] = d.lang
		sd.kinds[e.Dir()] = d.kinds
	}
	r.mu.Unlock()
	langs := slices.Sorted(maps.Keys(byLang))
	for dir, l := range lang {
		sd.group[dir] = slices.Index(langs, l)
	}
	for _, l := range langs {
		plan, shards := byLang[l].shards(shardBytes)
		g := dirGroup{Lang: l, Base: layout.SearchDir(l), Shards: plan}
		for _, p := range plan {
			t := shards[p]
			js := t.appendJSON(appendScriptStart(nil, "curexSearchDir", g.Base+" "+p))
			if err := w.Write(shard.File(g.Base, p), append(js, scriptEnd...)); err != nil {
				return nil, err
			}
		}
		sd.groups = append(sd.groups, g)
	}
	return sd, nil
}

// addTree adds the stems of d, export number id, to a directory's
// index: exports come in order, so each stem's postings stay sorted.
func (x *termIndex) addTree(id int, d *dirTree) {
	for stem, c := range d.best {
		tp := x.posts[stem]
		if tp == nil {
			tp = &termPosts{}
			x.posts[stem] = tp
		}
		tp.posts = append(tp.posts, id<<3|c)
	}
	for stem, ws := range d.words {
		have := x.words[stem]
		if have == nil {
			have = map[string]bool{}
			x.words[stem] = have
		}
		for w := range ws {
			have[w] = true
		}
	}
}

// dirFromFiles reads the directory's part of the tree of e from its
// index as a run wrote it (search-index.js and its terms files, read
// through read): what RenderTree's index gave, without indexing again.
func dirFromFiles(e model.Export, read func(rel string) ([]byte, error)) (*dirTree, error) {
	var head searchHead
	if err := readSearchScript(read, layout.SearchScript(e), &head); err != nil {
		return nil, err
	}
	d := &dirTree{lang: head.Stem, best: map[string]int{}, words: map[string]map[string]bool{}}
	for _, p := range head.Shards {
		var st searchTerms
		if err := readSearchScript(read, layout.SearchTerms(e, shard.File(head.Terms, p)), &st); err != nil {
			return nil, err
		}
		for stem, posts := range st.Terms {
			b := d.best[stem]
			for _, v := range posts {
				if c := fileClass(v); weighs(c) > weighs(b) {
					b = c
				}
			}
			d.best[stem] = b
		}
		for stem, ws := range st.Words {
			set := map[string]bool{}
			for _, w := range strings.Fields(ws) {
				set[w] = true
			}
			d.words[stem] = set
		}
	}
	folded := make([]string, len(head.Types))
	for i, t := range head.Types {
		folded[i] = terms.Fold(t)
	}
	d.kinds = strings.Join(folded, "\n")
	return d, nil
}

// readSearchScript decodes into v the value a search script (as
// searchScript and appendScriptStart write it) stores, read from rel.
func readSearchScript(read func(rel string) ([]byte, error), rel string, v any) error {
	b, err := read(rel)
	if err != nil {
		return err
	}
	// (window.G=window.G||{})["key"]=VALUE;\n
	_, rest, ok := bytes.Cut(b, []byte("||{})["))
	if !ok || !bytes.HasSuffix(rest, []byte(scriptEnd)) {
		return fmt.Errorf("%s: not a search script", rel)
	}
	dec := json.NewDecoder(bytes.NewReader(rest))
	var key string
	if err := dec.Decode(&key); err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	value := rest[dec.InputOffset():]
	value, ok = bytes.CutPrefix(value, []byte("]="))
	if !ok {
		return fmt.Errorf("%s: not a search script", rel)
	}
	if err := json.Unmarshal(bytes.TrimSuffix(value, []byte(scriptEnd)), v); err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	return nil
}
