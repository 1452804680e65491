package cartridge

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/model"
	rendering "github.com/curex/curex/exporter/internal/render"
)

// xmlManifest is imsmanifest.xml as the tests read it, in any version's
// namespaces (check compares them with the version's).
type xmlManifest struct {
	XMLName        xml.Name `xml:"manifest"`
	Identifier     string   `xml:"identifier,attr"`
	SchemaLocation string   `xml:"http://www.w3.org/2001/XMLSchema-instance schemaLocation,attr"`
	Schema         string   `xml:"metadata>schema"`
	SchemaVersion  string   `xml:"metadata>schemaversion"`
	LOM            struct {
		Title    string   `xml:"general>title>string"`
		Language string   `xml:"general>language"`
		Desc     string   `xml:"general>description>string"`
		Keywords []string `xml:"general>keyword>string"`
		Date     string   `xml:"lifeCycle>contribute>date>dateTime"`
	} `xml:"metadata>lom"`
	Orgs []struct {
		Identifier string    `xml:"identifier,attr"`
		Structure  string    `xml:"structure,attr"`
		Items      []xmlItem `xml:"item"`
	} `xml:"organizations>organization"`
	Resources []xmlResource `xml:"resources>resource"`
}

type xmlItem struct {
	Identifier string    `xml:"identifier,attr"`
	Ref        string    `xml:"identifierref,attr"`
	Title      string    `xml:"title"`
	Items      []xmlItem `xml:"item"`
}

type xmlResource struct {
	Identifier string `xml:"identifier,attr"`
	Type       string `xml:"type,attr"`
	Href       string `xml:"href,attr"`
	Files      []struct {
		Href string `xml:"href,attr"`
	} `xml:"file"`
	Deps []struct {
		Ref string `xml:"identifierref,attr"`
	} `xml:"dependency"`
}

// archive is a cartridge opened: its entries by name, in order.
type archive struct {
	names []string
	files map[string][]byte
	man   xmlManifest
}

// open reads a cartridge and parses its manifest.
func open(t *testing.T, data []byte) *archive {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	a := &archive{files: map[string][]byte{}}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		a.names = append(a.names, f.Name)
		a.files[f.Name] = b
	}
	if err := xml.Unmarshal(a.files[ManifestFile], &a.man); err != nil {
		t.Fatalf("manifest: %v", err)
	}
	return a
}

// makeCartridge renders t with r.
func makeCartridge(t *testing.T, r *Renderer, tr *model.Tree) []byte {
	t.Helper()
	data, err := r.Build(&rendering.Tree{Tree: tr})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// node builds a published node whose attributes are the given JSON
// members.
func node(id, title string, attrs map[string]string, kids ...*model.Node) *model.Node {
	a := map[string]json.RawMessage{}
	for k, v := range attrs {
		a[k] = json.RawMessage(v)
	}
	return &model.Node{ID: id, Segment: id, Title: title, WorkflowStatus: model.StatusPublished,
		NodeType: model.NodeType{Name: "lesson", DisplayName: "Lesson"}, Attributes: a,
		Translation: model.Translation{IsTranslated: true}, Children: kids}
}

// tree builds a tree in locale from root nodes.
func tree(locale string, nodes ...*model.Node) *model.Tree {
	return &model.Tree{
		Export: model.Export{CurriculumID: "c1", CurriculumName: "Curriculum", Variant: "District", VariantID: "v1", Locale: locale,
			PrimaryLocale: "en", CurriculumSlug: "c", VariantSlug: "d", LocaleSlug: locale},
		VariantChain: []string{"Curriculum", "District"},
		ResolvedAt:   time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		Nodes:        nodes,
	}
}
