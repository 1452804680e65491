package cartridge

import (
	"context"
	"fmt"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/output"
	rendering "github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/setting"
)

// Format is the cartridge format: each tree's .imscc archive.
type Format struct {
	r *Renderer
}

// NewFormat returns the cartridge format's renderer (see render.Format).
// Pages link to the website only when it is written and its URL known.
func NewFormat(_ context.Context, o rendering.Options) (rendering.Renderer, error) {
	v, err := ParseVersion(o.CartridgeVersion)
	if err != nil {
		return nil, setting.Errorf(setting.CartridgeVersion, "%w", err)
	}
	opts := Options{Images: o.Images, ImageData: o.ImageData, Math: o.Math, Content: o.Content, Date: o.Date, Version: v, Words: o.Words, Order: o.AttributeOrder}
	if o.Website {
		opts.SiteURL = o.SiteURL
	}
	return &Format{r: New(opts)}, nil
}

// Name implements rendering.Renderer.
func (*Format) Name() string { return "cartridge" }

// Render implements rendering.Renderer: it writes the tree's cartridge.
func (f *Format) Render(ctx context.Context, w rendering.Writer, t *rendering.Tree, _ *output.ManifestExport) error {
	data, err := f.r.withContext(ctx).Build(t)
	if err != nil {
		return fmt.Errorf("cartridge of %s: %w", t.Dir(), err)
	}
	return w.Write(layout.Cartridge(t.Export), data)
}

// withContext returns a Renderer that renders as r does, its conversions
// of math under ctx, the run's (see content.Converter.WithContext).
func (r *Renderer) withContext(ctx context.Context) *Renderer {
	c := *r
	c.content = r.content.WithContext(ctx)
	return &c
}
