package render

import (
	"context"
	"path"
	"strings"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/localfile"
	"github.com/curex/curex/exporter/internal/render/i18n"
)

// IsThemeFile tells whether the renderers read the theme folder's file
// name (slash-separated, relative to the folder): its top-level *.html
// (templates), everything under assets/, and its words, i18n/*.json
// (i18n.IsOverrideFile). Other files, such as a README or a LICENSE, are
// never read.
func IsThemeFile(name string) bool {
	return !strings.Contains(name, "/") && path.Ext(name) == ".html" || strings.HasPrefix(name, layout.Assets+"/") ||
		i18n.IsOverrideFile(name)
}

// ReadTheme reads the files of the theme folder ref names that the
// renderers use (IsThemeFile), through the gate of local files
// (localfile.OpenDir): no symlink, a regular file under
// localfile.MaxThemeFile, bytes that are what their extensions say. It
// returns them by slash-separated path. Words the theme overrides that
// cannot be used (i18n.Catalog.WithOverrides: an unknown key, other
// arguments) are an *i18n.OverrideError naming the file and the key.
func ReadTheme(ctx context.Context, ref localfile.Ref) (map[string][]byte, error) {
	d, err := localfile.OpenDir(ctx, ref)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := d.Files(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, n := range names {
		if !IsThemeFile(n) {
			continue
		}
		if out[n], err = d.ReadFile(ctx, n); err != nil {
			return nil, err
		}
	}
	if _, err := i18n.Builtin().WithOverrides(out); err != nil {
		return nil, err
	}
	return out, nil
}
