package html

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/render/mathstyle"
	"github.com/curex/curex/themes"
)

// asset is one file written under assets/.
type asset struct {
	// Name is the file's name under assets/, hashed for the known assets.
	Name string
	Data []byte
}

// knownAssets are the theme's assets by logical name, written with a
// content hash in their names; every theme has them (the default theme's
// when its folder does not). The math font and math.css come from package
// mathstyle unless the theme brings its own.
var knownAssets = []string{"site.css", "site.js", "theme.js", "search.js", "icons.css", "chroma.css", mathstyle.FontName, "math.css"}

// assetSet holds the theme's files: the known assets by logical name
// ("site.css") and the extra files a theme folder brings.
type assetSet struct {
	byName map[string]asset // logical name -> hashed file
	extra  []asset          // theme files written as they are
	// extraHashed are the extra files again, each under a name with a
	// content hash, by their path under assets/: what Page.Asset links,
	// so a template's reference changes when the file does, as site.css's
	// does. The plain copy stays for the theme's CSS to refer to (url()).
	extraHashed map[string]asset
	icons       map[string]string // class by icon name, for icons with an SVG
}

// hashed names data after its logical name with a short content hash:
// "site.css" → "site.3f2a9c1e.css".
func hashed(name string, data []byte) string {
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:4])
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + h + ext
}

// loadAssets reads the default theme, applies the theme folder's assets/
// files by name (theme, as readTheme read it), and builds the icon style
// sheet and the syntax-highlighting style sheet.
func loadAssets(theme map[string][]byte, chroma []byte) (*assetSet, error) {
	files := map[string][]byte{}
	def, err := fs.Sub(themes.FS, "default")
	if err != nil {
		return nil, err
	}
	if err := readTree(def, files); err != nil {
		return nil, fmt.Errorf("default theme: %w", err)
	}
	for name, data := range theme {
		if rest, ok := strings.CutPrefix(name, layout.Assets+"/"); ok {
			files[rest] = data
		}
	}
	s := &assetSet{byName: map[string]asset{}, icons: map[string]string{}, extraHashed: map[string]asset{}}
	// Icons become one style sheet of data URLs used as CSS masks, so they
	// follow the text colour and load from file:// like any style sheet.
	var icons strings.Builder
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range files {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range names {
		if dir, file := path.Split(k); dir == "icons/" && path.Ext(file) == ".svg" {
			n := strings.TrimSuffix(file, ".svg")
			if !validIconName(n) {
				continue
			}
			s.icons[n] = "icon-" + n
			fmt.Fprintf(&icons, ".icon-%s{--icon:url(\"data:image/svg+xml;base64,%s\")}\n", n, base64.StdEncoding.EncodeToString(files[k]))
		}
	}
	if _, ok := files["icons.css"]; !ok {
		files["icons.css"] = []byte(icons.String())
	}
	if _, ok := files["chroma.css"]; !ok {
		files["chroma.css"] = chroma
	}
	// The math font, and the rules of math (package mathstyle) that load
	// it by its hashed name: only pages that hold math link math.css
	// (Page.Math), so only they fetch the font.
	if _, ok := files[mathstyle.FontName]; !ok {
		files[mathstyle.FontName] = mathstyle.Font()
	}
	if _, ok := files["math.css"]; !ok {
		files["math.css"] = mathstyle.CSS(hashed(mathstyle.FontName, files[mathstyle.FontName]))
	}
	for _, k := range knownAssets {
		data, ok := files[k]
		if !ok {
			return nil, fmt.Errorf("theme: missing asset %s", k)
		}
		s.byName[k] = asset{Name: hashed(k, data), Data: data}
		delete(files, k)
	}
	for _, k := range names {
		data, ok := files[k]
		if !ok || strings.HasPrefix(k, "icons/") && path.Ext(k) == ".svg" {
			continue // icons live in icons.css
		}
		if k == "handbook.css" {
			continue // the handbook renderer inlines it in each handbook
		}
		s.extra = append(s.extra, asset{Name: k, Data: data})
		s.extraHashed[k] = asset{Name: hashed(k, data), Data: data}
	}
	return s, nil
}

// validIconName keeps icon names to a-z, 0-9 and "-", so they can be used
// in class names.
func validIconName(n string) bool {
	if n == "" {
		return false
	}
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// readTree copies every regular file of fsys (the embedded default theme) into files, keyed by its
// slash-separated path; hidden files are skipped.
func readTree(fsys fs.FS, files map[string][]byte) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files[p] = data
		return nil
	})
}

// iconClass returns the CSS class of a node type's icon, the generic one
// when the theme has no icon of that name.
func (s *assetSet) iconClass(name string) string {
	if c, ok := s.icons[name]; ok {
		return c
	}
	return "icon-generic"
}
