package handbook

import (
	"context"
	"fmt"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/output"
	rendering "github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/setting"
)

// Format is the handbook format: each tree's handbook.html.
type Format struct {
	r    *Renderer
	opts rendering.Options
}

// NewFormat returns the handbook format's renderer (see render.Format).
// A theme it cannot read is an error naming setting.Theme.
func NewFormat(ctx context.Context, o rendering.Options) (rendering.Renderer, error) {
	r, err := NewContext(ctx, OptionsOf(o))
	if err != nil {
		return nil, setting.Errorf(setting.Theme, "%w", err)
	}
	return &Format{r: r, opts: o}, nil
}

// OptionsOf returns the handbook options of a run: its theme, generator,
// converters, words and attribute order. The handbook format and the PDF
// (which prints a handbook) both take theirs from here, so that the
// printed copy shows what the handbook shows.
func OptionsOf(o rendering.Options) Options {
	return Options{ThemeDir: o.ThemeDir, Generator: o.Generator, Math: o.Math, Content: o.Content, Words: o.Words, Order: o.AttributeOrder}
}

// Name implements rendering.Renderer.
func (*Format) Name() string { return "handbook" }

// Render implements rendering.Renderer: it writes the tree's handbook.html.
func (f *Format) Render(ctx context.Context, w rendering.Writer, t *rendering.Tree, _ *output.ManifestExport) error {
	data, err := f.r.WithContext(ctx).Render(t.Tree, InfoOf(t, f.opts))
	if err != nil {
		return fmt.Errorf("handbook of %s: %w", t.Dir(), err)
	}
	return w.Write(layout.Handbook(t.Export), data)
}

// InfoOf is what the handbook of t shows beyond the tree, for a run with
// options o: the content's date, the paper, the locale's names and
// progress (this variant's own translation progress, as on the website),
// and a link back to the website when it is written.
func InfoOf(t *rendering.Tree, o rendering.Options) Info {
	info := Info{ContentDate: t.ResolvedAt, Paper: o.Paper, LocaleNames: map[string]string{}, Images: o.Images}
	if !o.Date.IsZero() {
		info.ContentDate = o.Date
	}
	if o.Website {
		info.SiteHome = layout.Index
	}
	if t.Locales == nil {
		return info
	}
	for _, l := range t.Locales {
		info.LocaleNames[l.Code] = l.Name
	}
	if l, ok := t.OwnLocale(); ok {
		info.LocaleName = l.Name
		info.TranslationProgress, info.PublishedProgress = l.TranslationProgress, l.PublishedProgress
	}
	if p, ok := t.TranslationProgress(); ok {
		info.TranslationProgress = p
	}
	return info
}

// WithContext returns a Renderer that renders as r does, its conversions
// of math under ctx, the run's (see content.Converter.WithContext).
func (r *Renderer) WithContext(ctx context.Context) *Renderer {
	c := *r
	c.content = r.content.WithContext(ctx)
	return &c
}
