package handbook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/curex/curex/exporter/internal/render/attrs"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"html/template"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/localfile"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/mathml"
	"github.com/curex/curex/exporter/internal/render/mathstyle"
	"github.com/curex/curex/templates"
	"github.com/curex/curex/themes"
)

// Names of the files this package reads.
const (
	// templateFile is the embedded template and the theme file that
	// overrides its blocks.
	templateFile = "handbook.html"
	// styleFile is the default style sheet under themes.FS and the name of
	// its replacement under a theme's assets/ folder.
	styleFile = "handbook.css"
	// rootTemplate is the template Render executes.
	rootTemplate = "handbook"
)

// Options configure a Renderer.
type Options struct {
	// Words are the run's words (render.Options.Words): the attribute
	// labels of the publisher among them. Nil: the built-in words.
	Words *i18n.Catalog
	// Order is the publisher's order of attribute members
	// (render.Options.AttributeOrder).
	Order attrs.Order
	// ThemeDir is an optional theme folder. Its handbook.html, when there is
	// one, is parsed after the embedded template, so each
	// {{define "handbook-..."}} in it replaces that block; its
	// assets/handbook.css, when there is one, replaces the default style
	// sheet. Other files are ignored.
	ThemeDir string
	// Generator names the program on the cover and in <meta
	// name="generator"> ("curex 0.1.0"); empty: not shown.
	Generator string
	// Math converts TeX to MathML (nil: a converter of the renderer's
	// own).
	Math *mathml.Converter
	// Content, when set, is the run's converter of node content, which
	// the formats share (render.Options.Content); nil makes one from Math
	// and Order.
	Content *content.Converter
}

// Renderer renders handbooks. Create one with New; it is safe for
// concurrent use.
type Renderer struct {
	opts Options
	tmpl *template.Template
	css  template.CSS
	// mathCSS is package mathstyle's rules with the math font inline,
	// added after css to a handbook that holds math (and so to its PDF).
	mathCSS template.CSS
	content *content.Converter
}

// New parses the embedded template, then the theme's, and reads the style
// sheet, once. It is NewContext with a background context.
func New(o Options) (*Renderer, error) {
	return NewContext(context.Background(), o)
}

// NewContext is New: it reads the theme folder's handbook.html and
// assets/handbook.css through the gate of local files (package
// localfile), and stops when ctx is done.
func NewContext(ctx context.Context, o Options) (*Renderer, error) {
	var themeHTML, themeCSS []byte
	if o.ThemeDir != "" {
		d, err := localfile.OpenDir(ctx, localfile.OperatorRef(o.ThemeDir))
		if err != nil {
			return nil, fmt.Errorf("handbook: theme: %w", err)
		}
		defer d.Close()
		if themeHTML, err = readOptional(ctx, d, templateFile); err != nil {
			return nil, fmt.Errorf("handbook: theme: %w", err)
		}
		if themeCSS, err = readOptional(ctx, d, layout.Assets+"/"+styleFile); err != nil {
			return nil, fmt.Errorf("handbook: theme: %w", err)
		}
	}
	t, err := template.New(rootTemplate).ParseFS(templates.FS, templateFile)
	if err != nil {
		return nil, fmt.Errorf("handbook: embedded template: %w", err)
	}
	if themeHTML != nil {
		name := filepath.Join(o.ThemeDir, templateFile)
		if _, err := t.New(name).Parse(string(themeHTML)); err != nil {
			return nil, fmt.Errorf("handbook: theme template: %w", err)
		}
	}
	if t.Lookup(rootTemplate) == nil {
		return nil, fmt.Errorf("handbook: no %q template", rootTemplate)
	}
	css := themeCSS
	if css == nil {
		if css, err = fs.ReadFile(themes.FS, "default/"+styleFile); err != nil {
			return nil, fmt.Errorf("handbook: default style sheet: %w", err)
		}
	}
	var sheet bytes.Buffer
	sheet.Write(bytes.TrimSpace(css))
	sheet.WriteString("\n\n")
	sheet.Write(lightChromaCSS())
	return &Renderer{opts: o, tmpl: t, css: safeCSS(sheet.String()), mathCSS: safeCSS(string(mathstyle.CSS(mathstyle.DataURL()))),
		content: content.Reuse(o.Content, content.WithMath(o.Math), content.WithOrder(o.Order))}, nil
}

// readOptional reads a file of the theme folder d that may be missing
// (nil, nil).
func readOptional(ctx context.Context, d *localfile.Dir, name string) ([]byte, error) {
	data, err := d.ReadFile(ctx, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// darkMarker starts the dark half of content.StyleCSS, which a printed
// handbook does not want.
const darkMarker = "@media (prefers-color-scheme: dark)"

// lightChromaCSS is the light style of highlighted code.
func lightChromaCSS() []byte {
	css := content.StyleCSS()
	if i := bytes.Index(css, []byte(darkMarker)); i >= 0 {
		css = css[:i]
	}
	return bytes.TrimRight(css, "\n")
}

// safeCSS makes a style sheet safe inside a <style> element: "</" becomes
// "<\/", which means the same inside CSS strings and cannot end the
// element. Style sheets come from the theme, which is trusted, but a stray
// "</style>" must not turn the rest of it into markup.
func safeCSS(s string) template.CSS {
	return template.CSS(strings.ReplaceAll(s, "</", `<\/`))
}
