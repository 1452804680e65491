package jsonbundle

import (
	"context"
	"fmt"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render"
)

// Renderer is the json format: each tree's tree.json.
type Renderer struct{}

// NewFormat returns the json format's renderer (see render.Format).
func NewFormat(context.Context, render.Options) (render.Renderer, error) { return Renderer{}, nil }

// Name implements render.Renderer.
func (Renderer) Name() string { return "json" }

// Render implements render.Renderer: it writes the tree's tree.json.
func (Renderer) Render(_ context.Context, w render.Writer, t *render.Tree, _ *output.ManifestExport) error {
	data, err := Encode(t.Tree)
	if err != nil {
		return fmt.Errorf("json bundle of %s: %w", t.Dir(), err)
	}
	return w.Write(layout.TreeJSON(t.Export), data)
}
