package exporter_test

import (
	"archive/zip"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// TestDisplayMathOnOneLineEveryFormat exports the sample's Algebra 1
// (Texas, English) with issue 25's display formulas on lines of their own
// added to its appendix, "$$y = 2x + 1$$" followed on the next line by a
// paragraph, "\[m = 2\]" followed by an image, and a second "$$" block,
// through every format that shows math (website, handbook, EPUB,
// cartridge): in each, every formula is its own display block holding
// only its TeX, the paragraph and the image are their own, and nothing
// fails to convert. Before the fix, the first formula took the paragraph
// as its TeX, the second drew the image's text as letters, and two blocks
// in one description failed with "Can't use function '$' in math mode".
func TestDisplayMathOnOneLineEveryFormat(t *testing.T) {
	t.Parallel()
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	const added = "$$y = 2x + 1$$\nThe slope is 2 and the intercept is 1.\n\\[m = 2\\]\n" +
		"![A rising line](https://sandbox.invalid/images/water-cycle.png)\n\n$$b = 1$$\nThe line ends here."
	found := false
	for i := range ds.Curricula {
		c := &ds.Curricula[i]
		for j := range c.Nodes {
			if c.ID != "101" || c.Nodes[j].ID != "alg-app-a" {
				continue
			}
			var desc string
			if err := json.Unmarshal(c.Nodes[j].Attributes["description"], &desc); err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(desc + "\n\n" + added)
			c.Nodes[j].Attributes["description"] = raw
			found = true
		}
	}
	if !found {
		t.Fatal("the sample has no node alg-app-a in curriculum 101")
	}
	h, err := sandboxtest.New(t.Name(), ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(h)
	t.Cleanup(server.Close)
	out := filepath.Join(t.TempDir(), "out")
	sum, err := exporter.Run(context.Background(), exporter.Config{BaseURL: server.URL, Token: token, Output: out, Limits: ratelimit.Limits{},
		Generator: "curex test", Formats: []string{"html", "handbook", "epub", "cartridge"},
		Filter: fetch.Filter{Curricula: []string{"101"}, Variants: []string{"Texas"}, Locales: []string{"en"}}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Partial() || sum.Written == 0 {
		t.Fatalf("written %d, failures %v", sum.Written, sum.Failures)
	}
	if sum.MathErrors != 0 {
		t.Errorf("summary counts %d math errors, want none", sum.MathErrors)
	}
	data, err := os.ReadFile(filepath.Join(out, output.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var m output.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Exports) != 1 {
		t.Fatalf("%d exports, want 1", len(m.Exports))
	}
	e := m.Exports[0]
	hb, err := os.ReadFile(filepath.Join(out, e.Handbook))
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{
		"website":   findFile(t, filepath.Join(out, filepath.Dir(e.HTML)), "alg-app-a/index.html"),
		"handbook":  string(hb),
		"EPUB":      zipText(t, filepath.Join(out, e.EPUB), "The slope is 2"),
		"cartridge": zipText(t, filepath.Join(out, e.Cartridge), "The slope is 2"),
	}
	for format, doc := range docs {
		for _, want := range []string{
			`<annotation encoding="application/x-tex">y = 2x + 1</annotation></semantics></math></div>`,
			`<p>The slope is 2 and the intercept is 1.</p>`,
			`<annotation encoding="application/x-tex">m = 2</annotation></semantics></math></div>`,
			`<annotation encoding="application/x-tex">b = 1</annotation></semantics></math></div>`,
			`<p>The line ends here.</p>`,
		} {
			if !strings.Contains(doc, want) {
				i := strings.Index(doc, "y = 2x + 1")
				t.Errorf("%s lacks %s: %.1500s", format, want, doc[max(i-200, 0):])
			}
		}
		// The image is its own paragraph after the formula: an <img>, or
		// the link that stands for an image that could not be fetched.
		if !ownImage.MatchString(doc) {
			t.Errorf("%s lacks the image as a paragraph of its own after the formula", format)
		}
		for _, bad := range []string{`class="math-error"`, "rising line</annotation>", "slope is 2 and the intercept is 1.</annotation>", "<mi>R</mi><mi>i</mi>"} {
			if strings.Contains(doc, bad) {
				t.Errorf("%s holds %s", format, bad)
			}
		}
	}
}

// ownImage matches the image of TestDisplayMathOnOneLineEveryFormat, a paragraph
// of its own after the formula.
var ownImage = regexp.MustCompile(`</math></div>\s*<p><(img [^>]*alt="A rising line"|a [^>]*>A rising line</a>)`)

// zipText returns the text of the HTML and XHTML entries of the zip file
// at name that hold part, one after the other.
func zipText(t *testing.T, name, part string) string {
	t.Helper()
	zr, err := zip.OpenReader(name)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var b strings.Builder
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".html") && !strings.HasSuffix(f.Name, ".xhtml") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), part) {
			b.Write(data)
		}
	}
	if b.Len() == 0 {
		t.Fatalf("no HTML entry of %s holds %q", name, part)
	}
	return b.String()
}
