package epub

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzBook: whatever the titles and Markdown the API sends, every XML
// file of the book is well-formed, no script element gets in, and every
// manifest item is in the zip.
func FuzzBook(f *testing.F) {
	f.Add(hostile, "Solve $x^2$ ![a](https://img.example/a.png) [x](#n0)", "ar")
	f.Add("Unit", "<script>x</script> [a](../b) <!-- c --> &amp;", "ja")
	f.Add("", "| a |\n|---|\n| $\\frac{1}{2}$ |\n\n[^1]\n\n[^1]: note", "en")
	r := New(Options{})
	f.Fuzz(func(t *testing.T, title, markdown, locale string) {
		desc, err := json.Marshal(markdown)
		if err != nil {
			t.Skip()
		}
		tr := tree(locale, node(title, map[string]string{"description": string(desc)}, node(title+"2", nil)))
		tr.CurriculumName = title
		book, err := r.Render(tr, smallInfo(t))
		if err != nil {
			t.Fatal(err)
		}
		files := unzippedFiles(t, book)
		for name, data := range files {
			if strings.HasSuffix(name, ".xhtml") || strings.HasSuffix(name, ".opf") || strings.HasSuffix(name, ".xml") {
				wellFormed(t, name, data)
				if bytes.Contains(data, []byte("<script")) {
					t.Fatalf("%s holds a script element", name)
				}
			}
		}
		for _, it := range parseOPF(t, files).Items {
			if _, ok := files["EPUB/"+it.Href]; !ok {
				t.Fatalf("manifest item %s is not in the zip", it.Href)
			}
		}
	})
}
