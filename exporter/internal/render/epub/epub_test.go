package epub

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"path"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/golden"
	"github.com/curex/curex/exporter/internal/model"
)

// hostile is a title that tries every way out of XML text and attributes.
const hostile = "<script>alert(1)</script> & \"q\" 'a' ]]> \x01\x0b\ufffe"

// smallTree is a small book with what a book must handle: nesting, math,
// a local PNG, an image of a format EPUB does not require, a remote image,
// links to the website, to a missing anchor and to the web, and a hostile
// title.
func smallTree(locale string) *model.Tree {
	return tree(locale,
		node("Unit one", map[string]string{
			"description": `"Solve $x^2 = 4$. ![a red square](https://img.example/a.png) ![webp](https://img.example/b.webp) ![remote](https://img.example/c.jpg) [site](../unit-2/) [gone](#nowhere) [web](https://example.org/)"`,
		},
			node("Lesson one", map[string]string{"description": `"No math here."`},
				node("Deeper", map[string]string{"description": `"Still none."`})),
			node(hostile, nil)),
		node("Unit two", map[string]string{"description": `"Plain text."`}),
	)
}

func smallInfo(t testing.TB) Info {
	images, data := localImages(t)
	return Info{LocaleName: "English", ContentDate: smallTree("en").ResolvedAt, Images: images, ImageData: data, Generator: "curex test"}
}

// opf is the part of a package document the tests read.
type opf struct {
	XMLName  xml.Name `xml:"http://www.idpf.org/2007/opf package"`
	UniqueID string   `xml:"unique-identifier,attr"`
	Metadata struct {
		Identifier string `xml:"http://purl.org/dc/elements/1.1/ identifier"`
		Title      string `xml:"http://purl.org/dc/elements/1.1/ title"`
		Language   string `xml:"http://purl.org/dc/elements/1.1/ language"`
		Meta       []struct {
			Property string `xml:"property,attr"`
			Value    string `xml:",chardata"`
		} `xml:"meta"`
	} `xml:"metadata"`
	Items []struct {
		ID         string `xml:"id,attr"`
		Href       string `xml:"href,attr"`
		MediaType  string `xml:"media-type,attr"`
		Properties string `xml:"properties,attr"`
	} `xml:"manifest>item"`
	Spine struct {
		Direction string `xml:"page-progression-direction,attr"`
		Refs      []struct {
			IDRef string `xml:"idref,attr"`
		} `xml:"itemref"`
	} `xml:"spine"`
}

func (p *opf) meta(property string) []string {
	var out []string
	for _, m := range p.Metadata.Meta {
		if m.Property == property {
			out = append(out, m.Value)
		}
	}
	return out
}

func parseOPF(t testing.TB, files map[string][]byte) *opf {
	t.Helper()
	var p opf
	if err := xml.Unmarshal(files[PackagePath], &p); err != nil {
		t.Fatalf("package document: %v", err)
	}
	return &p
}

// wellFormed fails t unless data parses as strict XML.
func wellFormed(t testing.TB, name string, data []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("%s is not well-formed: %v", name, err)
		}
	}
}

// TestDeterministic: two renders of the same tree are the same bytes.
func TestDeterministic(t *testing.T) {
	for _, tr := range []*model.Tree{smallTree("en"), sampleTrees(t)[0]} {
		a, b := render(t, tr, smallInfo(t)), render(t, tr, smallInfo(t))
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: two renders differ", tr.Dir())
		}
	}
}

// TestContainer: mimetype comes first, stored, without extra field; every
// entry carries the content date; the container points at the package
// document; every manifest item is in the zip and every file is in the
// manifest.
func TestContainer(t *testing.T) {
	tr := smallTree("en")
	zr, files := unzip(t, render(t, tr, smallInfo(t)))
	first := zr.File[0]
	if first.Name != "mimetype" || first.Method != zip.Store || len(first.Extra) != 0 || string(files["mimetype"]) != MediaType {
		t.Fatalf("first entry %q method %d extra %d: %q", first.Name, first.Method, len(first.Extra), files["mimetype"])
	}
	for _, f := range zr.File {
		// The stored mimetype has only an MS-DOS time, to 2 seconds.
		if f.Name != "mimetype" && !f.Modified.Equal(tr.ResolvedAt) {
			t.Errorf("%s dated %v, want %v", f.Name, f.Modified, tr.ResolvedAt)
		}
		if strings.HasSuffix(f.Name, ".xhtml") || strings.HasSuffix(f.Name, ".opf") || strings.HasSuffix(f.Name, ".xml") {
			wellFormed(t, f.Name, files[f.Name])
		}
	}
	if !strings.Contains(string(files["META-INF/container.xml"]), `full-path="`+PackagePath+`"`) {
		t.Errorf("container.xml does not name %s", PackagePath)
	}
	p := parseOPF(t, files)
	inManifest := map[string]bool{"mimetype": true, "META-INF/container.xml": true, PackagePath: true}
	for _, it := range p.Items {
		name := path.Join(path.Dir(PackagePath), it.Href)
		if _, ok := files[name]; !ok {
			t.Errorf("manifest item %s (%s) is not in the zip", it.ID, name)
		}
		inManifest[name] = true
	}
	for name := range files {
		if !inManifest[name] {
			t.Errorf("%s is in the zip but not in the manifest", name)
		}
	}
	if len(p.Spine.Refs) != 4 { // title, nav, two units
		t.Errorf("spine has %d items, want 4", len(p.Spine.Refs))
	}
}

// TestEmpty: a tree without nodes is a book of a title page and a table
// of contents that lists it.
func TestEmpty(t *testing.T) {
	files := unzippedFiles(t, render(t, tree("en"), Info{}))
	for name, data := range files {
		if strings.HasSuffix(name, ".xhtml") || strings.HasSuffix(name, ".opf") {
			wellFormed(t, name, data)
		}
	}
	if p := parseOPF(t, files); len(p.Spine.Refs) != 2 {
		t.Errorf("spine has %d items, want the title page and the contents", len(p.Spine.Refs))
	}
	if !strings.Contains(string(files["EPUB/text/nav.xhtml"]), `<li><a href="title.xhtml">Curriculum · District</a></li>`) {
		t.Error("the table of contents does not list the title page")
	}
}

// TestMetadata: identifier, title, language, date and accessibility
// metadata say what the book is and holds.
func TestMetadata(t *testing.T) {
	tr := smallTree("en")
	p := parseOPF(t, unzippedFiles(t, render(t, tr, smallInfo(t))))
	if want := Identifier("c1", "v1", "en"); p.Metadata.Identifier != want || !strings.HasPrefix(want, "urn:uuid:") {
		t.Errorf("identifier %q, want %q", p.Metadata.Identifier, want)
	}
	if Identifier("c1", "v1", "en") == Identifier("c1", "v1", "es") || Identifier("c1", "v", "1en") == Identifier("c1", "v1", "en") {
		t.Error("two books share an identifier")
	}
	if p.Metadata.Title != "Curriculum · District" || p.Metadata.Language != "en" {
		t.Errorf("title %q language %q", p.Metadata.Title, p.Metadata.Language)
	}
	if got := p.meta("dcterms:modified"); len(got) != 1 || got[0] != "2026-03-04T05:06:07Z" {
		t.Errorf("dcterms:modified %q", got)
	}
	features := strings.Join(p.meta("schema:accessibilityFeature"), " ")
	for _, f := range []string{"structuralNavigation", "tableOfContents", "MathML", "alternativeText"} {
		if !strings.Contains(features, f) {
			t.Errorf("accessibilityFeature lacks %s: %s", f, features)
		}
	}
	if modes := strings.Join(p.meta("schema:accessMode"), " "); modes != "textual visual" {
		t.Errorf("accessMode %q, want textual and visual (the book has an image)", modes)
	}

	// A book with neither images nor math claims neither.
	plain := tree("en", node("Only", map[string]string{"description": `"Text."`}))
	p = parseOPF(t, unzippedFiles(t, render(t, plain, Info{})))
	features = strings.Join(p.meta("schema:accessibilityFeature"), " ")
	if strings.Contains(features, "MathML") || strings.Contains(features, "alternativeText") {
		t.Errorf("plain book claims %s", features)
	}
	if modes := strings.Join(p.meta("schema:accessMode"), " "); modes != "textual" {
		t.Errorf("plain book accessMode %q", modes)
	}
	if got := p.meta("dcterms:modified"); len(got) != 1 || got[0] != "1980-01-01T00:00:00Z" {
		t.Errorf("undated book: dcterms:modified %q, want the earliest zip time", got)
	}
}

func unzippedFiles(t testing.TB, book []byte) map[string][]byte {
	_, files := unzip(t, book)
	return files
}

// TestMathProperty: the mathml property is on the documents that hold
// MathML, and only on those.
func TestMathProperty(t *testing.T) {
	files := unzippedFiles(t, render(t, smallTree("en"), smallInfo(t)))
	for _, it := range parseOPF(t, files).Items {
		if it.MediaType != "application/xhtml+xml" {
			continue
		}
		has := bytes.Contains(files["EPUB/"+it.Href], []byte(`<math xmlns="http://www.w3.org/1998/Math/MathML"`))
		if has != strings.Contains(it.Properties, "mathml") {
			t.Errorf("%s: holds MathML %v, properties %q", it.Href, has, it.Properties)
		}
	}
}

// TestRTL: an Arabic book turns its pages right to left and every page is
// dir="rtl"; an English one neither.
func TestRTL(t *testing.T) {
	for _, tc := range []struct {
		locale string
		rtl    bool
	}{{"ar", true}, {"en", false}, {"ja", false}} {
		files := unzippedFiles(t, render(t, smallTree(tc.locale), smallInfo(t)))
		p := parseOPF(t, files)
		if got := p.Spine.Direction == "rtl"; got != tc.rtl {
			t.Errorf("%s: page-progression-direction %q", tc.locale, p.Spine.Direction)
		}
		for name, data := range files {
			if strings.HasSuffix(name, ".xhtml") && bytes.Contains(data, []byte(`<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="`+tc.locale+`" xml:lang="`+tc.locale+`" dir="rtl">`)) != tc.rtl {
				t.Errorf("%s: %s dir=rtl is not %v", tc.locale, name, tc.rtl)
			}
		}
	}
}

// TestStaysInside: images come from inside the book or become text, and
// links leave only for the web.
func TestStaysInside(t *testing.T) {
	files := unzippedFiles(t, render(t, smallTree("en"), smallInfo(t)))
	p1 := string(files["EPUB/text/p1.xhtml"])
	for _, want := range []string{
		`<img src="../images/img1.png" width="2" height="2" alt="a red square"/>`,
		`<span>site</span>`, `<span>gone</span>`, `href="https://example.org/"`,
	} {
		if !strings.Contains(p1, want) {
			t.Errorf("p1.xhtml lacks %s", want)
		}
	}
	for _, bad := range []string{`src="https://`, `b.webp"/>`, `href="../unit-2/"`, `href="#nowhere"`, `loading=`} {
		if strings.Contains(p1, bad) {
			t.Errorf("p1.xhtml holds %s", bad)
		}
	}
	// mimetype, container, package, nav, title page, style, two units,
	// one image, the math font (the small tree holds math).
	if len(files["EPUB/images/img1.png"]) == 0 || len(files) != 10 {
		t.Errorf("want one image copied; files: %d", len(files))
	}
}

// TestHostileTitle: a title made of markup is text everywhere.
func TestHostileTitle(t *testing.T) {
	tr := smallTree("en")
	tr.CurriculumName = hostile
	files := unzippedFiles(t, render(t, tr, smallInfo(t)))
	for name, data := range files {
		if strings.Contains(string(data), "<script") {
			t.Errorf("%s holds a script element", name)
		}
		if strings.HasSuffix(name, ".xhtml") || strings.HasSuffix(name, ".opf") {
			wellFormed(t, name, data)
		}
	}
	if !strings.Contains(string(files["EPUB/text/p1.xhtml"]), "&lt;script&gt;alert(1)&lt;/script&gt; &amp; ") {
		t.Error("the hostile node title is not escaped text in p1.xhtml")
	}
}

// TestGolden compares the text files of the small book with
// testdata/small.txtar.
func TestGolden(t *testing.T) {
	files := unzippedFiles(t, render(t, smallTree("ar"), smallInfo(t)))
	text := map[string][]byte{}
	for name, data := range files {
		if !strings.HasSuffix(name, ".png") && !strings.HasSuffix(name, ".css") {
			text[name] = data
		}
	}
	golden.CheckFiles(t, "testdata/small.txtar", golden.FromMap("The text files of smallTree(\"ar\")'s book.", text))
}

// TestFallbackLanguage: an untranslated node's section and its entry in
// the table of contents say which language they are in.
func TestFallbackLanguage(t *testing.T) {
	tr := smallTree("ar")
	tr.Nodes[1].Translation = model.Translation{IsTranslated: false, SourceLocale: "en"}
	files := unzippedFiles(t, render(t, tr, smallInfo(t)))
	if !strings.Contains(string(files["EPUB/text/nav.xhtml"]), `<a href="p2.xhtml#n4" lang="en" xml:lang="en">Lesson · Unit two</a>`) {
		t.Error("the contents entry of the untranslated node has no lang")
	}
	if !strings.Contains(string(files["EPUB/text/p2.xhtml"]), `<section id="n4" class="depth-0" lang="en" dir="ltr" xml:lang="en">`) {
		t.Error("the untranslated section has no lang and dir")
	}
}
