package html

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/exporter/internal/render/mathml"
)

// TestRenderTreeStopsWithTheRun: issue 23 section 3. The website converted
// its formulas with context.Background(), so a run that had ended (Ctrl-C,
// SIGTERM) went on converting every formula of its pages. A tree rendered
// under an ended context now stops with the context's error, and a node's
// formula is converted under that context, not around it.
func TestRenderTreeStopsWithTheRun(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	math := mathml.New(mathml.Options{CacheBytes: -1})
	r, err := New(Options{Math: math})
	if err != nil {
		t.Fatal(err)
	}
	site, tree := searchTree()
	w := newMemWriter()
	if err := r.RenderTree(ctx, w, site, tree, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("RenderTree under an ended run: %v, want context.Canceled", err)
	}

	attrs := map[string]json.RawMessage{"description": json.RawMessage(`"Solve $x^2 = 4$."`)}
	if _, err := r.content.node(ctx, attrs, "Squares", i18n.For("en"), "c-", "a/b/index.html"); !errors.Is(err, context.Canceled) {
		t.Errorf("a node's formula under an ended run: %v, want context.Canceled", err)
	}
	if got, err := r.content.node(context.Background(), attrs, "Squares", i18n.For("en"), "c-", "a/b/index.html"); err != nil || len(got) == 0 {
		t.Errorf("the same node under a live run: %q, %v", got, err)
	}
}
