package render

import (
	"context"

	"github.com/curex/curex/exporter/internal/changes"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
)

// Site is a format with a site-wide phase: a tree's pages need every tree
// of its curriculum (the website's language and variant switchers link
// across them), and the format ends with pages about the whole site. The
// run drives it in this order:
//
//   - Start, once the catalog is known and before any tree;
//   - for each tree of the catalog as it arrives: Keep (a tree written this
//     run in the tree formats) or Reuse (a tree whose files were carried
//     over unchanged), then Arrived, also for a tree that failed or was
//     held back;
//   - Stop, after the last tree, and Finish.
//
// A Site renders a curriculum in the background once Arrived has counted
// all its trees in, written; Finish renders the rest. It must not hold the
// trees it is given: it reads them back through Trees when it renders, so
// memory holds one tree at a time.
type Site interface {
	// Name is the format's name, as --formats spells it.
	Name() string
	// Start begins the site's background rendering over the run's
	// catalog, writing through w and reading kept trees back through
	// trees.
	Start(ctx context.Context, w Writer, catalog *model.Catalog, trees Trees)
	// Keep takes a tree written this run, with its history of changes
	// (nil for none); the run lists its pages in entry (Format.Path).
	Keep(t *Tree, h *changes.History, entry *output.ManifestExport) error
	// Reuse takes a tree whose pages were carried over unchanged: the
	// site-wide pages count it as if its pages were written. prior reads
	// a file of the previous output (a path relative to its root), where
	// the tree's carried-over files are; nil when there is none.
	Reuse(t *Tree, prior func(rel string) ([]byte, error))
	// Arrived says a tree of the catalog is in: written (after Keep) or not
	// (it failed, or was held back as unchanged).
	Arrived(e model.Export, written bool)
	// Stop waits for the background rendering and returns its first
	// error. Calling it again returns nil.
	Stop() error
	// Finish writes the pages of the kept trees not yet written, then the
	// site-wide pages. exports are every export of the run, in manifest
	// order; pages says which have pages in the output (written or kept
	// from the previous run).
	Finish(ctx context.Context, w Writer, exports []model.Export, pages map[model.Key]bool) error
}

// Trees reads back a tree handed to Site.Keep, as it was then (filtered
// by the run).
type Trees func(e model.Export) (*model.Tree, error)

// Gate bounds the rendering a format does on goroutines of its own (see
// Options.Gate).
type Gate interface {
	Acquire()
	Release()
}
