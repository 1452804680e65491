package html

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/starter"
)

// TestStarterTheme: `curex theme init` writes a theme that renders the
// sample as curex does, plus its example style sheet (content-hashed);
// and its reference blocks, all copied to the top of a theme, render
// the sample byte for byte as the default templates do: they are the
// default blocks, not a paraphrase.
func TestStarterTheme(t *testing.T) {
	t.Parallel()
	want := sample(t, false).render(t, Options{})
	custom := regexp.MustCompile(`\n<link rel="stylesheet" href="[./]*assets/custom\.[0-9a-f]{8}\.css">`)
	for _, tc := range []struct {
		name string
		// blocks copies every reference block to the top of the theme.
		blocks bool
	}{
		{"as written", false},
		{"every block copied", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "theme")
			if _, err := starter.Write(context.Background(), dir); err != nil {
				t.Fatal(err)
			}
			if tc.blocks {
				blocks, err := filepath.Glob(filepath.Join(dir, "reference", "blocks", "*.html"))
				pages, perr := filepath.Glob(filepath.Join(dir, "reference", "blocks", "pages", "*.html"))
				if err != nil || perr != nil || len(blocks) < 7 || len(pages) != len(pageKinds) {
					t.Fatalf("%d reference blocks, %d pages (%v, %v)", len(blocks), len(pages), err, perr)
				}
				for _, b := range append(blocks, pages...) {
					data, err := os.ReadFile(b)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(dir, filepath.Base(b)), data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.Remove(filepath.Join(dir, "styles.html")); err != nil {
					t.Fatal(err)
				}
			}
			got := sample(t, false).render(t, Options{ThemeDir: dir})
			pages := 0
			for _, name := range want.names() {
				if !strings.HasSuffix(name, ".html") {
					continue
				}
				page := string(got.files[name])
				if !tc.blocks && strings.Contains(page, "<head>") {
					if !custom.MatchString(page) {
						t.Fatalf("%s: does not link custom.css", name)
					}
					page = custom.ReplaceAllString(page, "")
				}
				if page != string(want.files[name]) {
					t.Fatalf("%s differs from the default theme's", name)
				}
				pages++
			}
			if pages == 0 {
				t.Fatal("no page")
			}
		})
	}
}

// TestStarterRefusesNonEmpty: theme init never writes into a folder that
// holds anything.
func TestStarterRefusesNonEmpty(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.css"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := starter.Write(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("Write = %v, want a not-empty error", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "mine.css")); string(data) != "x" {
		t.Fatal("the folder's file changed")
	}
}
