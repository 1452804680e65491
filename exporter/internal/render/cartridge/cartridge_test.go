package cartridge

import (
	"bytes"
	"encoding/xml"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/golden"
	"github.com/curex/curex/exporter/internal/model"
	rendering "github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/exporter/internal/testtrees"
)

const testSite = "https://curricula.example.org/"

// check verifies the structure of a cartridge against its tree: its version's
// namespaces and versions, every reference resolved, every file listed
// and present, the items following the tree, the pages well-formed.
func check(t *testing.T, tr *model.Tree, a *archive, links bool) {
	t.Helper()
	m := a.man
	v := Version11
	if m.SchemaVersion == "1.3.0" {
		v = Version13
	}
	p, s := profileOf(v), imsSchemas[v]
	if m.Schema != Schema || m.SchemaVersion != p.schemaVersion || m.XMLName.Space != p.cp {
		t.Errorf("schema %q %q in %q", m.Schema, m.SchemaVersion, m.XMLName.Space)
	}
	for _, want := range []string{p.cp, p.lomManifest, p.lomResource, s.cp, s.lomManifest} {
		if !strings.Contains(m.SchemaLocation, want) {
			t.Errorf("schemaLocation lacks %s", want)
		}
	}
	if m.Identifier != ManifestID(tr.Export) || m.LOM.Language != tr.Locale || m.LOM.Title == "" || m.LOM.Desc == "" {
		t.Errorf("metadata: id %q, lang %q, title %q, desc %q", m.Identifier, m.LOM.Language, m.LOM.Title, m.LOM.Desc)
	}
	if !slices.Equal(m.LOM.Keywords, chain(&rendering.Tree{Tree: tr})) {
		t.Errorf("keywords %q, want the chain %q", m.LOM.Keywords, tr.VariantChain)
	}
	if want := tr.ResolvedAt.UTC().Format("2006-01-02"); m.LOM.Date != want {
		t.Errorf("date %q, want %q", m.LOM.Date, want)
	}
	if a.names[0] != ManifestFile {
		t.Errorf("first entry %q", a.names[0])
	}
	res := map[string]xmlResource{}
	listed := map[string]bool{ManifestFile: true}
	ids := map[string]bool{}
	ncname := func(id string) {
		if id == "" || ids[id] || !(id[0] >= 'A' && id[0] <= 'Z') || strings.ContainsFunc(id, func(r rune) bool {
			return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_')
		}) {
			t.Errorf("identifier %q: empty, repeated or not an NCName", id)
		}
		ids[id] = true
	}
	for _, r := range m.Resources {
		ncname(r.Identifier)
		res[r.Identifier] = r
		if r.Href != "" && (len(r.Files) == 0 || r.Files[0].Href != r.Href) {
			t.Errorf("resource %s: href %q is not its first file", r.Identifier, r.Href)
		}
		for _, f := range r.Files {
			listed[f.Href] = true
			if _, ok := a.files[f.Href]; !ok {
				t.Errorf("resource %s: file %q not in the archive", r.Identifier, f.Href)
			}
		}
		math := false
		for _, d := range r.Deps {
			math = math || d.Ref == mathID
			if d.Ref != styleID && d.Ref != mathID {
				t.Errorf("resource %s depends on %q", r.Identifier, d.Ref)
			}
		}
		// A page that holds math links math.css and depends on it; no
		// other does.
		if page := string(a.files[r.Href]); r.Type == TypeWebContent && strings.HasPrefix(r.Href, PagesDir) {
			holds, links := strings.Contains(page, "<math"), strings.Contains(page, `href="../`+MathStyleFile+`"`)
			if holds != math || holds != links {
				t.Errorf("resource %s: holds math %v, links %s %v, depends on %s %v", r.Identifier, holds, MathStyleFile, links, mathID, math)
			}
		}
	}
	for _, name := range a.names {
		if !listed[name] {
			t.Errorf("file %q is in no resource", name)
		}
	}
	if len(m.Orgs) != 1 || m.Orgs[0].Structure != "rooted-hierarchy" || len(m.Orgs[0].Items) != 1 {
		t.Fatalf("organizations: %+v", m.Orgs)
	}
	root := m.Orgs[0].Items[0]
	ncname(root.Identifier)
	var walk func(items []xmlItem, nodes []*model.Node)
	page := func(it xmlItem, n *model.Node) {
		ncname(it.Identifier)
		r, ok := res[it.Ref]
		if !ok || r.Type != TypeWebContent || r.Href != PagesDir+n.Segment+".html" {
			t.Errorf("node %s: item %s refers to %q (%+v)", n.ID, it.Identifier, it.Ref, r)
			return
		}
		if want := nodeTitle(n, i18n.For(tr.Locale)); it.Title != want {
			t.Errorf("node %s: item title %q, want %q", n.ID, it.Title, want)
		}
		// Polyglot pages: well-formed XML.
		d := xml.NewDecoder(bytes.NewReader(a.files[r.Href]))
		d.Strict, d.Entity = true, nil
		for {
			if _, err := d.Token(); err != nil {
				if err.Error() != "EOF" {
					t.Errorf("page %s is not well-formed: %v", r.Href, err)
				}
				break
			}
		}
	}
	walk = func(items []xmlItem, nodes []*model.Node) {
		i := 0
		for _, n := range nodes {
			if i >= len(items) {
				t.Errorf("node %s has no item", n.ID)
				return
			}
			it := items[i]
			i++
			if len(n.Children) == 0 {
				page(it, n)
				if links {
					if i >= len(items) || res[items[i].Ref].Type != p.webLinkType {
						t.Errorf("node %s has no web link", n.ID)
						continue
					}
					ncname(items[i].Identifier)
					if !bytes.Contains(a.files[res[items[i].Ref].Files[0].Href], []byte(`href="`+testSite)) {
						t.Errorf("node %s: web link not on the site", n.ID)
					}
					i++
				}
				continue
			}
			if it.Ref != "" || len(it.Items) == 0 || it.Title != nodeTitle(n, i18n.For(tr.Locale)) {
				t.Errorf("node %s: folder item %+v", n.ID, it)
				continue
			}
			ncname(it.Identifier)
			page(it.Items[0], n)
			walk(it.Items[1:], n.Children)
		}
		if i != len(items) {
			t.Errorf("%d items more than nodes", len(items)-i)
		}
	}
	walk(root.Items, tr.Nodes)
}

// TestSampleCartridges builds the cartridge of every sample export,
// with and without web links, and checks each against its tree.
func TestSampleCartridges(t *testing.T) {
	set := testtrees.Sample(t)
	for _, links := range []bool{false, true} {
		o := Options{}
		if links {
			o.SiteURL = testSite
		}
		r := New(o)
		for _, full := range set.Trees {
			tr := full.PublishedOnly()
			t.Run(tr.Dir(), func(t *testing.T) {
				data := makeCartridge(t, r, tr)
				check(t, tr, open(t, data), links)
				if again := makeCartridge(t, New(o), tr); !bytes.Equal(data, again) {
					t.Error("two builds differ")
				}
			})
		}
	}
}

// TestImagesInside shows a kept image from inside the archive, listed
// with the page that shows it, referenced relatively, once.
func TestImagesInside(t *testing.T) {
	const url = "https://img.example.org/graph.png"
	kept := "assets/content/" + strings.Repeat("ab", 32) + ".png"
	r := New(Options{
		Images: func(u string) (content.Image, bool) {
			if u == url {
				return content.Image{Path: kept, Width: 4, Height: 3}, true
			}
			return content.Image{}, false
		},
		ImageData: func(p string) ([]byte, bool) { return []byte("PNG"), p == kept },
	})
	md := `"![A graph](` + url + `) and ![again](` + url + `) and ![remote](https://other.example.org/x.png)"`
	tr := tree("en", node("u1", "Unit", nil, node("l1", "Lesson", map[string]string{"description": md}), node("l2", "Other", map[string]string{"description": md})))
	a := open(t, makeCartridge(t, r, tr))
	check(t, tr, a, false)
	name := ImagesDir + strings.Repeat("ab", 32) + ".png"
	if string(a.files[name]) != "PNG" {
		t.Fatalf("image %s not in the archive: %q", name, a.names)
	}
	if n := strings.Count(strings.Join(a.names, "\n"), name); n != 1 {
		t.Errorf("image stored %d times", n)
	}
	page := string(a.files[PagesDir+"l1.html"])
	if !strings.Contains(page, `src="../`+name+`"`) || !strings.Contains(page, `src="https://other.example.org/x.png"`) {
		t.Errorf("page images: %s", page)
	}
}

// TestHostile keeps hostile titles escaped and hostile ids out of paths.
func TestHostile(t *testing.T) {
	evil := node("x", `</title><script>alert(1)</script>`, map[string]string{"description": `"<script>alert(2)</script> & <b>"`})
	evil.Segment = "evil-1a2b"
	evil.ID = "../../etc/passwd"
	tr := tree("en", evil)
	tr.VariantChain = []string{`A"><x>`, "B\x00\x1b"}
	tr.CurriculumID = `"><hack/>`
	a := open(t, makeCartridge(t, New(Options{SiteURL: testSite}), tr))
	check(t, tr, a, true)
	for name, data := range a.files {
		if strings.Contains(name, "..") || strings.HasPrefix(name, "/") || strings.Contains(name, "etc") {
			t.Errorf("unsafe entry %q", name)
		}
		if bytes.Contains(data, []byte("<script")) || bytes.Contains(data, []byte("<x>")) || bytes.Contains(data, []byte("<hack")) {
			t.Errorf("%s holds unescaped markup", name)
		}
	}
	if a.man.LOM.Keywords[1] != "B" {
		t.Errorf("control characters kept: %q", a.man.LOM.Keywords[1])
	}
}

// TestGolden compares a small cartridge (without its stylesheet) with
// testdata/small.txtar.
func TestGolden(t *testing.T) {
	tr := tree("es",
		node("unit-1", "Unidad 1", map[string]string{"description": `"Ecuaciones: $x^2 = 4$."`},
			node("lesson-1", "Lección 1", map[string]string{"learning_objectives": `["Resolver"]`, "estimated_minutes": "45"})),
		node("appendix", "Apéndice", nil))
	tr.Nodes[0].TypeDisplay = "Unidad 1"
	a := open(t, makeCartridge(t, New(Options{SiteURL: testSite}), tr))
	check(t, tr, a, true)
	files := maps.Clone(a.files)
	delete(files, StyleFile)
	golden.CheckFiles(t, filepath.Join("testdata", "small.txtar"), golden.FromMap("A small cartridge without its style.css.", files))
}

// TestFallbackLanguage marks untranslated pages of a translated cartridge
// with their content's language and a notice in the page's.
func TestFallbackLanguage(t *testing.T) {
	tr := testtrees.Sample(t).Find(t, "algebra-1/houston-isd/ar").PublishedOnly()
	a := open(t, makeCartridge(t, New(Options{}), tr))
	fallbacks := 0
	tr.Walk(func(n *model.Node) bool {
		page := string(a.files[PagesDir+n.Segment+".html"])
		lang := tr.FallbackLocale(n)
		has := strings.Contains(page, `<p class="fallback">`)
		if lang == "" {
			if has {
				t.Errorf("%s: a notice on a translated page", n.ID)
			}
			return true
		}
		fallbacks++
		if !has || !strings.Contains(page, `<div lang="`+lang+`" xml:lang="`+lang+`" dir="ltr">`) {
			t.Errorf("%s: untranslated (%s) page without its notice and language", n.ID, lang)
		}
		return true
	})
	if fallbacks == 0 {
		t.Fatal("the sample's Arabic variant has no untranslated node any more: pick another")
	}
}

// TestEmptyTree builds a cartridge of a tree without published nodes:
// the manifest, the stylesheet and an empty organization.
func TestEmptyTree(t *testing.T) {
	tr := tree("en")
	a := open(t, makeCartridge(t, New(Options{SiteURL: testSite}), tr))
	check(t, tr, a, true)
	if !slices.Equal(a.names, []string{ManifestFile, StyleFile}) {
		t.Errorf("entries %q", a.names)
	}
}
