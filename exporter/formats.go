package exporter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/curex/curex/exporter/chrome"
	"github.com/curex/curex/exporter/crash"
	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/model"
	"github.com/curex/curex/exporter/output"
	"github.com/curex/curex/exporter/printcache"
	"github.com/curex/curex/exporter/render/handbook"
	"github.com/curex/curex/exporter/render/jsonbundle"
	"github.com/curex/curex/exporter/render/markdown"
)

// treeFormats renders one tree in every selected format but the website,
// which needs every tree first (see siteRun).
type treeFormats struct {
	c        *Config
	plans    map[string]*fetch.CurriculumPlan // by base curriculum id
	handbook *handbook.Renderer
	browser  *chrome.Browser
	spool    string // handbook copies Chromium prints
	// prints keeps the PDFs printed, by handbook and options (nil
	// without a cache folder); printed and reused count this run's.
	prints          *printcache.Store
	printed, reused atomic.Int64
	date            time.Time
	// printing runs the PDF jobs, a few at a time, while fetching goes on.
	printing *errgroup.Group
	// late are the exports whose handbook did not print within
	// Config.PDFTimeout (see keepLatePDFs).
	mu   sync.Mutex
	late []Failure
}

// DefaultPDFTimeout is Config.PDFTimeout's default: a handbook of
// thousands of pages prints in well under a minute.
const DefaultPDFTimeout = 2 * time.Minute

// ErrPDFTimeout is the error, wrapped, of a handbook that did not print
// within Config.PDFTimeout.
var ErrPDFTimeout = errors.New("printing took too long")

// printers bounds the handbooks Chromium prints at once (a tab each).
const printers = 2

// printsKeptFor is how long a printed PDF no run used stays in the cache.
const printsKeptFor = 30 * 24 * time.Hour

// newTreeFormats prepares the renderers of the selected formats. With pdf
// selected it starts Chromium at once, so a machine without one fails
// before any request is spent.
func newTreeFormats(ctx context.Context, c *Config, plan *fetch.Plan) (*treeFormats, error) {
	f := &treeFormats{c: c, plans: map[string]*fetch.CurriculumPlan{}, printing: &errgroup.Group{}}
	f.printing.SetLimit(printers)
	for i := range plan.Curricula {
		cp := &plan.Curricula[i]
		f.plans[cp.Curriculum.ID] = cp
	}
	date, err := sourceDateEpoch()
	if err != nil {
		return nil, &ConfigError{err}
	}
	f.date = date
	if c.has("handbook") || c.has("pdf") {
		if f.handbook, err = handbook.New(handbook.Options{ThemeDir: c.ThemeDir, Generator: c.Generator}); err != nil {
			return nil, &ConfigError{fmt.Errorf("--theme: %w", err)}
		}
	}
	if c.has("pdf") {
		if f.spool, err = os.MkdirTemp("", "curex-pdf-"); err != nil {
			return nil, fmt.Errorf("pdf: %w", err)
		}
		if c.CacheDir != "" {
			if f.prints, err = printcache.Open(filepath.Join(c.CacheDir, "pdf"), nil); err != nil {
				f.close()
				return nil, err
			}
		}
		f.browser, err = chrome.Launch(ctx, chrome.Options{Log: c.Log})
		if err != nil {
			f.close()
			if errors.Is(err, chrome.ErrNoBrowser) {
				return nil, &ConfigError{fmt.Errorf("--formats pdf: %w", err)}
			}
			return nil, fmt.Errorf("pdf: %w", err)
		}
	}
	return f, nil
}

func (f *treeFormats) close() {
	_ = f.printing.Wait()
	if f.browser != nil {
		_ = f.browser.Close()
	}
	if f.spool != "" {
		_ = os.RemoveAll(f.spool)
	}
}

// sourceDateEpoch reads SOURCE_DATE_EPOCH, the reproducible-builds
// convention for "the date of this content"; zero when unset.
func sourceDateEpoch() (time.Time, error) {
	v, ok := os.LookupEnv("SOURCE_DATE_EPOCH")
	if !ok || v == "" {
		return time.Time{}, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH %q: want seconds since 1970 as a whole number", v)
	}
	return time.Unix(n, 0).UTC(), nil
}

// has reports whether format was selected.
func (c *Config) has(format string) bool { return slices.Contains(c.Formats, format) }

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

// flush writes the files kept, in the order they came.
func (p *pendingFiles) flush(w *output.Writer) error {
	for _, f := range p.files {
		if err := w.Write(f.rel, f.data); err != nil {
			return err
		}
	}
	return nil
}

// write renders t (already filtered) in the selected formats and fills
// entry with their paths. A format that refuses the tree is a
// *RenderError and nothing of the tree is written; any other error (the
// output cannot be written) stops the run.
func (f *treeFormats) write(ctx context.Context, w *output.Writer, t *model.Tree, entry *output.ManifestExport) error {
	pending := &pendingFiles{}
	refused := func(err error) error { return &RenderError{Export: t.Export, Err: err} }
	if f.c.has("json") {
		data, err := jsonbundle.Encode(t)
		if err != nil {
			return refused(fmt.Errorf("json bundle of %s: %w", t.Dir(), err))
		}
		entry.JSON = "bundles/" + t.Dir() + "/tree.json"
		if err := pending.Write(entry.JSON, data); err != nil {
			return refused(err)
		}
	}
	if f.c.has("markdown") {
		e, err := markdown.Write(pending, t, markdown.Options{Generator: f.c.Generator, Hugo: f.c.MarkdownHugo})
		if err != nil {
			return refused(err) // names the bundle
		}
		entry.Markdown = e.Dir
	}
	var info handbook.Info
	if f.handbook != nil {
		info = f.info(t)
	}
	if f.c.has("handbook") {
		data, err := f.handbook.Render(t, info)
		if err != nil {
			return refused(fmt.Errorf("handbook of %s: %w", t.Dir(), err))
		}
		entry.Handbook = t.Dir() + "/handbook.html"
		if err := pending.Write(entry.Handbook, data); err != nil {
			return refused(err)
		}
	}
	var printable []byte // the handbook Chromium prints
	if f.c.has("pdf") {
		info.PDF, info.SiteHome = true, ""
		data, err := f.handbook.Render(t, info)
		if err != nil {
			return refused(fmt.Errorf("handbook of %s: %w", t.Dir(), err))
		}
		printable = data
	}
	if err := pending.flush(w); err != nil {
		return err
	}
	if printable != nil {
		data := printable
		entry.PDF = t.Dir() + "/handbook.pdf"
		e, dir, rel, o := t.Export, t.Dir(), entry.PDF, chrome.PDFOptions{Paper: info.Paper, Outline: true, Date: info.ContentDate}
		f.printing.Go(func() (err error) {
			defer crash.Recover(&err)
			pdf, err := f.print(ctx, data, o)
			if errors.Is(err, ErrPDFTimeout) {
				// That export fails, the others go on.
				f.mu.Lock()
				f.late = append(f.late, Failure{Export: e, Err: fmt.Errorf("pdf of %s: %w", dir, err)})
				f.mu.Unlock()
				return nil
			}
			if err != nil {
				return fmt.Errorf("pdf of %s: %w", dir, err)
			}
			return w.Write(rel, pdf)
		})
	}
	return nil
}

// wait waits for the PDF jobs and returns the first error. After a
// success it removes the printed PDFs no run used for printsKeptFor.
func (f *treeFormats) wait() error {
	if err := f.printing.Wait(); err != nil {
		return err
	}
	if f.prints != nil {
		n, err := f.prints.Prune(printsKeptFor)
		if err != nil {
			f.c.Log.Warn("pruning the printed PDFs", "err", err)
		} else if n > 0 {
			f.c.Log.Debug("printed PDFs pruned", "removed", n)
		}
	}
	return nil
}

// keepLatePDFs makes each export whose handbook did not print within
// Config.PDFTimeout a failure of the run (exit 3): its previous PDF, if
// any, is carried over, and its manifest entry says kept (or missing,
// with no PDF) with the error; its other formats are this run's. Call it
// after wait.
func (f *treeFormats) keepLatePDFs(w *output.Writer, entries map[string]output.ManifestExport, sum *Summary) error {
	for _, fl := range f.late {
		key := fl.Export.Key()
		entry := entries[key]
		kept, err := w.CarryOver(entry.PDF)
		if err != nil {
			return err
		}
		fl.Kept = kept
		entry.State, entry.Error = output.StateKept, fl.Err.Error()
		if !kept {
			entry.State, entry.PDF = output.StateMissing, ""
		}
		entries[key] = entry
		sum.Failures = append(sum.Failures, fl)
	}
	return nil
}

// info is what a handbook shows beyond the tree.
func (f *treeFormats) info(t *model.Tree) handbook.Info {
	info := handbook.Info{ContentDate: t.ResolvedAt, Paper: f.c.Paper, LocaleNames: map[string]string{}}
	nodes, translated := 0, 0
	t.Walk(func(n *model.Node) bool {
		nodes++
		if n.Translation.IsTranslated || t.Locale == t.PrimaryLocale {
			translated++
		}
		return true
	})
	if !f.date.IsZero() {
		info.ContentDate = f.date
	}
	if f.c.has("html") {
		info.SiteHome = "index.html"
	}
	if cp := f.plans[t.CurriculumID]; cp != nil {
		for _, l := range cp.Locales {
			info.LocaleNames[l.Code] = l.Name
			if l.Code == t.Locale {
				info.LocaleName = l.Name
				info.TranslationProgress, info.PublishedProgress = l.TranslationProgress, l.PublishedProgress
			}
		}
		if nodes > 0 {
			// This variant's own progress, as on the website.
			info.TranslationProgress = translated * 100 / nodes
		}
	}
	return info
}

// print turns a handbook into PDF: the one printed before from the same
// bytes with the same options and browser when the cache has it, else
// Chromium's print of a copy in the spool folder, which the cache then
// keeps.
func (f *treeFormats) print(ctx context.Context, html []byte, o chrome.PDFOptions) ([]byte, error) {
	var key string
	if f.prints != nil {
		key = printcache.Key(html, o, f.browser.Version())
		if pdf, ok := f.prints.Get(key); ok {
			f.reused.Add(1)
			return pdf, nil
		}
	}
	pctx, cancel := context.WithTimeoutCause(ctx, f.c.PDFTimeout, fmt.Errorf("%w: more than %s", ErrPDFTimeout, f.c.PDFTimeout))
	defer cancel()
	pdf, err := f.printFile(pctx, html, o)
	if err != nil {
		if ctx.Err() == nil && errors.Is(context.Cause(pctx), ErrPDFTimeout) {
			return nil, context.Cause(pctx)
		}
		return nil, err
	}
	f.printed.Add(1)
	if f.prints != nil {
		if err := f.prints.Put(key, pdf); err != nil {
			// The PDF is good; only the next run will print it again.
			f.c.Log.Warn("keeping the printed PDF", "err", err)
		}
	}
	return pdf, nil
}

// printFile prints html with Chromium, which reads it from a file.
func (f *treeFormats) printFile(ctx context.Context, html []byte, o chrome.PDFOptions) ([]byte, error) {
	tmp, err := os.CreateTemp(f.spool, "handbook-*.html")
	if err != nil {
		return nil, err
	}
	name := tmp.Name()
	defer os.Remove(name)
	if _, err := tmp.Write(html); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	return f.browser.PDF(ctx, abs, o)
}
