package exporter_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/curex/curex/exporter/internal/diskcache"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/render/content"
)

// TestExportKeepsHighlightedCode (issue 24 §6, issue 26 part 2): an export
// keeps the markup of every code block it highlighted in the cache
// folder's code/, one entry a block however many formats show it, each
// valid highlighting; a build reads them back (TestBuildFromCache checks
// that its bytes are the export's). Before, every format highlighted
// every block again, in every run.
func TestExportKeepsHighlightedCode(t *testing.T) {
	t.Parallel()
	shared := sampleExport(t)
	dir := layout.Cache(shared.Cache).Code()
	entries := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == diskcache.PrunedMark {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		body, ok := diskcache.Unframe("curex-code 1", data)
		if !ok || !content.ValidHighlight(body) {
			t.Errorf("%s is not an entry of highlighted code: %.80q", path, data)
		}
		entries++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if entries == 0 {
		t.Fatalf("no highlighted code kept in %s", dir)
	}
	t.Logf("%d blocks kept", entries)
}
