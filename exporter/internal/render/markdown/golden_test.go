package markdown

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/golden"
)

// goldenExports are the sample exports kept as golden files: their file
// list, their tables of contents and a few representative node files.
var goldenExports = []struct {
	dir, golden string
	opts        Options
	files       []string
}{
	{
		dir: "algebra-1/texas/es", golden: "texas-es",
		files: []string{
			"index.md",
			"SUMMARY.md",
			"01-fundamentos-del-algebra/index.md", // a unit: section page
			"01-fundamentos-del-algebra/03-propiedades-de-los-numeros-reales/index.md", // table in the description, vocabulary
			"03-funciones-lineales/04-regresion-lineal-con-datos-reales.md",            // added by the variant
		},
	},
	{
		dir: "algebra-1/houston-isd/ar", golden: "houston-isd-ar",
		files: []string{
			"index.md",
			"01-أساسيات-الجبر/index.md", // Arabic: names in Arabic
			"01-أساسيات-الجبر/02-خصائص-الأعداد-الحقيقية/01-property-sort.md", // not translated: shown in English
		},
	},
	{
		dir: "introduction-to-computer-science/summer-intensive/en", golden: "cs-summer-intensive-en",
		files: []string{
			"04-data-and-databases/05-final-project-data-driven-web-page.md", // rubric as a table
		},
	},
	{
		dir: "algebra-1/texas/es", golden: "texas-es-hugo", opts: Options{Hugo: true, Generator: "curex test"},
		files: []string{
			"_index.md",
			"01-fundamentos-del-algebra/_index.md",
		},
	},
}

// TestGolden compares whole sample bundles with the files in testdata/:
// the list of files of each, and the contents of a few. Run
// "go test -update" to rewrite them after a deliberate change.
func TestGolden(t *testing.T) {
	for _, g := range goldenExports {
		t.Run(g.golden, func(t *testing.T) {
			w, e := write(t, sample(t, g.dir), g.opts)
			files := w.bundleFiles(e)
			names := make([]string, 0, len(files))
			for name := range files {
				names = append(names, name)
			}
			slices.Sort(names)
			golden.Check(t, filepath.Join("testdata", g.golden, "files.txt"), []byte(strings.Join(names, "\n")+"\n"))
			for _, name := range g.files {
				data, ok := files[name]
				if !ok {
					t.Errorf("no %s in the bundle; it has:\n%s", name, strings.Join(names, "\n"))
					continue
				}
				golden.Check(t, filepath.Join("testdata", g.golden, filepath.FromSlash(name)), data)
			}
		})
	}
}
