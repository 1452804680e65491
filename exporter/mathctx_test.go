package exporter

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/mathml"
)

// TestWriteStopsWithTheRunMidMath writes a tree whose math is being
// converted when the run ends: the math pass converts under the run's
// context, stops, and write returns the context's error, which stops the
// run, not a *RenderError, which would count the tree as refused and go
// on. Nothing is written.
func TestWriteStopsWithTheRunMidMath(t *testing.T) {
	f := &treeFormats{math: content.New(content.WithMath(mathml.New(mathml.Options{CacheBytes: -1})))}
	tree := &model.Tree{
		Export: model.Export{CurriculumID: "c", VariantID: "c", Locale: "en"},
		Nodes:  []*model.Node{{ID: "n", Title: "N", Attributes: map[string]json.RawMessage{"description": json.RawMessage(`"Solve $x^2 = 4$."`)}}},
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var entry output.ManifestExport
	err := f.write(ctx, nil, tree, &entry)
	var re *RenderError
	if !errors.Is(err, context.Canceled) || errors.As(err, &re) || !strings.HasPrefix(err.Error(), "math of ") {
		t.Fatalf("write: %v, want the math pass stopped by context.Canceled, no RenderError", err)
	}
	// Under a live context the same tree's math converts.
	if n, err := f.mathErrors(context.Background(), tree); err != nil || n != 0 {
		t.Fatalf("mathErrors = %d, %v", n, err)
	}
}
