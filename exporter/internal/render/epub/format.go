package epub

import (
	"context"
	"fmt"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/output"
	rendering "github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/handbook"
)

// Format is the epub format: each tree's book (layout.EPUB).
type Format struct {
	r    *Renderer
	opts rendering.Options
}

// NewFormat returns the epub format's renderer (see render.Format).
func NewFormat(_ context.Context, o rendering.Options) (rendering.Renderer, error) {
	return &Format{r: New(Options{Math: o.Math, Content: o.Content, Words: o.Words, Order: o.AttributeOrder}), opts: o}, nil
}

// Name implements rendering.Renderer.
func (*Format) Name() string { return "epub" }

// Render implements rendering.Renderer: it writes the tree's book.
func (f *Format) Render(ctx context.Context, w rendering.Writer, t *rendering.Tree, _ *output.ManifestExport) error {
	data, err := f.r.withContext(ctx).Render(t.Tree, InfoOf(t, f.opts))
	if err != nil {
		return err // names the export
	}
	if err := w.Write(layout.EPUB(t.Export), data); err != nil {
		return fmt.Errorf("epub of %s: %w", t.Dir(), err)
	}
	return nil
}

// InfoOf is what the book of t shows beyond the tree, for a run with
// options o: what the handbook shows (the content's date, the locale's
// names, the images' copies) and the images' bytes.
func InfoOf(t *rendering.Tree, o rendering.Options) Info {
	h := handbook.InfoOf(t, o)
	return Info{
		LocaleName: h.LocaleName, ContentDate: h.ContentDate, LocaleNames: h.LocaleNames,
		Images: o.Images, ImageData: o.ImageData, Generator: o.Generator,
	}
}

// withContext returns a Renderer that renders as r does, its conversions
// of math under ctx, the run's (see content.Converter.WithContext).
func (r *Renderer) withContext(ctx context.Context) *Renderer {
	c := *r
	c.content = r.content.WithContext(ctx)
	return &c
}
