package exporter

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/fresh"
	"github.com/curex/curex/exporter/internal/cpugate"
	"github.com/curex/curex/exporter/layout"
	"github.com/curex/curex/exporter/model"
	"github.com/curex/curex/exporter/output"
	"github.com/curex/curex/exporter/render"
	"github.com/curex/curex/exporter/render/mathml"
)

// Failure is an export that could not be refreshed.
type Failure struct {
	Export model.Export
	Err    error
	// Kept is true when the previous version was carried over.
	Kept bool
}

// Summary tells what a run did.
type Summary struct {
	Planned int
	// Written counts the exports rendered; Reused those carried over
	// unchanged from the previous output (same ETag, same render key).
	Written, Reused int
	Failures        []Failure
	// NotFetched counts exports left when the request budget ran out.
	NotFetched int
	Stats      fetch.StatsSnapshot
	// Files counts the output's files; FilesWritten those this run
	// wrote, FilesUnchanged those it kept byte for byte (not rewritten).
	Files, FilesWritten, FilesUnchanged int
	// PDFsPrinted counts the handbooks Chromium printed this run;
	// PDFsReused those the cache had printed before from the same bytes.
	PDFsPrinted, PDFsReused int
	// AssetsFetched counts the content images their servers sent this
	// run; AssetsReused those the cache held (a 304); AssetsFailed those
	// left as links (--assets local).
	AssetsFetched, AssetsReused, AssetsFailed int
	// MathErrors counts the TeX expressions of the trees rendered this
	// run that could not be converted to MathML: their pages show the
	// source, marked (see ManifestExport.MathErrors for each export).
	MathErrors int
	Duration   time.Duration
	Skipped    []fetch.Skip
	// Schedule is what the run decided for each tree: fetched because
	// new, changed or due for revalidation, or served from the cache.
	Schedule *fresh.Schedule
}

// Partial reports whether some exports failed while others were written.
func (s *Summary) Partial() bool { return len(s.Failures) > 0 }

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
// build) in order. Each stage is a method of run; the first error stops
// the run with nothing committed.
func execute(ctx context.Context, c *Config, src source) (*Summary, error) {
	r, err := begin(ctx, c, src)
	if err != nil {
		return nil, err
	}
	defer r.close()
	stages := []func(context.Context) error{
		r.plan,     // discovery: what to export
		r.schedule, // freshness: what to fetch, in what order
		r.fetch,    // fetch each tree and write it as it arrives
		r.write,    // write the trees held back as unchanged, or carry them over
		r.settle,   // carry over what failed; wait for the PDFs
		r.site,     // the website's remaining pages and site-wide pages
		r.commit,   // manifest, swap in the output, state of this run
	}
	for _, stage := range stages {
		if err := stage(ctx); err != nil {
			return nil, err
		}
	}
	return r.sum, nil
}

// run is an export in progress: its stages are methods over one record
// per export, in the manner of Hugo's deploy.Deploy.
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

	planned *fetch.Plan
	// catalog is the plan as renderers see it (plan.Catalog).
	catalog *model.Catalog
	fr      *freshness
	fetcher *fetch.Fetcher
	gate    *cpugate.Gate
	kept    *bodies
	formats *treeFormats
	web     render.Site // nil without the website
	reuse   *reuse
	changes *changeLog
	images  *images

	// exports lists every export in manifest order; records holds what
	// the run knows of each. mu guards the map (not the records): the
	// website's early rendering reads it (treeOf) while the run goes on.
	exports []model.Export
	mu      sync.Mutex
	records map[model.Key]*record
	sum     *Summary
}

// record is what a run knows of one export.
type record struct {
	// arrived is set once the fetcher delivered the tree (or its failure),
	// or when the export could not be fetched at all.
	arrived bool
	// entry is its manifest entry, once written, carried over or failed.
	entry    output.ManifestExport
	hasEntry bool
	// pages is set when its pages are in the output (written or kept),
	// for the website's links.
	pages bool
	// prev is its entry in the previous manifest, if hasPrev.
	prev    output.ManifestExport
	hasPrev bool
	// held is its tree held back as unchanged (see reuse), until every
	// tree of its curriculum is in.
	held *pendingTree
	// body is where its tree is kept once written, for the website,
	// which renders it later (treeOf).
	body bodyRef
}

// begin checks the output folder (curex's or empty, writable) and makes
// its staging folder before the first request, so that a refused output
// costs no request and no wait, and opens the session. A cancelled run
// stops writing at the next file of any stage.
func begin(ctx context.Context, c *Config, src source) (*run, error) {
	r := &run{c: c, src: src, start: time.Now(), records: map[model.Key]*record{}}
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

// rec returns the record of e, made on first use.
func (r *run) rec(e model.Export) *record {
	k := e.Key()
	r.mu.Lock()
	defer r.mu.Unlock()
	rc := r.records[k]
	if rc == nil {
		rc = &record{}
		r.records[k] = rc
	}
	return rc
}

// setEntry records e's manifest entry.
func (r *run) setEntry(e model.Export, entry output.ManifestExport) {
	rc := r.rec(e)
	rc.entry, rc.hasEntry = entry, true
}

// fail records a failure of e; settle carries its previous files over.
func (r *run) fail(e model.Export, err error) {
	r.sum.Failures = append(r.sum.Failures, Failure{Export: e, Err: err})
}

// plan runs discovery: the exports, and those that fail at once (a
// locale that is no language tag).
func (r *run) plan(ctx context.Context) error {
	plan, err := r.s.discover(ctx, r.c.Log, r.c.Filter)
	if err != nil {
		return err
	}
	r.planned, r.catalog, r.exports = plan, plan.Catalog(), plan.Exports()
	r.sum = &Summary{Planned: len(r.exports), Skipped: plan.Skipped}
	for _, e := range r.exports {
		r.rec(e)
	}
	if r.prev != nil {
		for _, e := range r.prev.Exports {
			if rc, ok := r.records[entryKey(e)]; ok {
				rc.prev, rc.hasPrev = e, true
			}
		}
	}
	// Exports of a locale whose code is no language tag fail alone.
	for _, iv := range plan.Invalid {
		r.exports = append(r.exports, iv.Export)
		r.rec(iv.Export).arrived = true
		r.sum.Planned++
		r.fail(iv.Export, iv.Err)
	}
	return nil
}

// schedule decides what is fetched in what order (package fresh), and
// prepares what writes the trees: the formats (Chromium starts here, so
// a machine without one fails before any tree is fetched), the website,
// incremental reuse and the histories of changes.
func (r *run) schedule(ctx context.Context) error {
	c := r.c
	fr, err := openFreshness(freshnessOptions{c.Revalidate, c.Log}, r.s, r.planned, r.start)
	if err != nil {
		return err
	}
	r.fr = fr
	r.defer_(fr.close)
	r.sum.Schedule = fr.sched
	c.Progress.Planned(len(r.planned.Exports()), len(fr.sched.Fetch), r.s.limiter)
	for _, msg := range r.planned.Warnings {
		c.Log.Warn("locale left out", "reason", msg)
	}
	for _, sk := range r.planned.Skipped {
		c.Log.Info("skipped", "curriculum", sk.Export.CurriculumID, "variant", sk.Export.Variant, "locale", sk.Export.Locale, "reason", sk.Reason)
	}
	r.kept = &bodies{client: r.s.client, includeUnpublished: c.Filter.IncludeUnpublished, hide: c.HideAttributes}
	r.defer_(r.kept.close)
	// Rendering goes through gate; while requests are paced, one processor
	// is kept for the fetch (see cpugate).
	r.gate = cpugate.New(runtime.GOMAXPROCS(0))
	o := c.renderOptions()
	o.Gate = r.gate
	if r.images, err = newImages(c, r.src.fromCache()); err != nil {
		return err
	}
	r.defer_(func() { _ = r.images.close() })
	if r.images.store != nil {
		o.Images, o.ImageData = r.images.resolve, r.images.bytesOf
	}
	if r.images.remote != nil {
		o.RemoteImage = r.images.fetchRemote
	}
	// One converter for every format: the same expressions recur
	// across a curriculum's variants and locales.
	o.Math = mathml.New(mathml.Options{})
	if r.web, err = c.registry().NewSite(ctx, o); err != nil {
		return formatError(err)
	}
	if r.formats, err = newTreeFormats(ctx, c.registry(), o, r.catalog); err != nil {
		return err
	}
	r.defer_(r.formats.close)
	if r.reuse, err = newReuse(ctx, c.renderKeyOptions(), r.planned, r.kept); err != nil {
		return err
	}
	if r.changes, err = newChangeLog(changeOptions{scopeDir: r.s.scopeDir, date: c.SourceDate, log: c.Log}); err != nil {
		return err
	}
	r.fetcher = &fetch.Fetcher{Client: r.s.client, Retry: r.s.retry, Concurrency: c.Concurrency, Skip: fr.skip, Fallback: fr.fallback,
		MaxNodes: c.MaxTreeNodes, Log: c.Log}
	return nil
}

// fetch fetches the trees in the schedule's order and writes each as it
// arrives (arrive), while the website renders each curriculum whose
// trees are all in. It stops cleanly at the deadline or the request
// budget: the trees not fetched keep their previous version.
func (r *run) fetch(ctx context.Context) error {
	if r.web != nil {
		r.web.Start(ctx, r.w, r.catalog, r.treeOf)
		r.defer_(func() { _ = r.web.Stop() })
	}
	unreserve := func() {}
	if !r.src.fromCache() && len(r.c.Limits) > 0 {
		unreserve = r.gate.Reserve()
		r.defer_(unreserve) // released below; this covers an early return
	}
	err := r.fetcher.Fetch(ctx, r.fr.order, func(res fetch.Result) error { return r.arrive(ctx, res) })
	unreserve() // the rest renders on every processor
	if err == nil {
		return r.src.missing(r.c.CacheDir, r.sum.Failures)
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
func (r *run) arrive(ctx context.Context, res fetch.Result) (err error) {
	written := false
	defer func() {
		if err == nil && r.web != nil {
			r.web.Arrived(res.Export, written)
		}
	}()
	rc := r.rec(res.Export)
	rc.arrived = true
	if err := r.fr.record(res); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return nil // recorded; the run is stopping, nothing more to write
	}
	defer func() { r.c.Progress.TreeDone(res, r.s.stats.Snapshot()) }()
	if res.Err != nil {
		r.fail(res.Export, res.Err)
		return nil
	}
	if rc.held, err = r.reuse.hold(res, rc.prev, rc.hasPrev); err != nil || rc.held != nil {
		return err
	}
	if res = r.fetcher.Fill(res); res.Err != nil {
		r.fail(res.Export, res.Err)
		return nil
	}
	for _, m := range res.Tree.Repairs {
		r.c.Log.Warn("repaired a value the API left open", "tree", res.Export.Dir(), "repair", m)
	}
	res.Tree = visible(res.Tree, r.c.Filter.IncludeUnpublished)
	written, err = r.writeTree(ctx, res, r.gate)
	return err
}

// writeTree writes one tree (published nodes only unless the run includes
// the others) in every format but the website, and its changes.json, then
// keeps it for the website. A tree a format refuses fails its export
// alone (written false, no error); an error stops the run. With gate, the
// rendering waits for a processor.
func (r *run) writeTree(ctx context.Context, res fetch.Result, gate *cpugate.Gate) (written bool, err error) {
	t := res.Tree
	entry := manifestEntry(t.Export, t.VariantChain, t.ETag, t.Count())
	entry.State = output.StateOK
	// The images first, outside the gate: fetching them is waiting.
	if err := r.images.fetch(ctx, r.w, t, &entry); err != nil {
		return false, err
	}
	if gate != nil {
		gate.Acquire()
	}
	rc := r.rec(res.Export)
	err = r.formats.write(ctx, r.w, t, &entry)
	if err == nil {
		err = r.changes.record(r.w, t, &entry, rc.prev, rc.hasPrev)
	}
	if gate != nil {
		gate.Release()
	}
	var refused *RenderError
	if errors.As(err, &refused) {
		r.fail(refused.Export, refused)
		return false, nil
	}
	if err != nil {
		return false, err
	}
	entry.RenderKey = r.reuse.keys[res.Export.CurriculumID]
	if r.web != nil {
		if rc.body, err = r.kept.put(res); err != nil {
			return false, fmt.Errorf("website: %w", err)
		}
		if err := r.web.Keep(r.formats.tree(t), r.changes.history(t.Key()), &entry); err != nil {
			return false, err
		}
		r.formats.list(r.web.Name(), t.Export, &entry)
	}
	rc.entry, rc.hasEntry = entry, true
	r.sum.Written++
	r.sum.MathErrors += entry.MathErrors
	return true, nil
}

// write ends the fetching: the exports never fetched fail (they keep their
// previous version), and the trees held back as unchanged are carried
// over when their whole curriculum is unchanged and intact, else written
// now.
func (r *run) write(ctx context.Context) error {
	for _, e := range r.exports {
		if !r.rec(e).arrived {
			r.sum.NotFetched++
			r.fail(e, fetch.ErrBudget)
		}
	}
	held := func(e model.Export) bool { return r.rec(e).held != nil }
	same := unchanged(r.planned, held)
	if err := checkIntact(r.w, r.exports, held, same); err != nil {
		return err
	}
	for _, e := range r.exports {
		p := r.rec(e).held
		if p == nil {
			continue
		}
		if same[e.CurriculumID] {
			if err := r.carryOver(e, p); err != nil {
				return err
			}
			continue
		}
		res, err := r.reuse.load(*p)
		if err != nil {
			return fmt.Errorf("unchanged tree %s: %w", e.Dir(), err)
		}
		if _, err := r.writeTree(ctx, res, nil); err != nil {
			return err
		}
	}
	return nil
}

// carryOver keeps the files of an unchanged export from the previous
// output, and its manifest entry.
func (r *run) carryOver(e model.Export, p *pendingTree) error {
	for _, dir := range layout.Trees(e) {
		if _, err := r.w.CarryOver(dir); err != nil {
			return err
		}
	}
	if r.web != nil { // the other pages need its outline
		res, err := r.reuse.load(*p)
		if err != nil {
			return fmt.Errorf("unchanged tree %s: %w", e.Dir(), err)
		}
		r.web.Reuse(r.formats.tree(res.Tree))
	}
	if err := r.images.carryOver(r.w, r.rec(e).prev); err != nil {
		return err
	}
	r.setEntry(e, r.rec(e).prev)
	r.sum.Reused++
	return nil
}

// settle carries over the previous files of every export that failed,
// and of the curricula the token could not read, and waits for the PDFs:
// one that did not print in time fails its export alone.
func (r *run) settle(context.Context) error {
	for _, rc := range r.records {
		rc.pages = rc.hasEntry
	}
	pages := r.c.registry().AnyInPages(r.c.Formats)
	for i := range r.sum.Failures {
		fl := &r.sum.Failures[i]
		kept, err := r.w.CarryOver(layout.BundleDir(fl.Export))
		if err != nil {
			return err
		}
		if pages {
			if r.rec(fl.Export).pages, err = r.w.CarryOver(fl.Export.Dir()); err != nil {
				return err
			}
		}
		fl.Kept = kept
		entry := failedEntry(r.prev, fl.Export, kept, fl.Err)
		if rc := r.rec(fl.Export); (kept || rc.pages) && rc.hasPrev {
			// Its previous pages show the previous images.
			if err := r.images.carryOver(r.w, rc.prev); err != nil {
				return err
			}
			entry.Assets = rc.prev.Assets
		}
		r.setEntry(fl.Export, entry)
	}
	// Curricula the token could not read (403) keep their previous files.
	unreadable, err := keepUnreadable(r.w, r.planned, r.prev)
	if err != nil {
		return err
	}
	for _, u := range unreadable {
		if err := r.images.carryOver(r.w, u.entry); err != nil {
			return err
		}
		r.sum.Planned++
		r.sum.Failures = append(r.sum.Failures, u.failure)
		r.setEntry(u.failure.Export, u.entry)
		r.exports = append(r.exports, u.failure.Export)
	}
	late, err := r.formats.wait()
	if err != nil {
		return err
	}
	for _, l := range late {
		if err := r.keepLate(l); err != nil {
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
func (r *run) keepLate(l render.Late) error {
	rc := r.rec(l.Export)
	kept := false
	if p := rc.entry.Path(l.Format); p != "" { // a format the manifest does not list keeps nothing
		var err error
		if kept, err = r.w.CarryOver(p); err != nil {
			return err
		}
	}
	rc.entry.State, rc.entry.Error = output.StateKept, l.Err.Error()
	if !kept {
		rc.entry.State = output.StateMissing
		rc.entry.SetPath(l.Format, "")
	}
	r.sum.Failures = append(r.sum.Failures, Failure{Export: l.Export, Err: l.Err, Kept: kept})
	return nil
}

// site ends the website's early rendering and writes the pages not yet
// written, then the site-wide pages.
func (r *run) site(ctx context.Context) error {
	if r.web == nil {
		return nil
	}
	if err := r.web.Stop(); err != nil {
		return err
	}
	pages := map[model.Key]bool{}
	for k, rc := range r.records {
		if rc.pages {
			pages[k] = true
		}
	}
	return r.web.Finish(ctx, r.w, r.exports, pages)
}

// treeOf reads back the tree of e kept for the website (render.Trees),
// published nodes only unless the run includes the others. The website
// calls it from its own goroutine.
func (r *run) treeOf(e model.Export) (*model.Tree, error) {
	rc := r.rec(e)
	t, _, err := r.kept.load(rc.body)
	return t, err
}

// commit writes the manifest and swaps the new output in, then keeps the
// state of this run (freshness records, snapshots of the trees) and sums
// up.
func (r *run) commit(context.Context) error {
	m := &output.Manifest{Generator: r.c.Generator}
	for _, e := range r.exports {
		m.Exports = append(m.Exports, r.rec(e).entry)
	}
	if err := r.w.Commit(m); err != nil {
		return err
	}
	r.committed = true
	if err := r.fr.commit(); err != nil {
		return err
	}
	if err := r.changes.prune(m); err != nil {
		return err
	}
	r.changes.report()
	sum := r.sum
	sum.Files = r.w.Listed()
	sum.FilesWritten, sum.FilesUnchanged = r.w.Counts()
	sum.PDFsPrinted, sum.PDFsReused = r.formats.reused()
	sum.AssetsFetched, sum.AssetsReused, sum.AssetsFailed = r.images.counts()
	sum.Stats = r.s.stats.Snapshot()
	sum.Duration = time.Since(r.start)
	slices.SortFunc(sum.Failures, func(a, b Failure) int { return strings.Compare(a.Export.Key().String(), b.Export.Key().String()) })
	return nil
}

// visible is a tree as the formats see it: published nodes only, unless
// the run includes the others. Every tree goes through it once, as it
// arrives (from the fetcher, or read back from the cache or spool).
func visible(t *model.Tree, includeUnpublished bool) *model.Tree {
	if includeUnpublished {
		return t
	}
	return t.PublishedOnly()
}

func manifestEntry(e model.Export, chain []string, etag string, nodes int) output.ManifestExport {
	return output.ManifestExport{
		CurriculumID: e.CurriculumID, CurriculumName: e.CurriculumName, Variant: e.Variant,
		VariantChain: chain, Locale: e.Locale, PrimaryLocale: e.PrimaryLocale,
		NodeCount: nodes, ETag: etag,
	}
}

// failedEntry describes an export this run could not refresh, from the
// previous manifest when the previous files were kept.
func failedEntry(prev *output.Manifest, e model.Export, kept bool, err error) output.ManifestExport {
	entry := manifestEntry(e, nil, "", 0)
	if kept && prev != nil {
		for _, p := range prev.Exports {
			if p.CurriculumID == e.CurriculumID && p.Variant == e.Variant && p.Locale == e.Locale {
				entry = p
				break
			}
		}
	}
	entry.State, entry.Error = output.StateMissing, err.Error()
	if kept {
		entry.State = output.StateKept
	}
	if entry.VariantChain == nil {
		entry.VariantChain = []string{}
	}
	return entry
}

// entryKey is the key of the export a manifest entry describes.
func entryKey(e output.ManifestExport) model.Key {
	return model.Key{CurriculumID: e.CurriculumID, Variant: e.Variant, Locale: e.Locale}
}
