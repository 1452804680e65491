package handbook

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/golden"
)

// styleMarker stands in the handbook goldens for the style sheet every
// handbook inlines, which testdata/handbook.golden.css holds once.
const styleMarker = "/* the style sheet: testdata/handbook.golden.css (TestGolden) */"

// TestGolden compares the handbooks of two sample exports with
// testdata/: Spanish (left to right, one fallback node) and the Houston ISD
// variant in Arabic (right to left, many fallback nodes, two variant
// levels). The style sheet each inlines (the theme's handbook.css and the
// light style of highlighted code, the same in every handbook) is checked
// once, in handbook.golden.css, and stands as styleMarker in the others,
// so that their diffs show the documents.
func TestGolden(t *testing.T) {
	t.Parallel()
	r := newRenderer(t, Options{})
	sheet := string(r.css)
	if len(sheet) < 1000 {
		t.Fatalf("style sheet of %d bytes; the default handbook.css did not load", len(sheet))
	}
	golden.Check(t, filepath.Join("testdata", "handbook.golden.css"), []byte(sheet))
	for _, dir := range []string{"algebra-1/texas/es", "algebra-1/houston-isd/ar"} {
		t.Run(dir, func(t *testing.T) {
			tr, info := sample(t, dir)
			got := render(t, r, tr, info)
			checkDocument(t, got)
			if n := strings.Count(got, "<style>\n"+sheet+"\n"); n != 1 {
				t.Fatalf("the style sheet is inlined %d times, want once at the start of <style>", n)
			}
			got = strings.Replace(got, "<style>\n"+sheet+"\n", "<style>\n"+styleMarker+"\n", 1)
			golden.Check(t, filepath.Join("testdata", strings.ReplaceAll(dir, "/", "-")+".golden.html"), []byte(got))
		})
	}
}
