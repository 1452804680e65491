package exporter

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/curex/curex/exporter/internal/cpugate"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/mathml"
)

// Run performs an export. It returns an error when nothing could be
// committed (the previous output is then untouched); a Summary with
// failures means a partial export.
func Run(ctx context.Context, c Config) (*Summary, error) {
	if c.Output == "" {
		return nil, &ConfigError{errors.New("no output folder")}
	}
	if err := c.checkAPI(); err != nil {
		return nil, err
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	return execute(ctx, &c, source{})
}

// execute runs the stages of an export (or, with src from the cache, a
// build) in order. Each stage is a method of run that takes what earlier
// stages handed on (plan's planned, schedule's scheduled) and returns
// what later ones need; the first error stops the run with nothing
// committed.
func execute(ctx context.Context, c *Config, src source) (*Summary, error) {
	r, err := begin(ctx, c, src)
	if err != nil {
		return nil, err
	}
	defer r.close()
	p, err := r.plan(ctx) // discovery: what to export
	if err != nil {
		return nil, err
	}
	sc, err := r.schedule(ctx, p) // freshness: what to fetch, in what order; the formats
	if err != nil {
		return nil, err
	}
	for _, stage := range []func(context.Context, planned, *scheduled) error{
		r.fetch,  // fetch each tree and write it as it arrives
		r.write,  // write the trees held back as unchanged, or carry them over
		r.settle, // carry over what failed; wait for the PDFs
		r.site,   // the website's remaining pages and site-wide pages
		r.commit, // manifest, swap in the output, state of this run
	} {
		if err := stage(ctx, p, sc); err != nil {
			return nil, err
		}
	}
	return p.ledger.sum, nil
}

// run is an export in progress: what every stage works in (the
// configuration, the source of answers, the output being written, the
// session with the API) and what close undoes. What a stage decides it
// hands to the next as a value (planned, scheduled), in the manner of
// Hugo's deploy.Deploy.
type run struct {
	c     *Config
	src   source
	start time.Time
	w     *output.Writer
	s     *session
	prev  *output.Manifest
	// undo holds what close does, last first.
	undo      []func()
	committed bool
}

// begin checks the output folder (curex's or empty, writable) and makes
// its staging folder before the first request, so that a refused output
// costs no request and no wait, and opens the session. A cancelled run
// stops writing at the next file of any stage.
func begin(ctx context.Context, c *Config, src source) (*run, error) {
	r := &run{c: c, src: src, start: time.Now()}
	w, err := output.BeginContext(ctx, c.Fs, c.Output)
	if err != nil {
		return nil, &ConfigError{err}
	}
	r.w, r.prev = w, w.Previous()
	r.defer_(func() {
		if !r.committed {
			_ = w.Abort()
		}
	})
	if r.s, err = newSession(c, src); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// defer_ adds f to what close does.
func (r *run) defer_(f func()) { r.undo = append(r.undo, f) }

// close releases what the stages took, last first; an output not
// committed is aborted.
func (r *run) close() {
	for i := len(r.undo) - 1; i >= 0; i-- {
		r.undo[i]()
	}
	r.undo = nil
}

// planned is what discovery hands the later stages: the plan, the
// catalog renderers see of it, and the ledger of its exports.
type planned struct {
	plan *fetch.Plan
	// catalog is the plan as renderers see it (plan.Catalog).
	catalog *model.Catalog
	ledger  *ledger
}

// plan runs discovery: the exports, and those that fail at once (a
// locale that is no language tag).
func (r *run) plan(ctx context.Context) (planned, error) {
	plan, err := r.s.discover(ctx, r.c.Log, r.c.Filter)
	if err != nil {
		return planned{}, err
	}
	exports := plan.Exports()
	l := newLedger(exports, &Summary{Planned: len(exports), Skipped: plan.Skipped}, r.prev)
	// Exports of a locale whose code is no language tag fail alone.
	for _, iv := range plan.Invalid {
		l.exports = append(l.exports, iv.Export)
		l.rec(iv.Export).arrived = true
		l.sum.Planned++
		l.fail(iv.Export, iv.Err)
	}
	return planned{plan: plan, catalog: plan.Catalog(), ledger: l}, nil
}

// scheduled is what schedule hands the later stages: the order of the
// fetch and the components that write the trees.
type scheduled struct {
	fr      *freshness
	fetcher *fetch.Fetcher
	// gate is the processors rendering takes (see cpugate).
	gate    *cpugate.Gate
	kept    *bodies
	formats *treeFormats
	web     render.Site // nil without the website
	reuse   *reuse
	changes *changeLog
	images  *images
}

// schedule decides what is fetched in what order (package fresh), and
// prepares what writes the trees: the formats (Chromium starts here, so
// a machine without one fails before any tree is fetched), the website,
// incremental reuse and the histories of changes.
func (r *run) schedule(ctx context.Context, p planned) (*scheduled, error) {
	c := r.c
	fr, err := openFreshness(freshnessOptions{c.Revalidate, c.Log}, r.s, p.plan, r.start)
	if err != nil {
		return nil, err
	}
	sc := &scheduled{fr: fr}
	r.defer_(fr.close)
	p.ledger.sum.Schedule = fr.sched
	c.Progress.Planned(len(p.plan.Exports()), len(fr.sched.Fetch), r.s.limiter)
	for _, msg := range p.plan.Warnings {
		c.Log.Warn("locale left out", "reason", msg)
	}
	for _, sk := range p.plan.Skipped {
		c.Log.Info("skipped", "curriculum", sk.Export.CurriculumID, "variant", sk.Export.Variant, "locale", sk.Export.Locale, "reason", sk.Reason)
	}
	sc.kept = &bodies{client: r.s.client, includeUnpublished: c.Filter.IncludeUnpublished, hide: c.HideAttributes}
	r.defer_(sc.kept.close)
	// Rendering goes through gate; while requests are paced, one processor
	// is kept for the fetch (see cpugate).
	sc.gate = cpugate.New(runtime.GOMAXPROCS(0))
	o := c.renderOptions()
	o.Gate = sc.gate
	if sc.images, err = newImages(c, r.src.fromCache()); err != nil {
		return nil, err
	}
	r.defer_(func() { _ = sc.images.close() })
	if sc.images.store != nil {
		o.Images, o.ImageData = sc.images.resolve, sc.images.bytesOf
	}
	if sc.images.remote != nil {
		o.RemoteImage = sc.images.fetchRemote
	}
	// One converter for every format: the same expressions recur
	// across a curriculum's variants and locales.
	caches, err := openContentCaches(c.CacheDir, c.Log)
	if err != nil {
		return nil, err
	}
	r.defer_(caches.prune)
	o.Math = mathml.New(caches.mathOptions())
	// And one converter of content, so that a code block is highlighted
	// once for every format (and read back from the cache next time).
	o.Content = content.New(content.WithMath(o.Math), content.WithCodeCache(caches.code), content.WithOrder(o.AttributeOrder))
	if sc.web, err = c.registry().NewSite(ctx, o); err != nil {
		return nil, formatError(err)
	}
	if sc.formats, err = newTreeFormats(ctx, c.registry(), o, sc.gate, p.catalog); err != nil {
		return nil, err
	}
	r.defer_(sc.formats.close)
	if sc.reuse, err = newReuse(ctx, c.renderKeyOptions(), p.plan, sc.kept); err != nil {
		return nil, err
	}
	if sc.changes, err = newChangeLog(changeOptions{scopeDir: r.s.scopeDir, date: c.SourceDate, log: c.Log}); err != nil {
		return nil, err
	}
	sc.fetcher = &fetch.Fetcher{Client: r.s.client, Retry: r.s.retry, Concurrency: c.Concurrency, Skip: fr.skip, Fallback: fr.fallback,
		MaxNodes: c.MaxTreeNodes, Log: c.Log}
	return sc, nil
}

// fetch fetches the trees in the schedule's order and writes each as it
// arrives (arrive), while the website renders each curriculum whose
// trees are all in. It stops cleanly at the deadline or the request
// budget: the trees not fetched keep their previous version.
func (r *run) fetch(ctx context.Context, p planned, sc *scheduled) error {
	if sc.web != nil {
		sc.web.Start(ctx, r.w, p.catalog, func(e model.Export) (*model.Tree, error) { return treeOf(p.ledger, sc.kept, e) })
		r.defer_(func() { _ = sc.web.Stop() })
	}
	unreserve := func() {}
	if !r.src.fromCache() && len(r.c.Limits) > 0 {
		unreserve = sc.gate.Reserve()
		r.defer_(unreserve) // released below; this covers an early return
	}
	err := sc.fetcher.Fetch(ctx, sc.fr.order, func(res fetch.Result) error { return r.arrive(ctx, p.ledger, sc, res) })
	unreserve() // the rest renders on every processor
	if err == nil {
		return r.src.missing(r.c.CacheDir, p.ledger.sum.Failures)
	}
	switch {
	case errors.Is(err, fetch.ErrDeadline):
		r.c.Log.Warn("deadline reached: the exports not fetched keep their previous version; the next run starts with them", "deadline", r.c.Deadline)
	case errors.Is(err, fetch.ErrBudget):
		r.c.Log.Warn("request budget used up: the exports not fetched keep their previous version; the next run starts with them", "max_requests", r.c.MaxRequests)
	default:
		return err
	}
	return nil
}

// arrive handles one tree from the fetcher: it records what the request
// taught, holds the tree back when it may be carried over unchanged, else
// filters it (published nodes only, once for every format) and writes it.
func (r *run) arrive(ctx context.Context, l *ledger, sc *scheduled, res fetch.Result) (err error) {
	written := false
	defer func() {
		if err == nil && sc.web != nil {
			sc.web.Arrived(res.Export, written)
		}
	}()
	rc := l.rec(res.Export)
	rc.arrived = true
	if err := sc.fr.record(res); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return nil // recorded; the run is stopping, nothing more to write
	}
	defer func() { r.c.Progress.TreeDone(res, r.s.stats.Snapshot()) }()
	if res.Err != nil {
		l.fail(res.Export, res.Err)
		return nil
	}
	if rc.held, err = sc.reuse.hold(res, rc.prev, rc.hasPrev); err != nil || rc.held != nil {
		return err
	}
	if res = sc.fetcher.Fill(res); res.Err != nil {
		l.fail(res.Export, res.Err)
		return nil
	}
	for _, m := range res.Tree.Repairs {
		r.c.Log.Warn("repaired a value the API left open", "tree", res.Export.Dir(), "repair", m)
	}
	res.Tree = visible(res.Tree, r.c.Filter.IncludeUnpublished, r.c.HideAttributes)
	written, err = r.writeTree(ctx, l, sc, res, sc.gate)
	return err
}

// writeTree writes one tree (published nodes only unless the run includes
// the others) in every format but the website, and its changes.json, then
// keeps it for the website. A tree a format refuses fails its export
// alone (written false, no error); an error stops the run. With gate, the
// rendering waits for a processor.
func (r *run) writeTree(ctx context.Context, l *ledger, sc *scheduled, res fetch.Result, gate *cpugate.Gate) (written bool, err error) {
	t := res.Tree
	entry := manifestEntry(t.Export, t.VariantChain, t.ETag, t.Count())
	entry.State = output.StateOK
	// The images first, outside the gate: fetching them is waiting.
	if err := sc.images.fetch(ctx, r.w, t, gate, &entry); err != nil {
		return false, err
	}
	if gate != nil {
		gate.Acquire()
	}
	rc := l.rec(res.Export)
	err = sc.formats.write(ctx, r.w, t, &entry)
	if err == nil {
		err = sc.changes.record(r.w, t, &entry, rc.prev, rc.hasPrev)
	}
	if gate != nil {
		gate.Release()
	}
	var refused *RenderError
	if errors.As(err, &refused) {
		l.fail(refused.Export, refused)
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if entry.RenderKey, err = sc.reuse.key(res.Export.CurriculumID); err != nil {
		return false, err
	}
	if sc.web != nil {
		if rc.body, err = sc.kept.put(res); err != nil {
			return false, fmt.Errorf("website: %w", err)
		}
		if err := sc.web.Keep(sc.formats.tree(t), sc.changes.history(t.Key()), &entry); err != nil {
			return false, err
		}
		sc.formats.list(sc.web.Name(), t.Export, &entry)
	}
	rc.entry, rc.hasEntry = entry, true
	l.sum.Written++
	l.sum.MathErrors += entry.MathErrors
	return true, nil
}

// write ends the fetching: the exports never fetched fail (they keep their
// previous version), and the trees held back as unchanged are carried
// over when their whole curriculum is unchanged and intact, else written
// now.
func (r *run) write(ctx context.Context, p planned, sc *scheduled) error {
	l := p.ledger
	for _, e := range l.exports {
		if !l.rec(e).arrived {
			l.sum.NotFetched++
			l.fail(e, fetch.ErrBudget)
		}
	}
	held := func(e model.Export) bool { return l.rec(e).held != nil }
	same := unchanged(p.plan, held)
	if err := checkIntact(r.w, l.exports, held, same); err != nil {
		return err
	}
	for _, e := range l.exports {
		pt := l.rec(e).held
		if pt == nil {
			continue
		}
		if same[e.CurriculumID] {
			if err := r.carryOver(l, sc, e, pt); err != nil {
				return err
			}
			continue
		}
		res, err := sc.reuse.load(*pt)
		if err != nil {
			return fmt.Errorf("unchanged tree %s: %w", e.Dir(), err)
		}
		if _, err := r.writeTree(ctx, l, sc, res, nil); err != nil {
			return err
		}
	}
	return nil
}

// carryOver keeps the files of an unchanged export from the previous
// output, and its manifest entry.
func (r *run) carryOver(l *ledger, sc *scheduled, e model.Export, p *pendingTree) error {
	for _, dir := range layout.Trees(e) {
		if _, err := r.w.CarryOver(dir); err != nil {
			return err
		}
	}
	if sc.web != nil { // the other pages need its outline
		res, err := sc.reuse.load(*p)
		if err != nil {
			return fmt.Errorf("unchanged tree %s: %w", e.Dir(), err)
		}
		sc.web.Reuse(sc.formats.tree(res.Tree), r.w.ReadPrevious)
	}
	if err := sc.images.carryOver(r.w, l.rec(e).prev); err != nil {
		return err
	}
	l.setEntry(e, l.rec(e).prev)
	l.sum.Reused++
	return nil
}

// settle carries over the previous files of every export that failed,
// and of the curricula the token could not read, and waits for the PDFs:
// one that did not print in time fails its export alone.
func (r *run) settle(_ context.Context, p planned, sc *scheduled) error {
	l := p.ledger
	for _, rc := range l.records {
		rc.pages = rc.hasEntry
	}
	pages := r.c.registry().AnyInPages(r.c.Formats)
	for i := range l.sum.Failures {
		fl := &l.sum.Failures[i]
		kept, err := r.w.CarryOver(layout.BundleDir(fl.Export))
		if err != nil {
			return err
		}
		if pages {
			if l.rec(fl.Export).pages, err = r.w.CarryOver(fl.Export.Dir()); err != nil {
				return err
			}
		}
		fl.Kept = kept
		entry := failedEntry(r.prev, fl.Export, kept, fl.Err)
		if rc := l.rec(fl.Export); (kept || rc.pages) && rc.hasPrev {
			// Its previous pages show the previous images.
			if err := sc.images.carryOver(r.w, rc.prev); err != nil {
				return err
			}
			entry.Assets = rc.prev.Assets
		}
		l.setEntry(fl.Export, entry)
	}
	// Curricula the token could not read (403) keep their previous files.
	unreadable, err := keepUnreadable(r.w, p.plan, r.prev)
	if err != nil {
		return err
	}
	for _, u := range unreadable {
		if err := sc.images.carryOver(r.w, u.entry); err != nil {
			return err
		}
		l.sum.Planned++
		l.sum.Failures = append(l.sum.Failures, u.failure)
		l.setEntry(u.failure.Export, u.entry)
		l.exports = append(l.exports, u.failure.Export)
	}
	late, err := sc.formats.wait()
	if err != nil {
		return err
	}
	for _, lt := range late {
		if err := r.keepLate(l, lt); err != nil {
			return err
		}
	}
	return nil
}

// keepLate makes an export whose file of a deferred format did not come
// in time (a handbook that did not print within Config.PDFTimeout) a
// failure of the run (exit 3): that file's previous version, if any, is
// carried over, and its manifest entry says kept (or missing, with no
// such file) with the error; its other formats are this run's.
func (r *run) keepLate(l *ledger, lt render.Late) error {
	rc := l.rec(lt.Export)
	kept := false
	if p := rc.entry.Path(lt.Format); p != "" { // a format the manifest does not list keeps nothing
		var err error
		if kept, err = r.w.CarryOver(p); err != nil {
			return err
		}
	}
	rc.entry.State, rc.entry.Error = output.StateKept, lt.Err.Error()
	if !kept {
		rc.entry.State = output.StateMissing
		rc.entry.SetPath(lt.Format, "")
	}
	l.sum.Failures = append(l.sum.Failures, Failure{Export: lt.Export, Err: lt.Err, Kept: kept})
	return nil
}

// site ends the website's early rendering and writes the pages not yet
// written, then the site-wide pages.
func (r *run) site(ctx context.Context, p planned, sc *scheduled) error {
	if sc.web == nil {
		return nil
	}
	if err := sc.web.Stop(); err != nil {
		return err
	}
	pages := map[model.Key]bool{}
	for k, rc := range p.ledger.records {
		if rc.pages {
			pages[k] = true
		}
	}
	return sc.web.Finish(ctx, r.w, p.ledger.exports, pages)
}

// treeOf reads back the tree of e kept in kept for the website
// (render.Trees), published nodes only unless the run includes the
// others. The website calls it from its own goroutine.
func treeOf(l *ledger, kept *bodies, e model.Export) (*model.Tree, error) {
	t, _, err := kept.load(l.rec(e).body)
	return t, err
}

// commit writes the manifest and swaps the new output in, then keeps the
// state of this run (freshness records, snapshots of the trees) and sums
// up.
func (r *run) commit(_ context.Context, p planned, sc *scheduled) error {
	m := p.ledger.manifest(r.c.Generator)
	if err := r.w.Commit(m); err != nil {
		return err
	}
	r.committed = true
	if err := sc.fr.commit(); err != nil {
		return err
	}
	if err := sc.changes.prune(m); err != nil {
		return err
	}
	sc.changes.report()
	sum := p.ledger.sum
	sum.Files = r.w.Listed()
	sum.FilesWritten, sum.FilesUnchanged = r.w.Counts()
	sum.PDFsPrinted, sum.PDFsReused = sc.formats.reused()
	sum.AssetsFetched, sum.AssetsReused, sum.AssetsFailed = sc.images.counts()
	sum.Stats = r.s.stats.Snapshot()
	sum.Duration = time.Since(r.start)
	slices.SortFunc(sum.Failures, func(a, b Failure) int { return strings.Compare(a.Export.Key().String(), b.Export.Key().String()) })
	return nil
}
