package epub

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/testtrees"
)

// localeNames are the sample dataset's locale names.
var localeNames = map[string]string{"en": "English", "es": "Español", "ar": "العربية", "ja": "日本語"}

// testPNG is a real 2×2 PNG, the copy of every image the tests resolve.
func testPNG(t testing.TB) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// localImages resolves every http(s) URL whose path ends in .png to a
// copy under assets/content, as the run's image store does, and serves
// its bytes; other URLs (".webp") resolve to a copy the book cannot hold.
func localImages(t testing.TB) (content.Images, func(string) ([]byte, bool)) {
	data := testPNG(t)
	images := func(url string) (content.Image, bool) {
		switch {
		case strings.HasSuffix(url, ".png"):
			return content.Image{Path: "assets/content/" + strings.Repeat("a", 64) + ".png", Width: 2, Height: 2}, true
		case strings.HasSuffix(url, ".webp"):
			return content.Image{Path: "assets/content/" + strings.Repeat("b", 64) + ".webp", Width: 2, Height: 2}, true
		}
		return content.Image{}, false
	}
	bytesOf := func(p string) ([]byte, bool) {
		if strings.HasPrefix(p, "assets/content/") {
			return data, true
		}
		return nil, false
	}
	return images, bytesOf
}

// sampleInfo is the Info the exporter would pass for a sample tree, with
// images resolved locally.
func sampleInfo(t testing.TB, tr *model.Tree) Info {
	images, data := localImages(t)
	return Info{LocaleName: localeNames[tr.Locale], ContentDate: tr.ResolvedAt, LocaleNames: localeNames,
		Images: images, ImageData: data, Generator: "curex test"}
}

// sampleTrees are the published trees of every sample export.
func sampleTrees(t testing.TB) []*model.Tree {
	t.Helper()
	var out []*model.Tree
	for _, tr := range testtrees.Sample(t).Trees {
		out = append(out, tr.PublishedOnly())
	}
	return out
}

func render(t testing.TB, tr *model.Tree, info Info) []byte {
	t.Helper()
	out, err := New(Options{}).Render(tr, info)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// node builds a published node whose attributes are the given JSON
// members.
func node(title string, attrs map[string]string, kids ...*model.Node) *model.Node {
	a := map[string]json.RawMessage{}
	for k, v := range attrs {
		a[k] = json.RawMessage(v)
	}
	return &model.Node{ID: "id-" + title, Title: title, WorkflowStatus: model.StatusPublished,
		NodeType: model.NodeType{Name: "lesson", DisplayName: "Lesson"}, Attributes: a,
		Translation: model.Translation{IsTranslated: true}, Children: kids}
}

// tree builds a tree in locale (primary "en") from root nodes.
func tree(locale string, nodes ...*model.Node) *model.Tree {
	return &model.Tree{
		Export: model.Export{CurriculumID: "c1", CurriculumName: "Curriculum", Variant: "District", VariantID: "v1",
			Locale: locale, PrimaryLocale: "en", CurriculumSlug: "c", VariantSlug: "d", LocaleSlug: strings.ToLower(locale)},
		VariantChain: []string{"Curriculum", "District"},
		ResolvedAt:   time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC),
		Nodes:        nodes,
	}
}

// unzip returns the entries of a book, in order.
func unzip(t testing.TB, book []byte) (*zip.Reader, map[string][]byte) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		if err != nil {
			t.Fatal(err)
		}
		_ = rc.Close()
		files[f.Name] = data
	}
	return zr, files
}
