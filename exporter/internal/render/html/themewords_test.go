package html

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/localfile"
	"github.com/curex/curex/exporter/internal/render/i18n"
)

// TestThemeOverridesWordsOnWebsite: a theme's i18n/<locale>.json changes
// words on the website's pages in that locale (the tree's pages and the
// site-wide ones), and leaves the other locales' alone.
func TestThemeOverridesWordsOnWebsite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "i18n"), 0o755); err != nil {
		t.Fatal(err)
	}
	words := map[string]string{
		"es.json": `{"next": "Adelante", "skip": "Ir al texto"}`,
		"en.json": `{"site_title": "Our Courses"}`,
	}
	for name, data := range words {
		if err := os.WriteFile(filepath.Join(dir, "i18n", name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := sample(t, false).render(t, Options{ThemeDir: dir})
	tests := []struct {
		page      string
		want, not []string
	}{
		{"algebra-1/texas/es/alg-u1-l1/index.html",
			[]string{`<span>Adelante</span>`, `class="skip-link" href="#main">Ir al texto</a>`},
			[]string{`<span>Siguiente</span>`, `Saltar al contenido`}},
		{"algebra-1/texas/en/alg-u1-l1/index.html",
			[]string{`<span>Next</span>`, `Skip to content`},
			[]string{`Adelante`, `Ir al texto`}},
		{"index.html", []string{`<title>Our Courses</title>`}, []string{`<title>Curricula</title>`}},
	}
	for _, tc := range tests {
		data, ok := w.files[tc.page]
		if !ok {
			t.Errorf("%s not written", tc.page)
			continue
		}
		for _, s := range tc.want {
			if !strings.Contains(string(data), s) {
				t.Errorf("%s: no %q", tc.page, s)
			}
		}
		for _, s := range tc.not {
			if strings.Contains(string(data), s) {
				t.Errorf("%s: still %q", tc.page, s)
			}
		}
	}
}

// TestThemeWordsRejected: a theme word file with a key curex does not
// have is an error naming the file and the key, and a word file that is
// a symlink is refused by the gate of local files.
func TestThemeWordsRejected(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "i18n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "i18n", "fr.json"), []byte(`{"suivant": "Après"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := New(Options{ThemeDir: dir})
	var oe *i18n.OverrideError
	if !errors.As(err, &oe) || oe.File != "i18n/fr.json" || oe.Key != "suivant" || !errors.Is(err, i18n.ErrUnknownKey) {
		t.Fatalf("a theme word curex does not have: %v, want an i18n.OverrideError for i18n/fr.json, \"suivant\"", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "i18n/fr.json") || !strings.Contains(msg, `"suivant"`) {
		t.Errorf("error %q does not name the file and the key", msg)
	}

	link := t.TempDir()
	if err := os.MkdirAll(filepath.Join(link, "i18n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "i18n", "fr.json"), filepath.Join(link, "i18n", "es.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{ThemeDir: link}); !errors.Is(err, localfile.ErrSymlink) {
		t.Errorf("a symlinked word file: %v, want localfile.ErrSymlink", err)
	}
}
