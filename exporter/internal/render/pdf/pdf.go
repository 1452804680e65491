// Package pdf is the pdf format: each tree's handbook printed to PDF by
// Chromium. It owns the browser (package chrome), the spool folder of
// the handbook copies Chromium reads, and the cache of printed PDFs
// (package printcache). Printing runs in the background, a few handbooks
// at a time, while the run goes on; a handbook that does not print within
// the timeout fails its export alone (render.Late).
package pdf

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/crash"
	"github.com/curex/curex/exporter/internal/diskcache"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/printcache"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/handbook"
	"github.com/curex/curex/exporter/internal/setting"
)

// DefaultTimeout is the default bound on printing one handbook: a
// handbook of thousands of pages prints in well under a minute.
const DefaultTimeout = 2 * time.Minute

// ErrTimeout is the error, wrapped, of a handbook that did not print
// within the timeout.
var ErrTimeout = errors.New("printing took too long")

// Probe says whether this machine can print PDFs (render.Format.Probe):
// nil when Chromium is found, else what is missing and how to get it.
func Probe() error {
	if _, err := chromium.Find(""); err != nil {
		return fmt.Errorf("handbooks are exported as HTML only (apt-get install chromium adds PDF): %w", err)
	}
	return nil
}

// printers bounds the handbooks Chromium prints at once (a tab each).
const printers = 2

// printsKeptFor is how long a printed PDF no run used stays in the cache.
const printsKeptFor = 30 * 24 * time.Hour

// Renderer prints handbooks. It is a render.Deferred: Render prepares the
// handbook copy Chromium prints (a tree the handbook refuses is refused
// there), Start prints it in the background, Wait waits for the prints.
type Renderer struct {
	handbook *handbook.Renderer
	opts     render.Options
	timeout  time.Duration
	log      *slog.Logger
	browser  *chromium.Browser
	spool    string // handbook copies Chromium prints, and their images
	// spooled holds the images written into the spool.
	spoolMu sync.Mutex
	spooled map[string]bool
	// prints keeps the PDFs printed, by handbook and options (nil
	// without a cache folder); printed and reused count this run's.
	prints          *diskcache.Store
	printed, reused atomic.Int64
	printing        *errgroup.Group

	mu   sync.Mutex
	jobs map[model.Export]job // prepared by Render, started by Start
	late []render.Late
}

// job is a handbook ready to print.
type job struct {
	html []byte
	rel  string
	o    chromium.PDFOptions
	// dir is the export's folder; images the files under
	// assets/content/ its handbook shows (relative to dir's place).
	dir    string
	images []string
}

// New starts Chromium at once, so that a machine without one fails before
// any request is spent (an error naming setting.Formats), and opens the
// cache of prints under o.CacheDir.
func New(ctx context.Context, o render.Options) (render.Renderer, error) {
	hb, err := handbook.NewContext(ctx, handbook.OptionsOf(o))
	if err != nil {
		return nil, setting.Errorf(setting.Theme, "%w", err)
	}
	r := &Renderer{handbook: hb, opts: o, timeout: o.PDFTimeout, log: o.Log, printing: &errgroup.Group{}, jobs: map[model.Export]job{}}
	if r.timeout <= 0 {
		r.timeout = DefaultTimeout
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	r.printing.SetLimit(printers)
	if r.spool, err = os.MkdirTemp("", "curex-pdf-"); err != nil {
		return nil, fmt.Errorf("pdf: %w", err)
	}
	if o.CacheDir != "" {
		if r.prints, err = printcache.Open(layout.Cache(o.CacheDir).Prints(), nil); err != nil {
			_ = r.Close()
			return nil, err
		}
	}
	r.browser, err = chromium.Launch(ctx, chromium.Options{Log: r.log})
	if err != nil {
		_ = r.Close()
		if errors.Is(err, chromium.ErrNoBrowser) {
			return nil, setting.Errorf(setting.Formats, "pdf: %w", err)
		}
		return nil, fmt.Errorf("pdf: %w", err)
	}
	return r, nil
}

// Name implements render.Renderer.
func (*Renderer) Name() string { return "pdf" }

// Render implements render.Renderer: it renders the handbook copy that
// Chromium prints (with the images entry lists); Start prints it.
func (r *Renderer) Render(ctx context.Context, _ render.Writer, t *render.Tree, entry *output.ManifestExport) error {
	info := handbook.InfoOf(t, r.opts)
	info.PDF, info.SiteHome = true, ""
	data, err := r.handbook.WithContext(ctx).Render(t.Tree, info)
	if err != nil {
		return fmt.Errorf("handbook of %s: %w", t.Dir(), err)
	}
	r.mu.Lock()
	r.jobs[t.Export] = job{html: data, rel: layout.PDF(t.Export), o: chromium.PDFOptions{Paper: info.Paper, Outline: true, Date: info.ContentDate},
		dir: t.Export.Dir(), images: entry.Assets}
	r.mu.Unlock()
	return nil
}

// Start implements render.Deferred: it prints the handbook Render
// prepared for e and writes the PDF through w.
func (r *Renderer) Start(ctx context.Context, w render.Writer, e model.Export) {
	r.mu.Lock()
	j, ok := r.jobs[e]
	delete(r.jobs, e)
	r.mu.Unlock()
	if !ok {
		return
	}
	dir := e.Dir()
	r.printing.Go(func() (err error) {
		defer crash.Recover(&err)
		pdf, err := r.print(ctx, j)
		if errors.Is(err, ErrTimeout) {
			// That export fails, the others go on.
			r.mu.Lock()
			r.late = append(r.late, render.Late{Format: r.Name(), Export: e, Err: fmt.Errorf("pdf of %s: %w", dir, err)})
			r.mu.Unlock()
			return nil
		}
		if err != nil {
			return fmt.Errorf("pdf of %s: %w", dir, err)
		}
		return w.Write(j.rel, pdf)
	})
}

// Wait implements render.Deferred: it waits for the prints and returns the
// exports whose handbook did not print in time, and the first other
// error. After a success it removes the printed PDFs no run used for a
// month.
func (r *Renderer) Wait() ([]render.Late, error) {
	if err := r.printing.Wait(); err != nil {
		return nil, err
	}
	if r.prints != nil {
		n, err := r.prints.Prune(printsKeptFor)
		if err != nil {
			r.log.Warn("pruning the printed PDFs", "err", err)
		} else if n > 0 {
			r.log.Debug("printed PDFs pruned", "removed", n)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	late := r.late
	r.late = nil
	return late, nil
}

// Counts returns how many handbooks Chromium printed this run, and how
// many the cache had printed before from the same bytes.
func (r *Renderer) Counts() (printed, reused int) {
	return int(r.printed.Load()), int(r.reused.Load())
}

// Close waits for the prints, closes the browser and removes the spool.
func (r *Renderer) Close() error {
	_ = r.printing.Wait()
	if r.browser != nil {
		_ = r.browser.Close()
	}
	if r.spool != "" {
		return os.RemoveAll(r.spool)
	}
	return nil
}

// print turns a handbook into PDF: the one printed before from the same
// bytes with the same options and browser when the cache has it, else
// Chromium's print of a copy in the spool folder, which the cache then
// keeps.
func (r *Renderer) print(ctx context.Context, j job) ([]byte, error) {
	html, o := j.html, j.o
	var key string
	if r.prints != nil {
		key = printcache.Key(html, o, r.browser.Version())
		if pdf, ok := r.prints.Get(key); ok {
			r.reused.Add(1)
			return pdf, nil
		}
	}
	pctx, cancel := context.WithTimeoutCause(ctx, r.timeout, fmt.Errorf("%w: more than %s", ErrTimeout, r.timeout))
	defer cancel()
	pdf, err := r.printFile(pctx, j)
	if err != nil {
		if ctx.Err() == nil && errors.Is(context.Cause(pctx), ErrTimeout) {
			return nil, context.Cause(pctx)
		}
		return nil, err
	}
	r.printed.Add(1)
	if r.prints != nil {
		if err := r.prints.Put(key, pdf); err != nil {
			// The PDF is good; only the next run will print it again.
			r.log.Warn("keeping the printed PDF", "err", err)
		}
	}
	return pdf, nil
}

// printFile prints a handbook with Chromium, which reads it from a file.
// The copy sits in the spool where the handbook sits in the output
// (curriculum/variant/locale/), and the images it shows where they sit
// in the output (assets/content/), so its relative links lead to them
// and the PDF holds them without a request.
func (r *Renderer) printFile(ctx context.Context, j job) ([]byte, error) {
	if err := r.spoolImages(j.images); err != nil {
		return nil, err
	}
	dir := filepath.Join(r.spool, filepath.FromSlash(j.dir))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(dir, "handbook-*.html")
	if err != nil {
		return nil, err
	}
	name := tmp.Name()
	defer os.Remove(name)
	if _, err := tmp.Write(j.html); err != nil {
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
	// Chromium reads the handbook's folder and the images beside it, and
	// nothing else: no other file, and the network only through the image
	// fetcher (--assets remote).
	o := j.o
	o.Access = chromium.Access{
		Dirs:   []string{dir, filepath.Join(r.spool, filepath.FromSlash(layout.ContentAssets))},
		Remote: r.opts.RemoteImage,
	}
	return r.browser.PDF(ctx, abs, o)
}

// spoolImages writes the images of paths (under assets/content/) into
// the spool, once each: their names are their hashes.
func (r *Renderer) spoolImages(paths []string) error {
	if r.opts.ImageData == nil {
		return nil
	}
	r.spoolMu.Lock()
	defer r.spoolMu.Unlock()
	for _, p := range paths {
		if r.spooled[p] {
			continue
		}
		data, ok := r.opts.ImageData(p)
		if !ok {
			continue // the page shows its alt text
		}
		full := filepath.Join(r.spool, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(full, data, 0o600); err != nil {
			return err
		}
		if r.spooled == nil {
			r.spooled = map[string]bool{}
		}
		r.spooled[p] = true
	}
	return nil
}
