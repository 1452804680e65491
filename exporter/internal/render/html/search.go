package html

import (
	"github.com/curex/curex/exporter/internal/render"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/curex/curex/exporter/internal/jsonstr"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/attrs"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/exporter/internal/render/shard"
	"github.com/curex/curex/exporter/internal/render/terms"
)

// searchChunkBytes is the size past which a chunk of the search text
// (layout.SearchBody) is closed and the next one started: the search box
// loads the small head file (titles, types, paths) at once, and a chunk
// for the snippet of each of the first results it shows (or, for a query
// with a substring term, those of the nodes that hold the term's keys,
// terms.AppendGrams), so a chunk is small: loading it
// for one result costs little more than that result's text.
const searchChunkBytes = 4 << 10

// searchShardBytes is the size past which the terms of an index are
// split by the start of their stems (package shard): a query loads the
// shards of its words only.
const searchShardBytes = 24 << 10

// excerptRunes is how much of a node's description search.json keeps in
// an entry's text, and the source of a node page's meta description.
const excerptRunes = 300

// searchField is one text attribute of a node in the search index: its
// key, its label in the tree's language and its plain text.
type searchField struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Text  string `json:"text"`
}

// searchEntry is one node in search.json (see docs/formats.md).
type searchEntry struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	TypeDisplay string `json:"type_display"`
	// Path is the node's page relative to the index's folder.
	Path string `json:"path"`
	// Lang is the language of the node's text when it is not the
	// tree's (a node shown in the primary locale, untranslated).
	Lang string `json:"lang,omitempty"`
	// Text is the start of the description (excerptRunes runes).
	Text string `json:"text"`
	// Fields holds every text attribute, whole, in the order of the
	// node's page.
	Fields []searchField `json:"fields,omitempty"`
}

// searchHead is the first file the search box loads (layout.SearchScript):
// the number of nodes, their types, and the files that hold the rest.
type searchHead struct {
	// Count is the number of nodes. Titles names the title files
	// (searchTitles, layout.SearchTitles), relative to the head's folder:
	// file k holds nodes k × TitleNodes to (k+1) × TitleNodes - 1, loaded
	// for the results shown.
	Count      int      `json:"count"`
	Titles     []string `json:"titles"`
	TitleNodes int      `json:"title_nodes"`
	// Labels are the field labels the chunks refer to by index.
	Labels []string `json:"labels"`
	// Body names the chunk files, relative to the head's folder, and
	// BodyFirst is the index of the first node of each: the search box
	// loads the chunks of the results it shows.
	Body      []string `json:"body"`
	BodyFirst []int    `json:"body_first"`
	// Types are the node types' names (unnumbered: "Lesson"), and TypeOf
	// the index in Types of each node's, one character a node (U+0030
	// "0" + the index): what the type filter offers, before any title is
	// in.
	Types  []string `json:"types"`
	TypeOf string   `json:"type_of"`
	// Terms is the start of the names of the terms files (searchTerms),
	// relative to the head's folder, and Shards the prefixes of the
	// stems that divide them (shard.Split: the file of prefix p is
	// shard.File(Terms, p)). Stem is the language of its stemmer
	// (terms.Language), "" when the words are not stemmed.
	Terms  string   `json:"terms"`
	Shards []string `json:"shards"`
	Stem   string   `json:"stem,omitempty"`
	// StemFile is the stemmer's script (stemmerAsset), relative to the
	// head's folder.
	StemFile string `json:"stem_file,omitempty"`
	// Rank are the indexes in Labels of the fields ranked above body
	// text: objectives, standards, vocabulary.
	Rank []int `json:"rank,omitempty"`
}

// searchTerms is one terms file of an index (layout.SearchTerms): an
// inverted index from each stem of one shard (the stems that begin with
// its prefix and no longer one of the plan) to the nodes that hold it.
type searchTerms struct {
	// Terms maps each stem to its postings, in node order, each the
	// distance from the node of the one before (from -1 for the first)
	// × 16 + a mark × 4 + the best field class that holds the stem
	// (classTitle, classRanked or classBody); the mark is, for a stem
	// found in the body only, the length of the node's body text
	// (lengthBucket), and for one found in the title, 1 when it is the
	// title's first word.
	Terms map[string][]int `json:"terms"`
	// Words maps a stem to the words of the text it stands for, space
	// separated, when they differ from it ("solv": "solve solves
	// solving"): what prefix matching and typo tolerance compare a
	// query's word with.
	Words map[string]string `json:"words,omitempty"`
}

// The field classes of a posting: where in the node a term was found.
const (
	classBody   = 1
	classRanked = 2
	classTitle  = 3
)

// lengthBucket is the length class of a body of words words: 0 under
// 100, 1 under 300, 2 under 1,000, 3 from there. The search box weighs a
// term found in the body a little less the longer the body (a long
// text holds more words, not more of what was asked).
func lengthBucket(words int) int {
	switch {
	case words < 100:
		return 0
	case words < 300:
		return 1
	case words < 1000:
		return 2
	}
	return 3
}

// rankedKeys are the attributes ranked with titles rather than body
// text: what names a lesson's aims and standards.
var rankedKeys = map[string]bool{attrs.KeyObjectives: true, "standards": true, "vocabulary": true, "key_terms": true, "objectives": true}

// titleNodes is the number of nodes of a title file: about 4 kB.
const titleNodes = 64

// searchTitles is one title file (layout.SearchTitles): the nodes First,
// First+1, ... as [title, type display, path] or [title, type display,
// path, lang] (when the node's text is in another language).
type searchTitles struct {
	First int        `json:"first"`
	Nodes [][]string `json:"nodes"`
}

// searchChunk is one file of the search text (layout.SearchBody): the
// fields of the nodes First, First+1, ... as [label index, text, label
// index, text, ...].
type searchChunk struct {
	First int     `json:"first"`
	Nodes [][]any `json:"nodes"`
}

// nodeFields returns the text attributes of n as plain text, labeled in
// the language of m: every section of attrs.Parse that holds text (Markdown
// made plain with content.PlainText; in the publisher's order, attrs.Order, terms as "term: definition", the
// text members of records and tables), in the order of the node's page.
// Numbers and booleans are left out: they are not what a reader types.
func nodeFields(n *model.Node, m i18n.Messages, order attrs.Order) []searchField {
	var out []searchField
	for _, s := range order.Parse(n.Attributes, n.Title) {
		if s.Value.Kind == attrs.Invalid {
			continue
		}
		var parts []string
		collectText(s.Value, &parts)
		text := strings.Join(parts, " · ")
		if text == "" {
			continue
		}
		label := m.AttributeLabel(s.Key)
		if label == "" {
			label = content.DefaultLabel(s.Key)
		}
		out = append(out, searchField{Key: s.Key, Label: label, Text: text})
	}
	return out
}

// collectText appends the plain texts of v to parts.
func collectText(v attrs.Value, parts *[]string) {
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			*parts = append(*parts, s)
		}
	}
	switch v.Kind {
	case attrs.Text:
		add(plainText(v.Text, 0))
	case attrs.JSON:
		add(v.Text)
	case attrs.Terms:
		for _, t := range v.Terms {
			add(term(t))
		}
	case attrs.List, attrs.Table, attrs.Records:
		for _, it := range v.Items {
			collectText(it, parts)
		}
	case attrs.Fields:
		if v.Pair != nil {
			add(term(*v.Pair))
			return
		}
		for _, f := range v.Fields {
			collectText(f.Value, parts)
		}
	}
}

// term is a term and its definition as one plain text.
func term(t attrs.Term) string {
	tt, d := plainText(t.Term, 0), plainText(t.Definition, 0)
	if d == "" {
		return tt
	}
	return tt + ": " + d
}

// descriptionText is the plain text of a node's description among its
// fields ("" when it has none).
func descriptionText(fs []searchField) string {
	for _, f := range fs {
		if f.Key == attrs.KeyDescription {
			return f.Text
		}
	}
	return ""
}

// cutRunes returns the first n runes of s, without trailing spaces.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return strings.TrimRight(s[:j], " ")
		}
		i++
	}
	return s
}

// searchFiles are the files of one tree's search index.
type searchFiles struct {
	// JSON is search.json, for programs.
	JSON []byte
	// Head is search-index.js, Titles the title files and Body the text
	// chunks, in order, and Terms the terms files by name
	// (search-terms.js, search-terms-<hex>.js).
	Head   []byte
	Titles [][]byte
	Body   [][]byte
	Terms  map[string][]byte
	// Dir is the site's search directory's part of the tree.
	Dir *dirTree
}

// buildSearch builds the search index of a tree whose nodes are flat (in
// reading order, each with its fields), its pages relative to the
// contents page toc, in chunks of about chunkBytes of text.
//
// st stems the words of the terms file (nil: words are their own
// stems).
//
// The terms split into shards of about shardBytes (package shard).
func buildSearch(key, toc string, flat []*flatNode, pages map[*model.Node]string, fallback func(*model.Node) string, chunkBytes, shardBytes int, st *terms.Stemmer) (*searchFiles, error) {
	entries := make([]searchEntry, 0, len(flat))
	head := searchHead{Count: len(flat), Titles: []string{}, TitleNodes: titleNodes, Labels: []string{}, Body: []string{}, BodyFirst: []int{},
		Terms: layout.SearchTermsBase, Types: []string{}}
	var titles []searchTitles
	var typeOf strings.Builder
	if st != nil {
		head.Stem = st.Language()
		head.StemFile = rel(toc, stemmerAsset(head.Stem))
	}
	labels, types := map[string]int{}, map[string]int{}
	ranked := map[int]bool{}
	ix := newTermIndex(st)
	var chunks []searchChunk
	var cur *searchChunk
	size := 0
	for i, f := range flat {
		n := f.n
		path := rel(toc, pages[n])
		lang := fallback(n)
		entries = append(entries, searchEntry{ID: n.ID, Title: n.Title, TypeDisplay: n.Label(), Path: path, Lang: lang,
			Text: cutRunes(descriptionText(f.fields), excerptRunes), Fields: f.fields})
		titles = titleRow(titles, i, n, path, lang)
		typeOf.WriteRune('0' + rune(typeIndex(&head, types, n)))
		ix.add(i, classTitle, n.Title)
		if cur == nil || size >= chunkBytes {
			chunks = append(chunks, searchChunk{First: i})
			cur = &chunks[len(chunks)-1]
			size = 0
		}
		body := make([]any, 0, 2*len(f.fields))
		for _, fd := range f.fields {
			li, ok := labels[fd.Label]
			if !ok {
				li = len(head.Labels)
				labels[fd.Label] = li
				head.Labels = append(head.Labels, fd.Label)
			}
			class := fieldClass(fd.Key)
			if class == classRanked {
				if !ranked[li] {
					ranked[li] = true
					head.Rank = append(head.Rank, li)
				}
			}
			ix.add(i, class, fd.Text)
			body = append(body, li, fd.Text)
			size += len(fd.Text) + 8
		}
		cur.Nodes = append(cur.Nodes, body)
	}
	head.TypeOf = typeOf.String()
	files, err := encodeSearch(key, entries, titles, chunks, &head, ix, shardBytes)
	if err != nil {
		return nil, err
	}
	files.Dir = ix.dirTree(head.Stem, head.Types)
	return files, nil
}

// titleRow adds node i (n, its page path and the language of its text
// when not the tree's) to the title files.
func titleRow(titles []searchTitles, i int, n *model.Node, path, lang string) []searchTitles {
	if i%titleNodes == 0 {
		titles = append(titles, searchTitles{First: i})
	}
	row := []string{n.Title, n.Label(), path}
	if lang != "" {
		row = append(row, lang)
	}
	t := &titles[len(titles)-1]
	t.Nodes = append(t.Nodes, row)
	return titles
}

// typeIndex is the index in head.Types of n's type name (unnumbered:
// "Lesson"), added when new (types indexes head.Types).
func typeIndex(head *searchHead, types map[string]int, n *model.Node) int {
	tn := typeName(n)
	ti, ok := types[tn]
	if !ok {
		ti = len(head.Types)
		types[tn] = ti
		head.Types = append(head.Types, tn)
	}
	return ti
}

// encodeSearch writes what buildSearch gathered: the JSON of every entry,
// the text chunks, the terms file and the head naming them. All but the
// head are written by the encoders of search_json.go.
func encodeSearch(key string, entries []searchEntry, titles []searchTitles, chunks []searchChunk, head *searchHead, ix *termIndex, shardBytes int) (*searchFiles, error) {
	out := &searchFiles{Terms: map[string][]byte{}}
	out.JSON = appendJSONEntries(nil, entries)
	for i := range titles {
		head.Titles = append(head.Titles, layout.SearchTitlesFile(i))
		js := appendScriptStart(nil, "curexSearchTitles", key+"#"+strconv.Itoa(i))
		js = titles[i].appendJSON(js)
		out.Titles = append(out.Titles, append(js, scriptEnd...))
	}
	for i := range chunks {
		head.Body = append(head.Body, layout.SearchBodyFile(i))
		head.BodyFirst = append(head.BodyFirst, chunks[i].First)
		js, err := chunks[i].appendJSON(appendScriptStart(nil, "curexSearchBody", key+"#"+strconv.Itoa(i)))
		if err != nil {
			return nil, err
		}
		out.Body = append(out.Body, append(js, scriptEnd...))
	}
	plan, shards := ix.shards(shardBytes)
	head.Shards = plan
	for _, p := range plan {
		t := shards[p]
		js := t.appendJSON(appendScriptStart(nil, "curexSearchTerms", key+" "+p))
		out.Terms[shard.File(head.Terms, p)] = append(js, scriptEnd...)
	}
	var err error
	if out.Head, err = searchScript("curexSearch", key, head); err != nil {
		return nil, err
	}
	return out, nil
}

// termIndex gathers the postings of a tree's words.
type termIndex struct {
	st *terms.Stemmer
	// posts holds each stem's postings, and seen every word met so far
	// with its stem's: a build stems each distinct word once (past its
	// first time a word costs one map lookup, not the Stemmer's lock
	// and memo) and adds it to its stem's words once.
	posts map[string]*termPosts
	seen  map[string]*termPosts
	words map[string]map[string]bool
	// body counts the words of each node's body text, by node index.
	body map[int]int
	// buf holds the words of the text add is indexing.
	buf []string
}

// termPosts are the postings of one stem, as termIndex.add keeps them.
type termPosts struct{ posts []int }

func newTermIndex(st *terms.Stemmer) *termIndex {
	return &termIndex{st: st, posts: map[string]*termPosts{}, seen: map[string]*termPosts{},
		words: map[string]map[string]bool{}, body: map[int]int{}}
}

// add indexes the words of text, found in node i in a field of class.
// Nodes come in order, so a stem's last posting is the node's if any.
// A posting is kept as node × 8 + 4 when the word begins a title + the
// class.
//
// The keys of its CJK runs (terms.AppendGrams) follow its words: they
// bound the nodes a substring search reads, and weigh as words do,
// though no word of a query matches them (search.js's words leave CJK
// out).
func (x *termIndex) add(i, class int, text string) {
	folded := terms.Fold(text)
	x.buf = terms.AppendWords(x.buf[:0], folded)
	if class == classBody {
		x.body[i] += len(x.buf)
	}
	words := len(x.buf)
	x.buf = terms.AppendGrams(x.buf, folded)
	for k, w := range x.buf {
		tp := x.seen[w]
		if tp == nil {
			tp = x.first(w)
		}
		v := i<<3 | class
		if k == 0 && words > 0 && class == classTitle {
			v |= 4
		}
		p := tp.posts
		switch {
		case len(p) > 0 && p[len(p)-1]>>3 == i:
			if p[len(p)-1]&3 < class || v&4 != 0 {
				p[len(p)-1] = v | p[len(p)-1]&4
			}
		default:
			tp.posts = append(p, v)
		}
	}
}

// first stems w, a word the index meets for the first time, and returns
// its stem's postings (new when the stem is); w joins the stem's words
// when it differs from it.
func (x *termIndex) first(w string) *termPosts {
	stem := x.st.Stem(w)
	tp := x.posts[stem]
	if tp == nil {
		tp = &termPosts{}
		x.posts[stem] = tp
	}
	x.seen[w] = tp
	if w != stem {
		ws := x.words[stem]
		if ws == nil {
			ws = map[string]bool{}
			x.words[stem] = ws
		}
		ws[w] = true
	}
	return tp
}

// shards splits the index into the terms files of shards of about max
// bytes: the plan (shard.Split) and each prefix's file.
func (x *termIndex) shards(max int) ([]string, map[string]searchTerms) {
	words := map[string]string{}
	for stem, ws := range x.words {
		words[stem] = strings.Join(slices.Sorted(maps.Keys(ws)), " ")
	}
	posts := make(map[string][]int, len(x.posts))
	sizes := make(map[string]int, len(x.posts))
	for stem, tp := range x.posts {
		p := tp.posts
		d := make([]int, len(p))
		prev := -1
		for i, v := range p {
			node, class := v>>3, v&3
			bucket := v >> 2 & 1 // a title's first word
			if class == classBody {
				bucket = lengthBucket(x.body[node])
			}
			d[i] = (node-prev)<<4 | bucket<<2 | class
			prev = node
		}
		posts[stem] = d
		// The postings' digits and commas, the stem twice (its postings
		// and its words), quoted, and the punctuation between.
		n := 2*len(stem) + len(words[stem]) + 10
		for _, v := range d {
			n += len(strconv.Itoa(v)) + 1
		}
		sizes[stem] = n
	}
	plan := shard.Split(sizes, max)
	out := make(map[string]searchTerms, len(plan))
	for _, p := range plan {
		out[p] = searchTerms{Terms: map[string][]int{}, Words: map[string]string{}}
	}
	for stem, d := range posts {
		s := out[shard.Of(plan, stem)]
		s.Terms[stem] = d
		if w, ok := words[stem]; ok {
			s.Words[stem] = w
		}
	}
	return plan, out
}

// searchScript is a script that stores v, as JSON, in
// window[global][key]. encoding/json escapes <, > and &, and U+2028 and
// U+2029: nothing in the data can end the string or the script.
func searchScript(global, key string, v any) ([]byte, error) {
	data, err := jsonMarshal(v)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(data)+len(global)*2+len(key)+32)
	b = appendScriptStart(b, global, key)
	b = append(b, data...)
	return append(b, scriptEnd...), nil
}

// appendScriptStart appends the start of a script that stores a value in
// window[global][key], as searchScript writes it: the value's JSON and
// scriptEnd follow.
func appendScriptStart(b []byte, global, key string) []byte {
	b = append(b, "(window."...)
	b = append(b, global...)
	b = append(b, "=window."...)
	b = append(b, global...)
	b = append(b, "||{})["...)
	b = jsonstr.AppendHTMLSafe(b, key)
	return append(b, "]="...)
}

// scriptEnd ends a script appendScriptStart began.
const scriptEnd = ";\n"

// writeSearch writes the tree's search index: layout.Search for programs,
// and for the search box layout.SearchScript (titles, types and paths)
// and the chunks of layout.SearchBody (every text attribute), scripts
// loaded with <script> elements so that search also works from file://,
// where fetch() is not allowed.
func (x *treeCtx) writeSearch(w render.Writer) error {
	chunk := x.r.searchChunk
	if chunk <= 0 {
		chunk = searchChunkBytes
	}
	var st *terms.Stemmer
	if lang := terms.Language(x.t.Export.Locale); lang != "" {
		var err error
		if st, err = x.r.stemmers.For(lang); err != nil {
			return err
		}
	}
	sh := x.r.searchShard
	if sh <= 0 {
		sh = searchShardBytes
	}
	files, err := buildSearch(x.dir, x.toc, x.flat, x.pages, x.t.FallbackLocale, chunk, sh, st)
	if err != nil {
		return err
	}
	x.r.keepDir(x.dir, files.Dir)
	for _, name := range slices.Sorted(maps.Keys(files.Terms)) {
		if err := w.Write(layout.SearchTerms(x.t.Export, name), files.Terms[name]); err != nil {
			return err
		}
	}
	if err := w.Write(layout.Search(x.t.Export), files.JSON); err != nil {
		return err
	}
	for i, b := range files.Body {
		if err := w.Write(layout.SearchBody(x.t.Export, i), b); err != nil {
			return err
		}
	}
	for i, b := range files.Titles {
		if err := w.Write(layout.SearchTitles(x.t.Export, i), b); err != nil {
			return err
		}
	}
	return w.Write(layout.SearchScript(x.t.Export), files.Head)
}

// searchSource is the search index of export e (in locale lang) as page
// p links it: the one index a page of a variant × locale searches.
func searchSource(p *Page, e model.Export, lang string) SearchSource {
	return SearchSource{
		Key: e.Dir(), Index: p.Href(layout.SearchScript(e)),
		Base: strings.TrimSuffix(p.Href(layout.ExportIndex(e)), layout.Index),
		Lang: lang,
	}
}

// stemmerAsset is the path of the stemmer of lang (a terms.Language
// code) in the site: assets/stem/<lang>.<hash>.js, named by its content
// like the theme's assets, so that it can be cached for good.
func stemmerAsset(lang string) string {
	js, _ := terms.Script(lang)
	return layout.Stemmer(hashed(lang+".js", js))
}

// writeStemmers writes the stemmer of each language the site's curricula
// are exported in (layout.Stemmer), for the search box to stem a query
// as the index was stemmed.
func writeStemmers(w render.Writer, site *SiteInfo) error {
	done := map[string]bool{}
	for _, c := range site.Curricula {
		for _, l := range c.Locales {
			lang := terms.Language(l.Code)
			if lang == "" || done[lang] {
				continue
			}
			done[lang] = true
			js, _ := terms.Script(lang)
			if err := w.Write(stemmerAsset(lang), js); err != nil {
				return err
			}
		}
	}
	return nil
}
