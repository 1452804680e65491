package markdown

import (
	"bytes"
	"encoding/json"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/model"
	"go.yaml.in/yaml/v3"
)

// nodeFrontMatter is a node page's front matter as a reader parses it.
type nodeFrontMatter struct {
	Title           string `yaml:"title"`
	Weight          int    `yaml:"weight"`
	ID              string `yaml:"id"`
	NodeType        string `yaml:"node_type"`
	NodeTypeDisplay string `yaml:"node_type_display"`
	NodeTypeIcon    string `yaml:"node_type_icon"`
	OrdinalLabel    string `yaml:"ordinal_label"`
	TypeDisplay     string `yaml:"type_display"`
	Position        int    `yaml:"position"`
	Depth           int    `yaml:"depth"`
	WorkflowStatus  string `yaml:"workflow_status"`
	Draft           bool   `yaml:"draft"`
	Inheritance     struct {
		Inherited        bool   `yaml:"inherited"`
		SourceCurriculum string `yaml:"source_curriculum"`
		OverrideLevel    int    `yaml:"override_level"`
	} `yaml:"inheritance"`
	Translation struct {
		Translated   bool   `yaml:"translated"`
		Status       string `yaml:"status"`
		SourceLocale string `yaml:"source_locale"`
	} `yaml:"translation"`
	Parent         string   `yaml:"parent"`
	Locale         string   `yaml:"locale"`
	Variant        string   `yaml:"variant"`
	Curriculum     string   `yaml:"curriculum"`
	CurriculumID   string   `yaml:"curriculum_id"`
	VariantChain   []string `yaml:"variant_chain"`
	TranslationKey string   `yaml:"translationKey"`
}

// rootFrontMatter is the root page's front matter.
type rootFrontMatter struct {
	Title         string   `yaml:"title"`
	Curriculum    string   `yaml:"curriculum"`
	CurriculumID  string   `yaml:"curriculum_id"`
	Variant       string   `yaml:"variant"`
	VariantID     string   `yaml:"variant_id"`
	VariantChain  []string `yaml:"variant_chain"`
	Locale        string   `yaml:"locale"`
	PrimaryLocale string   `yaml:"primary_locale"`
	ETag          string   `yaml:"etag"`
	ResolvedAt    string   `yaml:"resolved_at"`
	NodeCount     int      `yaml:"node_count"`
	Generator     string   `yaml:"generator"`
}

// decodeYAML parses front matter strictly: unknown keys fail.
func decodeYAML(tb testing.TB, yml string, v any) {
	tb.Helper()
	dec := yaml.NewDecoder(strings.NewReader(yml))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		tb.Fatalf("front matter does not parse: %v\n%.2000s", err, yml)
	}
}

// valid is s as it reads back: invalid UTF-8 as U+FFFD.
func valid(s string) string { return strings.Map(func(r rune) rune { return r }, s) }

// wantFrontMatter is the front matter of n, a root node of t.
func wantFrontMatter(t *model.Tree, n *model.Node, weight int, hugo bool) nodeFrontMatter {
	var fm nodeFrontMatter
	fm.Title, fm.Weight, fm.ID = valid(n.Title), weight, valid(n.ID)
	fm.NodeType, fm.NodeTypeDisplay, fm.NodeTypeIcon = valid(n.NodeType.Name), valid(n.NodeType.DisplayName), valid(n.NodeType.Icon)
	fm.OrdinalLabel, fm.TypeDisplay = valid(n.OrdinalLabel), valid(n.TypeDisplay)
	fm.Position, fm.Depth, fm.WorkflowStatus, fm.Draft = n.Position, n.Depth, valid(n.WorkflowStatus), !n.Published()
	fm.Inheritance.Inherited = n.Inheritance.IsInherited
	fm.Inheritance.SourceCurriculum = valid(n.Inheritance.SourceCurriculum)
	fm.Inheritance.OverrideLevel = n.Inheritance.OverrideLevel
	fm.Translation.Translated = n.Translation.IsTranslated
	fm.Translation.Status = valid(n.Translation.Status)
	fm.Translation.SourceLocale = valid(n.Translation.SourceLocale)
	fm.Locale, fm.Variant = valid(t.Locale), valid(t.Variant)
	fm.Curriculum, fm.CurriculumID = valid(t.CurriculumName), valid(t.CurriculumID)
	for _, s := range t.VariantChain {
		fm.VariantChain = append(fm.VariantChain, valid(s))
	}
	if hugo {
		fm.TranslationKey = valid(n.ID)
	}
	return fm
}

// everyField fills every string of a node and of its tree with s.
func everyField(s string) *model.Tree {
	n := testNode(s, s)
	n.NodeType = model.NodeType{Name: s, DisplayName: s, Icon: s}
	n.OrdinalLabel, n.TypeDisplay, n.WorkflowStatus = s, s, s
	n.Position, n.Depth = 7, 3
	n.Inheritance = model.Inheritance{IsInherited: true, SourceCurriculum: s, OverrideLevel: 2}
	n.Translation = model.Translation{IsTranslated: true, Status: s, SourceLocale: s}
	tr := testTree(n)
	tr.CurriculumName, tr.CurriculumID, tr.Variant, tr.VariantID = s, s, s, s
	tr.Locale, tr.PrimaryLocale, tr.ETag = s, s, s
	tr.VariantChain = []string{s, "", s + s}
	return tr
}

// TestFrontMatterRoundTrip writes every hostile string into every field and
// parses the front matter back with go.yaml.in/yaml/v3.
func TestFrontMatterRoundTrip(t *testing.T) {
	for _, s := range hostile {
		for _, hugo := range []bool{false, true} {
			tr := everyField(s)
			checkFrontMatter(t, tr, Options{Hugo: hugo, Generator: s})
		}
	}
	// A 1 MB title of quotes, backslashes and line breaks.
	tr := testTree(testNode("big", strings.Repeat("x\"\\\n", 1<<18)))
	checkFrontMatter(t, tr, Options{})
}

// checkFrontMatter writes tr, whose one root node has no children, and
// checks that the front matter of both pages reads back as written.
func checkFrontMatter(t *testing.T, tr *model.Tree, o Options) {
	t.Helper()
	w, e := write(t, tr, o)
	files := w.bundleFiles(e)
	root := "index.md"
	if o.Hugo {
		root = "_index.md"
	}
	var name string
	for k := range files {
		if k != root && k != "SUMMARY.md" {
			name = k
		}
	}
	yml, _ := splitFrontMatter(t, files[name])
	var got nodeFrontMatter
	decodeYAML(t, yml, &got)
	want := wantFrontMatter(tr, tr.Nodes[0], 1, o.Hugo)
	if !equalJSON(got, want) {
		t.Errorf("front matter of %.60q reads back as\n%+.400v\nwant\n%+.400v", tr.Nodes[0].Title, got, want)
	}

	yml, _ = splitFrontMatter(t, files[root])
	var r rootFrontMatter
	decodeYAML(t, yml, &r)
	wantRoot := rootFrontMatter{
		Title: valid(strings.Join(tr.VariantChain, " › ")), Curriculum: valid(tr.CurriculumName),
		CurriculumID: valid(tr.CurriculumID), Variant: valid(tr.Variant), VariantID: valid(tr.VariantID),
		Locale: valid(tr.Locale), PrimaryLocale: valid(tr.PrimaryLocale), ETag: valid(tr.ETag),
		ResolvedAt: "2026-02-24T18:20:00Z", NodeCount: 1, Generator: valid(o.Generator),
	}
	for _, s := range tr.VariantChain {
		wantRoot.VariantChain = append(wantRoot.VariantChain, valid(s))
	}
	if !equalJSON(r, wantRoot) {
		t.Errorf("root front matter reads back as\n%+.400v\nwant\n%+.400v", r, wantRoot)
	}
}

func equalJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// TestFrontMatterOrder checks the keys and their order, which readers may
// rely on, and that the YAML is one key or item a line.
func TestFrontMatterOrder(t *testing.T) {
	w, e := write(t, testTree(testNode("n1", "One")), Options{Hugo: true})
	yml, _ := splitFrontMatter(t, w.bundleFiles(e)["01-one.md"])
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(yml), &doc); err != nil {
		t.Fatal(err)
	}
	var keys []string
	m := doc.Content[0]
	for i := 0; i < len(m.Content); i += 2 {
		keys = append(keys, m.Content[i].Value)
	}
	want := []string{
		"title", "weight", "id", "node_type", "node_type_display", "node_type_icon", "ordinal_label",
		"type_display", "position", "depth", "workflow_status", "draft", "inheritance", "translation",
		"parent", "locale", "variant", "curriculum", "curriculum_id", "variant_chain", "translationKey",
	}
	if !slices.Equal(keys, want) {
		t.Errorf("keys %q\nwant %q", keys, want)
	}
}

// FuzzFrontMatter writes a node whose title, id and one attribute come from
// the fuzzer, with a child, and checks that paths stay inside the bundle,
// that the front matter reads back as written, that every link resolves
// and that the pages' headings and links show the titles.
func FuzzFrontMatter(f *testing.F) {
	for i, s := range hostile {
		f.Add(s, hostile[(i+3)%len(hostile)], hostile[(i+7)%len(hostile)], hostile[(i+11)%len(hostile)])
	}
	f.Fuzz(func(t *testing.T, title, id, key, value string) {
		child := testNode(id+"/c", value)
		child.TypeDisplay, child.OrdinalLabel = "", key
		n := testNode(id, title, child)
		raw, _ := json.Marshal(value)
		n.Attributes[key] = raw
		tr := testTree(n)
		tr.VariantChain = []string{title, value}
		tr.CurriculumName = key
		for _, hugo := range []bool{false, true} {
			w, e := write(t, tr, Options{Hugo: hugo})
			for _, rel := range w.names() {
				if !safeRel(e, rel) {
					t.Fatalf("unsafe path %q", rel)
				}
			}
			files := w.bundleFiles(e)
			if len(files) != 4-boolInt(hugo) {
				t.Fatalf("%d files", len(files))
			}
			// Links of the tables of contents; the node pages' child links
			// are checked below (their attribute may hold any link).
			checkLinksOf(t, files, func(name string) bool { return !strings.Contains(name, "/") })
			for name, data := range files {
				if name == "SUMMARY.md" {
					continue
				}
				yml, body := splitFrontMatter(t, data)
				if name == "index.md" || name == "_index.md" {
					var r rootFrontMatter
					decodeYAML(t, yml, &r)
					if r.Title != valid(title+" › "+value) || r.Curriculum != valid(key) {
						t.Fatalf("root front matter %+v", r)
					}
					continue
				}
				var fm nodeFrontMatter
				decodeYAML(t, yml, &fm)
				nd := child
				if base := path.Base(name); base == "index.md" || base == "_index.md" {
					nd = n
				}
				want := wantFrontMatter(tr, nd, 1, hugo)
				want.Parent = fm.Parent
				if nd == child {
					want.Parent = valid(n.ID)
					want.Depth = 0
				}
				if !equalJSON(fm, want) {
					t.Fatalf("%s: front matter\n%+v\nwant\n%+v", name, fm, want)
				}
				info := inspect(t, renderHTML(t, body))
				if !hugo {
					if h := info.headings[1]; len(h) < 1 || h[0] != shown(nd.Title, nd.ID) {
						t.Fatalf("%s: h1 %q, want %q", name, h, shown(nd.Title, nd.ID))
					}
				}
				if nd == n {
					last := info.items[len(info.items)-1]
					wantText := normTitle("Lesson "+key) + ": " + shown(child.Title, child.ID)
					if len(last) != 1 || last[0].text != wantText || files[dirJoin(name, last[0].href)] == nil {
						t.Fatalf("%s: child link %q, want one link showing %q", name, last, wantText)
					}
				}
			}
		}
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// dirJoin resolves href against the folder of the file name.
func dirJoin(name, href string) string {
	return join(dirOf(name), href)
}
