package html

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/golden"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/shard"
)

// searchTree is a small tree whose nodes hold every shape of attribute
// attrs.Parse knows, one node in another language than the tree's, and
// text that must stay data in a script.
func searchTree() (*SiteInfo, *model.Tree) {
	e := model.Export{CurriculumID: "c1", CurriculumName: "Álgebra", Locale: "es", PrimaryLocale: "en",
		CurriculumSlug: "algebra", VariantSlug: "base", LocaleSlug: "es"}
	c := &Curriculum{ID: "c1", Name: "Álgebra", Slug: "algebra", PrimaryLocale: "en",
		Locales:  []model.Locale{{Code: "en", Name: "English", Slug: "en", IsPrimary: true}, {Code: "es", Name: "Español", Slug: "es"}},
		Variants: []Variant{{ID: "c1", Slug: "base"}}, Exported: map[string]bool{"base/es": true}}
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	lesson := model.NodeType{Name: "lesson", DisplayName: "Lección"}
	translated := model.Translation{IsTranslated: true, Status: "translated", SourceLocale: "es"}
	t := &model.Tree{Export: e, Nodes: []*model.Node{
		{ID: "u1", Title: "Ecuaciones lineales", NodeType: model.NodeType{Name: "unit", DisplayName: "Unidad"}, OrdinalLabel: "1", Segment: "u1",
			Translation: translated,
			Attributes: map[string]json.RawMessage{
				"description":         raw(`"Resolver una **ecuación** con [una incógnita](https://example.org).\n\n` + "```" + `\ncode is left out\n` + "```" + `"`),
				"learning_objectives": raw(`["Despejar *x*.", "Comprobar la solución."]`),
				"estimated_minutes":   raw(`45`),
				"title":               raw(`"Ecuaciones lineales"`),
			},
			Children: []*model.Node{
				{ID: "l1", Title: "Variables", NodeType: lesson, OrdinalLabel: "1", Segment: "l1", Translation: translated,
					Attributes: map[string]json.RawMessage{
						"vocabulary": raw(`[{"term":"coeficiente","definition":"El factor **numérico** de un término."}]`),
						"standards":  raw(`["CCSS.MATH.CONTENT.HSA.REI.B.3"]`),
						"materials":  raw(`[{"item":"Pizarras","count":12},{"item":"Marcadores","count":24}]`),
						"resources":  raw(`[{"name":"Guía","url":"https://example.org/g","notes":{"level":"básico"}}]`),
						"assessment": raw(`{"type":"quiz","rubric":"Tres niveles: a < b & c","points":10,"passed":true}`),
						"broken":     raw(`{"unclosed":`),
						"warm_up":    raw(`"Piensa en un número."`),
					}},
				{ID: "l2", Title: "Sistemas", NodeType: lesson, OrdinalLabel: "2", Segment: "l2",
					Translation: model.Translation{Status: "fallback", SourceLocale: "en"},
					Attributes:  map[string]json.RawMessage{"description": raw(`"Two equations, two unknowns: 変数 and x."`)}},
			}},
	}}
	return &SiteInfo{Generator: "curex test", Curricula: []*Curriculum{c}}, t
}

// renderSearch renders tree t of site with chunks of chunk bytes and
// returns the files written.
func renderSearch(t *testing.T, site *SiteInfo, tree *model.Tree, chunk int) *memWriter {
	t.Helper()
	r, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.searchChunk = chunk
	w := newMemWriter()
	if err := r.RenderTree(context.Background(), w, site, tree, nil); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestSearchIndexGolden compares the search files of a small tree with
// every shape of attribute with testdata/search.golden.txt.
func TestSearchIndexGolden(t *testing.T) {
	t.Parallel()
	site, tree := searchTree()
	w := renderSearch(t, site, tree, 0)
	got := &golden.Archive{}
	for _, name := range w.names() {
		if base := filepath.Base(name); strings.HasPrefix(base, "search") {
			got.Files = append(got.Files, golden.File{Name: name, Data: w.files[name]})
		}
	}
	if len(got.Files) != 5 {
		t.Fatalf("search files: %d, want search.json, search-index.js, search-body-0.js, search-terms.js, search-titles-0.js", len(got.Files))
	}
	golden.CheckFiles(t, filepath.Join("testdata", "search.golden.txt"), got)
	js := string(w.files["algebra/base/es/search-body-0.js"])
	if strings.ContainsAny(js, "<>&") || !strings.Contains(js, `a \u003c b \u0026 c`) {
		t.Errorf("search text can end a script: %s", js)
	}
}

// TestSearchFields: every attribute with text gives a field, whole and
// plain; numbers, booleans, a repeated title and invalid JSON give none.
func TestSearchFields(t *testing.T) {
	t.Parallel()
	site, tree := searchTree()
	w := renderSearch(t, site, tree, 0)
	var index []searchEntry
	if err := json.Unmarshal(w.files["algebra/base/es/search.json"], &index); err != nil {
		t.Fatal(err)
	}
	fields := map[string]map[string]string{}
	for _, e := range index {
		fields[e.ID] = map[string]string{}
		for _, f := range e.Fields {
			fields[e.ID][f.Key] = f.Text
		}
	}
	for _, tc := range []struct {
		id, key, want string // want "" means no field
	}{
		{"u1", "description", "Resolver una ecuación con una incógnita."},
		{"u1", "learning_objectives", "Despejar x. · Comprobar la solución."},
		{"u1", "estimated_minutes", ""},
		{"u1", "title", ""},
		{"l1", "vocabulary", "coeficiente: El factor numérico de un término."},
		{"l1", "standards", "CCSS.MATH.CONTENT.HSA.REI.B.3"},
		{"l1", "materials", "Pizarras · Marcadores"},
		{"l1", "resources", "Guía · básico · https://example.org/g"},
		{"l1", "assessment", "Tres niveles: a < b & c · quiz"},
		{"l1", "broken", ""},
		{"l2", "description", "Two equations, two unknowns: 変数 and x."},
	} {
		got, ok := fields[tc.id][tc.key]
		if tc.want == "" {
			if ok {
				t.Errorf("%s.%s: field %q, want none", tc.id, tc.key, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%s.%s = %q, want %q", tc.id, tc.key, got, tc.want)
		}
	}
	for _, e := range index {
		if e.ID == "l2" && e.Lang != "en" {
			t.Errorf("fallback node l2: lang %q, want en", e.Lang)
		}
		if e.ID != "l1" {
			continue
		}
		labels := map[string]string{}
		for _, f := range e.Fields {
			labels[f.Key] = f.Label
		}
		// Known keys take the tree's language; others are humanized.
		if labels["vocabulary"] != "Vocabulario" || labels["standards"] != "Estándares" || labels["assessment"] != "Evaluación" || labels["warm_up"] != "Warm up" {
			t.Errorf("l1: labels %q, want the Spanish ones", labels)
		}
	}
}

// TestSearchChunks renders the sample's largest tree in small chunks:
// every node's fields are in exactly one chunk, in reading order, and the
// head names every chunk.
func TestSearchChunks(t *testing.T) {
	t.Parallel()
	f := sample(t, false)
	var tree *model.Tree
	for _, tr := range f.trees {
		if tree == nil || tr.Count() > tree.Count() {
			tree = tr
		}
	}
	for _, chunk := range []int{1, 600, 4000, 1 << 20} {
		t.Run(strconv.Itoa(chunk), func(t *testing.T) {
			r, err := New(Options{})
			if err != nil {
				t.Fatal(err)
			}
			r.searchChunk = chunk
			w := newMemWriter()
			if err := r.RenderTree(context.Background(), w, f.site, tree, f.outlines); err != nil {
				t.Fatal(err)
			}
			dir := tree.Dir()
			var head searchHead
			decodeScript(t, w.files[dir+"/search-index.js"], &head)
			if head.Count != tree.Count() || len([]rune(head.TypeOf)) != tree.Count() {
				t.Fatalf("head: %d nodes, %d types, want %d", head.Count, len([]rune(head.TypeOf)), tree.Count())
			}
			titled := 0
			for i, name := range head.Titles {
				var tf searchTitles
				decodeScript(t, w.files[dir+"/"+name], &tf)
				if name != "search-titles-"+strconv.Itoa(i)+".js" || tf.First != titled || tf.First != i*head.TitleNodes {
					t.Errorf("title file %d is %s, first %d, want first %d", i, name, tf.First, titled)
				}
				titled += len(tf.Nodes)
			}
			if titled != tree.Count() {
				t.Errorf("title files hold %d nodes, want %d", titled, tree.Count())
			}
			next := 0
			for i, name := range head.Body {
				if name != "search-body-"+strconv.Itoa(i)+".js" {
					t.Errorf("chunk %d is %s", i, name)
				}
				var c searchChunk
				decodeScript(t, w.files[dir+"/"+name], &c)
				if c.First != next || len(c.Nodes) == 0 {
					t.Errorf("chunk %d: first %d, %d nodes; want first %d and some", i, c.First, len(c.Nodes), next)
				}
				next = c.First + len(c.Nodes)
			}
			if next != tree.Count() {
				t.Errorf("chunks hold %d nodes, want %d", next, tree.Count())
			}
			if _, extra := w.files[dir+"/search-body-"+strconv.Itoa(len(head.Body))+".js"]; extra {
				t.Error("a chunk the head does not name")
			}
			switch {
			case chunk == 1 && len(head.Body) != tree.Count():
				t.Errorf("1-byte chunks: %d, want one per node (%d)", len(head.Body), tree.Count())
			case chunk == 1<<20 && len(head.Body) != 1:
				t.Errorf("1 MiB chunks: %d, want 1", len(head.Body))
			case chunk == 4000 && (len(head.Body) < 2 || len(head.Body) >= tree.Count()):
				t.Errorf("4 kB chunks: %d", len(head.Body))
			}
		})
	}
}

// decodeScript decodes the JSON a search script assigns.
func decodeScript(t *testing.T, js []byte, v any) {
	t.Helper()
	s := string(js)
	_, data, ok := strings.Cut(s, "]=")
	if !ok || !strings.HasSuffix(data, ";\n") {
		t.Fatalf("not a search script: %.80s", s)
	}
	if err := json.Unmarshal([]byte(strings.TrimSuffix(data, ";\n")), v); err != nil {
		t.Fatal(err)
	}
}

// TestSearchSampleFindsTeachersWords: the sample's lessons are found by
// their vocabulary, standards and objectives, in every chunk format, and
// drafts (filtered out before rendering) are in no index.
func TestSearchSampleFindsTeachersWords(t *testing.T) {
	t.Parallel()
	_, w := rendered(t)
	var index []searchEntry
	if err := json.Unmarshal(w.files["algebra-1/base/en/search.json"], &index); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(index, func(e searchEntry) bool { return e.ID == "alg-u1-l1" })
	if i < 0 {
		t.Fatal("alg-u1-l1 not in the index")
	}
	var all []string
	for _, f := range index[i].Fields {
		all = append(all, f.Key+"="+f.Text)
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{"vocabulary=variable: A letter", "coefficient: The numerical factor", "standards=CCSS.MATH.CONTENT.6.EE.A.2",
		"learning_objectives=Define variable, term, coefficient and constant."} {
		if !strings.Contains(text, want) {
			t.Errorf("alg-u1-l1: no %q in\n%s", want, text)
		}
	}
	body := string(w.files["algebra-1/base/en/search-body-0.js"])
	if !strings.Contains(body, "CCSS.MATH.CONTENT.6.EE.A.2") {
		t.Error("the browser's chunks lack the standards")
	}
	for dir, ids := range drafts {
		js := string(w.files[dir+"/search.json"]) + string(w.files[dir+"/search-index.js"])
		for _, id := range ids {
			if strings.Contains(js, `"`+id+`"`) || strings.Contains(js, `"`+id+`/index.html"`) {
				t.Errorf("%s: draft %s is in the search index", dir, id)
			}
		}
	}
}

// FuzzSearchIndex builds the search index of a node with arbitrary
// attributes and title (untrusted API content): the scripts stay data,
// with nothing that could end a string or a script, and decode back.
func FuzzSearchIndex(f *testing.F) {
	f.Add("Variables", `{"description":"A **variable**\u2028</script>","vocabulary":[{"term":"x","definition":"<b>"}]}`)
	f.Add("変数", `{"standards":["A.1"],"materials":[{"item":"&","n":1}],"deep":[[[[[[[[[["x"]]]]]]]]]]}`)
	f.Add("", `{"description":null,"broken":{"`)
	f.Fuzz(func(t *testing.T, title, attributes string) {
		var attrs map[string]json.RawMessage
		if json.Unmarshal([]byte(attributes), &attrs) != nil {
			attrs = map[string]json.RawMessage{"description": json.RawMessage(attributes)}
		}
		e := model.Export{CurriculumSlug: "c", VariantSlug: "base", LocaleSlug: "en", Locale: "en"}
		n := &model.Node{ID: "n1", Title: title, Segment: "n1", Attributes: attrs}
		flat := []*flatNode{{n: n, fields: nodeFields(n, nil, nil)}}
		files, err := buildSearch(e.Dir(), "c/base/en/index.html", flat, map[*model.Node]string{n: "c/base/en/n1/index.html"},
			func(*model.Node) string { return "" }, 1, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		scripts := append(append([][]byte{files.Head}, files.Body...), files.Titles...)
		for _, js := range files.Terms {
			scripts = append(scripts, js)
		}
		for _, js := range scripts {
			if strings.ContainsAny(string(js), "<>&\u2028\u2029") {
				t.Fatalf("script holds a character that could end it: %q", js)
			}
		}
		var head searchHead
		decodeScript(t, files.Head, &head)
		var tf searchTitles
		decodeScript(t, files.Titles[0], &tf)
		if head.Count != 1 || len(tf.Nodes) != 1 || tf.Nodes[0][0] != string([]rune(title)) {
			t.Errorf("head: %d nodes, titles %q, want the title %q", head.Count, tf.Nodes, title)
		}
		var c searchChunk
		decodeScript(t, files.Body[0], &c)
		if len(c.Nodes) != 1 || len(c.Nodes[0]) != 2*len(flat[0].fields) {
			t.Errorf("chunk: %v, want %d fields", c.Nodes, len(flat[0].fields))
		}
	})
}

// listed is one index of the site's list as a search box reads it.
type listed struct {
	ID                                       int
	Key, Lang, Curriculum, Variant, Language string
	Group                                    int
	Kinds                                    string
}

// readList reads the indexes a list (search-sources.js) searches from
// the site's list pages, as search.js does, each page once.
func readList(t *testing.T, files map[string][]byte, l searchList) []listed {
	t.Helper()
	var out []listed
	for k := l.First / l.Per; k*l.Per < l.First+l.Count; k++ {
		var page searchListPage
		decodeScript(t, files[layout.SearchSourcesPage(k)], &page)
		for j, e := range page.Sources {
			id := page.First + j
			if id < l.First || id >= l.First+l.Count {
				continue
			}
			s := listed{ID: id, Key: e[0].(string), Lang: e[1].(string), Group: int(e[2].(float64)),
				Curriculum: e[3].(string), Variant: e[4].(string), Language: e[5].(string)}
			for _, kd := range l.Kinds {
				for i := 0; i+1 < len(kd.IDs); i += 2 {
					if id >= kd.IDs[i] && id < kd.IDs[i]+kd.IDs[i+1] {
						s.Kinds = kd.Kinds
					}
				}
			}
			out = append(out, s)
		}
	}
	return out
}

// TestSearchSources: the catalog's search box searches every exported
// variant × locale of the site, a landing page's those of its
// curriculum: their lists (scripts beside the pages) name the ids, and
// the site's list pages each index (written), its directory group and
// its types; the words that name a variant and a language are the
// page's.
func TestSearchSources(t *testing.T) {
	t.Parallel()
	f, w := rendered(t)
	for _, tc := range []struct {
		page, script, prefix, from string
		named                      bool
	}{
		{"index.html", "search-sources.js", "", "From \x01, in \x02", true},
		{"algebra-1/index.html", "algebra-1/search-sources.js", "algebra-1/", "From \x01, in \x02", false},
	} {
		html := string(w.files[tc.page])
		if !strings.Contains(html, `data-sources="search-sources.js" data-sources-key="`+tc.script+`"`) || strings.Contains(html, "search__sources") {
			t.Errorf("%s: the box does not name its list %s", tc.page, tc.script)
		}
		var l searchList
		decodeScript(t, w.files[tc.script], &l)
		if l.From != tc.from || l.Named != tc.named || l.Base != "Base curriculum" {
			t.Errorf("%s: from %q, base %q, named %v", tc.script, l.From, l.Base, l.Named)
		}
		root := ""
		if tc.prefix != "" {
			root = "../"
		}
		if l.Root != root || l.Pages != root+layout.SearchSourcesPagePrefix {
			t.Errorf("%s: root %q, pages %q", tc.script, l.Root, l.Pages)
		}
		list := readList(t, w.files, l)
		want := 0
		for _, tr := range f.trees {
			if strings.HasPrefix(tr.Dir(), tc.prefix) {
				want++
			}
		}
		if len(list) != want || l.Count != want {
			t.Errorf("%s: %d sources (count %d), want %d", tc.script, len(list), l.Count, want)
		}
		found := false
		for _, s := range list {
			if _, ok := w.files[s.Key+"/"+layout.SearchScriptFile]; !ok || !strings.HasPrefix(s.Key, tc.prefix) {
				t.Errorf("%s: %s: no index, or not of this page's curricula", tc.script, s.Key)
			}
			found = found || s.Curriculum == "Algebra 1" && s.Variant == "Texas" && s.Language == "Español" && s.Lang == "es"
			if s.Group < 0 || s.Group >= len(l.Groups) || s.Kinds == "" {
				t.Errorf("%s: %s: group %d of %d, kinds %q", tc.script, s.Key, s.Group, len(l.Groups), s.Kinds)
				continue
			}
			g, dir := l.Groups[s.Group], root+l.Groups[s.Group].Key
			if _, ok := w.files[shard.File(g.Key, "")]; !ok || g.Dir != dir {
				t.Errorf("%s: %s: group %+v: its root shard is not written, or not linked from the page", tc.script, s.Key, g)
			}
		}
		if !found {
			t.Errorf("%s: no Algebra 1 · Texas in Español", tc.script)
		}
	}
}
