package render

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/curex/curex/exporter/internal/localfile"
)

// TestReadTheme: the templates, assets and words are read; other files are not
// (a README of any kind passes), but a symlink anywhere is refused.
func TestReadTheme(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"footer.html": "{{define \"footer\"}}{{end}}", "assets/site.css": "body{}", "assets/icons/x.svg": `<svg xmlns="http://www.w3.org/2000/svg"/>`,
		"README.md": "# theme", "LICENSE": "\xff\xfe", "partials/x.html": "unused",
		"i18n/es.json": `{"next": "Adelante"}`, "i18n/README.md": "words", "i18n/old/fr.json": "unused",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := ReadTheme(context.Background(), localfile.OperatorRef(dir))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	if want := []string{"assets/icons/x.svg", "assets/site.css", "footer.html", "i18n/es.json"}; !slices.Equal(names, want) {
		t.Errorf("ReadTheme read %q, want %q", names, want)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "NOTICE")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTheme(context.Background(), localfile.OperatorRef(dir)); !errors.Is(err, localfile.ErrSymlink) {
		t.Errorf("a symlink in the theme: %v, want localfile.ErrSymlink", err)
	}
}
