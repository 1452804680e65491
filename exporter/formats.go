package exporter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/curex/curex/exporter/internal/cpugate"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/cartridge"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/epub"
	"github.com/curex/curex/exporter/internal/render/handbook"
	"github.com/curex/curex/exporter/internal/render/html"
	"github.com/curex/curex/exporter/internal/render/jsonbundle"
	"github.com/curex/curex/exporter/internal/render/markdown"
	"github.com/curex/curex/exporter/internal/render/pdf"
	"github.com/curex/curex/exporter/internal/setting"
)

// Formats is the registry of the formats this build writes, in the order
// a tree renders in them. Adding a format is its package and one entry
// here: what the rest of curex needs to know of it (where its files go,
// what the website offers for download, what it shows) is in the entry,
// and the run, the manifest, the website, `curex serve` and `curex demo`
// read it from there.
func Formats() *render.Registry {
	const shows = render.ShowsImages | render.ShowsMath
	return render.NewRegistry(
		render.Format{Name: "html", Default: true, NewSite: html.NewSite, Shows: shows, InPages: true, Path: layout.ExportIndex},
		render.Format{Name: "json", Default: true, New: jsonbundle.NewFormat, Path: layout.TreeJSON, PageData: true,
			Download: &render.Download{Path: layout.TreeJSON, Ext: ".json", Type: "application/json", LabelKey: "json_bundle", Label: "Download the JSON bundle", Rank: 6}},
		render.Format{Name: "markdown", Default: true, New: markdown.NewFormat, Path: layout.MarkdownDir,
			Download: &render.Download{Path: layout.MarkdownZip, Ext: ".zip", Type: "application/zip", LabelKey: "download_markdown", Label: "Markdown bundle (zip)", Rank: 5}},
		render.Format{Name: "handbook", Default: true, New: handbook.NewFormat, Shows: shows, InPages: true, Path: layout.Handbook,
			Download: &render.Download{Path: layout.Handbook, Ext: ".html", Type: "text/html", LabelKey: "download_handbook", Label: "Printable handbook", Opens: true, Rank: 1}},
		render.Format{Name: "pdf", New: pdf.New, Shows: shows | render.ShowsImagesOffline, InPages: true, Path: layout.PDF,
			FinishesLate: true, Probe: pdf.Probe,
			Download: &render.Download{Path: layout.PDF, Ext: ".pdf", Type: "application/pdf", LabelKey: "download_pdf", Label: "Handbook (PDF)", Rank: 2}},
		render.Format{Name: "epub", New: epub.NewFormat, Shows: shows, InPages: true, Path: layout.EPUB,
			Download: &render.Download{Path: layout.EPUB, Ext: layout.EPUBExt, Type: "application/epub+zip", LabelKey: "download_epub", Label: "E-book (EPUB)", Rank: 3}},
		render.Format{Name: "cartridge", New: cartridge.NewFormat, Shows: shows, Path: layout.Cartridge,
			Download: &render.Download{Path: layout.Cartridge, Ext: ".imscc", Type: "application/zip", LabelKey: "download_cartridge", Label: "Course cartridge (LMS)", Rank: 4}},
	)
}

// DefaultFormats is the --formats default: html, json, markdown and
// handbook (pdf needs Chromium; epub and cartridge are asked for).
func DefaultFormats() []string { return Formats().Defaults() }

// DefaultPDFTimeout is Config.PDFTimeout's default: a handbook of
// thousands of pages prints in well under a minute.
const DefaultPDFTimeout = pdf.DefaultTimeout

// ErrPDFTimeout is the error, wrapped, of a handbook that did not print
// within Config.PDFTimeout.
var ErrPDFTimeout = pdf.ErrTimeout

// treeFormats renders one tree in every selected format but the website,
// which needs every tree first (a render.Site).
type treeFormats struct {
	renderers []render.Renderer
	// reg is the registry the renderers come from: it says where each
	// format's files are (list).
	reg      *render.Registry
	deferred []render.Deferred
	locales  map[string][]model.Locale // by base curriculum id
	// math counts the math errors of a tree, when a format shows math.
	math *content.Converter
	// gate is the run's: mathErrors takes its free units (nil: only the
	// caller's goroutine).
	gate *cpugate.Gate
}

// newTreeFormats prepares the renderers of the selected formats, which
// see the locales of each curriculum in catalog. With pdf selected it
// starts Chromium at once, so a machine without one fails before any
// request is spent.
func newTreeFormats(ctx context.Context, reg *render.Registry, o render.Options, gate *cpugate.Gate, catalog *model.Catalog) (*treeFormats, error) {
	f := &treeFormats{reg: reg, gate: gate, locales: map[string][]model.Locale{}}
	for _, c := range catalog.Curricula {
		f.locales[c.ID] = c.Locales
	}
	if reg.Any(o.Formats, render.ShowsMath) {
		f.math = content.Reuse(o.Content, content.WithMath(o.Math))
	}
	var err error
	if f.renderers, err = reg.New(ctx, o); err != nil {
		return nil, formatError(err)
	}
	for _, r := range f.renderers {
		if d, ok := r.(render.Deferred); ok {
			f.deferred = append(f.deferred, d)
		}
	}
	return f, nil
}

func (f *treeFormats) close() { render.Close(f.renderers) }

// formatError is the error of a format that could not be made: a setting
// it refused (a theme, a paper size) is the user's, a ConfigError.
func formatError(err error) error {
	if _, ok := setting.Of(err); ok {
		return &ConfigError{err}
	}
	return err
}

// tree is t as the formats are given it, with its curriculum's locales.
// t has been through visible, the one gate of what a tree shows, so it
// holds no attribute the publisher hides.
func (f *treeFormats) tree(t *model.Tree) *render.Tree {
	return &render.Tree{Tree: t, Locales: f.locales[t.CurriculumID]}
}

// RenderError is a tree that one of the formats refused (a value its
// renderer cannot write). Nothing of the tree reaches the output: its
// export fails alone and keeps its previous version, as a tree the API
// could not give does, and the run goes on (exit 3).
type RenderError struct {
	// Export is the tree's export.
	Export model.Export
	// Err says which format refused it, and why.
	Err error
}

func (e *RenderError) Error() string { return e.Err.Error() }

func (e *RenderError) Unwrap() error { return e.Err }

// pendingFiles holds the files of one export until every format has
// rendered it, so that a format that refuses the tree leaves none of its
// files in the output. It is a markdown.Writer.
type pendingFiles struct {
	files []pendingFile
}

type pendingFile struct {
	rel  string
	data []byte
}

// Write keeps a copy of data (a Writer must not keep the caller's bytes)
// once rel passes output.CheckPath, so that a path the tree made unsafe is
// the tree's failure, not the run's.
func (p *pendingFiles) Write(rel string, data []byte) error {
	if err := output.CheckPath(rel); err != nil {
		return err
	}
	p.files = append(p.files, pendingFile{rel: rel, data: bytes.Clone(data)})
	return nil
}

// flushers bounds the files a tree's flush writes at once: writing is
// mostly waiting on the file system, so a few more than the cores.
const flushers = 8

// flush writes the files of every format, a few at a time (the Writer is
// safe for concurrent use, and the output does not depend on the order).
func flush(ctx context.Context, w *output.Writer, pending []pendingFiles) error {
	g, _ := errgroup.WithContext(ctx)
	g.SetLimit(flushers)
	for i := range pending {
		for _, f := range pending[i].files {
			g.Go(func() error { return w.Write(f.rel, f.data) })
		}
	}
	return g.Wait()
}

// write renders t (already filtered) in the selected formats and fills
// entry with their paths. The formats render at once, each into files of
// its own, and each sets fields of entry no other sets; the files are
// written once all have rendered. A format that refuses the tree is a
// *RenderError (the first format's, in their order, when several do) and
// nothing of the tree is written; any other error (the output cannot be
// written) stops the run. Deferred work (printing) starts once the tree's
// files are written.
func (f *treeFormats) write(ctx context.Context, w *output.Writer, t *model.Tree, entry *output.ManifestExport) error {
	rt := f.tree(t)
	n, err := f.mathErrors(ctx, rt.Tree)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
			// Stopped mid-formula: the run's end, not the tree's fault.
			return err
		}
		return &RenderError{Export: t.Export, Err: err}
	}
	entry.MathErrors = n
	pending := make([]pendingFiles, len(f.renderers))
	errs := make([]error, len(f.renderers))
	var wg sync.WaitGroup
	for i, r := range f.renderers {
		wg.Go(func() { errs[i] = r.Render(ctx, &pending[i], rt, entry) })
	}
	wg.Wait()
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("render %s: %w", t.Dir(), cerr)
	}
	for _, err := range errs {
		if err != nil {
			return &RenderError{Export: t.Export, Err: err}
		}
	}
	for _, r := range f.renderers {
		f.list(r.Name(), t.Export, entry)
	}
	if err := flush(ctx, w, pending); err != nil {
		return err
	}
	for _, d := range f.deferred {
		d.Start(ctx, w, t.Export)
	}
	return nil
}

// list lists in entry where the files of format are for e (Format.Path),
// once the format rendered e.
func (f *treeFormats) list(format string, e model.Export, entry *output.ManifestExport) {
	if ff, ok := f.reg.Format(format); ok && ff.Path != nil {
		entry.SetPath(format, ff.Path(e))
	}
}

// mathErrors counts the expressions of t that do not convert to MathML,
// as the website and the handbook show them (content.MathErrors: each
// node that may hold math is parsed once more, and its expressions
// converted into the converter's cache, where the formats find them
// when they render the node). Every format that shows math shows the
// same expressions, so the count is the tree's, whichever formats run
// and whenever the website renders. The nodes are counted side by side
// (each; the caller holds a unit of the gate). ctx's end stops a
// conversion under way.
func (f *treeFormats) mathErrors(ctx context.Context, t *model.Tree) (int, error) {
	if f.math == nil {
		return 0, nil
	}
	var nodes []*model.Node
	t.Walk(func(n *model.Node) bool {
		if content.AttributesMayHaveMath(n.Attributes) {
			nodes = append(nodes, n)
		}
		return true
	})
	var failures atomic.Int64
	err := each(f.gate, len(nodes), func(i int) error {
		n, err := f.math.MathErrors(ctx, nodes[i].Attributes, nodes[i].Title)
		failures.Add(int64(n))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("math of %s: %w", t.Dir(), err)
	}
	return int(failures.Load()), nil
}

// wait waits for the deferred work (the PDFs) and returns the exports
// whose work failed alone.
func (f *treeFormats) wait() ([]render.Late, error) {
	var late []render.Late
	for _, d := range f.deferred {
		l, err := d.Wait()
		if err != nil {
			return nil, err
		}
		late = append(late, l...)
	}
	return late, nil
}

// reused returns the files the formats that reuse earlier work (the
// PDF's prints) made this run and those they reused (render.Reusing).
func (f *treeFormats) reused() (made, reused int) {
	for _, r := range f.renderers {
		if c, ok := r.(render.Reusing); ok {
			m, u := c.Counts()
			made, reused = made+m, reused+u
		}
	}
	return made, reused
}
