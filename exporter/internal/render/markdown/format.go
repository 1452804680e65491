package markdown

import (
	"context"

	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render"
)

// Renderer is the markdown format: each tree's Markdown bundle.
type Renderer struct{ opts Options }

// NewFormat returns the markdown format's renderer (see render.Format).
func NewFormat(_ context.Context, o render.Options) (render.Renderer, error) {
	return Renderer{opts: Options{Generator: o.Generator, Hugo: o.MarkdownHugo, Words: o.Words, Order: o.AttributeOrder}}, nil
}

// Name implements render.Renderer.
func (Renderer) Name() string { return "markdown" }

// Render implements render.Renderer: it writes the tree's bundle.
func (f Renderer) Render(_ context.Context, w render.Writer, t *render.Tree, _ *output.ManifestExport) error {
	if _, err := Write(w, t.Tree, f.opts); err != nil {
		return err // names the bundle
	}
	return nil
}
