package starter

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template/parse"

	"github.com/curex/curex/templates"
	"github.com/curex/curex/themes"
)

// ErrNotEmpty is the error, wrapped, of a folder that already holds
// files: Write never overwrites a publisher's work.
var ErrNotEmpty = errors.New("not empty")

// Files returns the starting theme's files by slash-separated path.
func Files() (map[string][]byte, error) {
	out := map[string][]byte{
		"README.md":         []byte(readme),
		"styles.html":       []byte(stylesBlock),
		"assets/custom.css": []byte(customCSS),
	}
	blocks, err := Blocks()
	if err != nil {
		return nil, err
	}
	for name, src := range blocks {
		out["reference/blocks/"+name] = []byte(src)
	}
	def, err := fs.Sub(themes.FS, "default")
	if err != nil {
		return nil, err
	}
	err = fs.WalkDir(def, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := fs.ReadFile(def, p)
		out["reference/assets/"+p] = data
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("default theme: %w", err)
	}
	return out, nil
}

// Blocks returns the default templates as a theme would redefine
// them, by path under reference/blocks/: each block of the shared
// templates as a file of its own, block-NAME.html ({{define "NAME"}} …
// {{end}}), which redefines it for every page when copied to the top of
// a theme; and each page's template, pages/KIND.html, as it is, which
// redefines that kind of page's blocks when copied to the top as
// KIND.html.
func Blocks() (map[string]string, error) {
	names, err := fs.Glob(templates.FS, "*.html")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, file := range names {
		data, err := fs.ReadFile(templates.FS, file)
		if err != nil {
			return nil, err
		}
		if slices.Contains(templates.Pages(), strings.TrimSuffix(file, ".html")) {
			out["pages/"+file] = string(data)
			continue
		}
		trees := map[string]*parse.Tree{}
		t := parse.New(file)
		t.Mode = parse.SkipFuncCheck | parse.ParseComments
		if _, err := t.Parse(string(data), "{{", "}}", trees); err != nil {
			return nil, fmt.Errorf("templates/%s: %w", file, err)
		}
		for name, tree := range trees {
			if name == file || tree.Root == nil {
				continue
			}
			out["block-"+name+".html"] = fmt.Sprintf("{{define %q}}%s{{end}}\n", name, tree.Root.String())
		}
	}
	return out, nil
}

// Write writes the starting theme into dir, which must be missing or
// empty (ErrNotEmpty), and returns the paths it wrote, sorted.
func Write(ctx context.Context, dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	switch {
	case err == nil && len(entries) > 0:
		return nil, fmt.Errorf("%s: %w: a theme starts in a new or empty folder", dir, ErrNotEmpty)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("theme folder: %w", err)
	}
	files, err := Files()
	if err != nil {
		return nil, err
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range files {
			if !yield(k) {
				return
			}
		}
	})
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, fmt.Errorf("theme folder: %w", err)
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return nil, fmt.Errorf("theme folder: %w", err)
		}
	}
	return names, nil
}
