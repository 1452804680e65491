package html

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDump writes the sample site to $CUREX_HTML_DUMP, for looking at it
// in a browser.
func TestDump(t *testing.T) {
	dir := os.Getenv("CUREX_HTML_DUMP")
	if dir == "" {
		t.Skip("set CUREX_HTML_DUMP=DIR to write the sample site there")
	}
	w := sample(t, false).render(t, Options{})
	for name, data := range w.files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
