package exporter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/fresh"
	"github.com/curex/curex/exporter/internal/cpugate"
	"github.com/curex/curex/exporter/model"
	"github.com/curex/curex/exporter/output"
	"github.com/curex/curex/exporter/ratelimit"
)

// Config is everything a run needs. Zero values take the documented
// defaults where one exists.
type Config struct {
	BaseURL   string
	Token     string
	AllowHTTP bool
	// Output is the output folder.
	Output  string
	Formats []string
	// CacheDir holds the ETag cache.
	CacheDir string
	Limits   ratelimit.Limits
	Filter   fetch.Filter
	// Concurrency is the number of trees fetched at once (default 4).
	Concurrency int
	// MaxTreeNodes is the most nodes one tree may hold (0:
	// fetch.DefaultMaxTreeNodes); a larger tree fails alone.
	MaxTreeNodes int
	// MaxRequests stops the run cleanly after that many requests (0: none).
	MaxRequests int64
	// Deadline, when not zero, is when the run stops sending requests
	// (--deadline); trees not fetched by then are treated as by
	// MaxRequests.
	Deadline time.Time
	// Revalidate is how trees whose signals did not change are
	// revalidated (--revalidate, --revalidate-within); the zero value is
	// rolling revalidation within fresh.DefaultWindow.
	Revalidate fresh.Policy
	// Generator names the program in manifest.json ("curex 0.1.0").
	Generator string
	// SiteURL is the site's absolute address (--site-url) for the sitemap
	// and canonical links; empty means none.
	SiteURL string
	// ThemeDir overrides templates and assets of the website (--theme).
	ThemeDir string
	// Paper is the handbook's paper size: "a4" (default) or "letter".
	Paper string
	// PDFTimeout bounds the printing of one handbook to PDF (default
	// DefaultPDFTimeout); a handbook that takes longer fails its export
	// only (its previous PDF kept), instead of holding the run up.
	PDFTimeout time.Duration
	// MarkdownHugo writes Markdown bundles in the Hugo content layout
	// (_index.md section pages) instead of the code-host layout.
	MarkdownHugo bool
	Log          *slog.Logger
	// Progress receives progress events; nil reports nothing.
	Progress Progress
	// Transport is the base HTTP transport (tests pass the sandbox's).
	Transport http.RoundTripper
	// Fs is the file system output is written to (default: the OS).
	Fs afero.Fs

	// offline is set by Build: answers come from the cache, and a tree
	// it lacks fails the run instead of keeping a previous version.
	offline bool
	// scopeDir is the folder of CacheDir holding the ETag cache and the
	// state of the API and identity the run talks to (fetch.Scope): set
	// by discovery from /me, or by Build from the last export's.
	scopeDir string
}

// ConfigError is a problem with the configuration; the command line maps
// it to the usage exit code.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

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
	Duration                time.Duration
	Skipped                 []fetch.Skip
	// Schedule is what the run decided for each tree: fetched because
	// new, changed or due for revalidation, or served from the cache.
	Schedule *fresh.Schedule
}

// Partial reports whether some exports failed while others were written.
func (s *Summary) Partial() bool { return len(s.Failures) > 0 }

func (c *Config) check() error {
	if c.BaseURL == "" {
		return &ConfigError{errors.New("no API base URL: give --base-url or set CUREX_BASE_URL")}
	}
	if c.Token == "" {
		return &ConfigError{fmt.Errorf("no API token: set %s or give --token-file", api.EnvToken)}
	}
	if len(c.Formats) == 0 {
		c.Formats = DefaultFormats()
	}
	if err := Formats().Check(c.Formats); err != nil {
		return &ConfigError{err}
	}
	switch c.Paper {
	case "":
		c.Paper = "a4"
	case "a4", "letter":
	default:
		return &ConfigError{fmt.Errorf("--paper %q: want a4 or letter", c.Paper)}
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 4
	}
	if c.PDFTimeout <= 0 {
		c.PDFTimeout = DefaultPDFTimeout
	}
	if c.Limits == nil {
		c.Limits = ratelimit.Default()
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Generator == "" {
		c.Generator = "curex" // manifest.json must name curex to be replaced again
	}
	if c.Progress == nil {
		c.Progress = nopProgress{}
	}
	if c.Fs == nil {
		c.Fs = afero.NewOsFs()
	}
	if c.Transport == nil {
		c.Transport = http.DefaultTransport
	}
	return nil
}

// session is the client side of a run: rate-limited transport, cache,
// typed client and retry policy.
type session struct {
	client  *api.Client
	limiter *fetch.Limiter
	stats   *fetch.Stats
	retry   fetch.RetryPolicy
	// cache is the ETag cache (nil without CacheDir), bound to the
	// run's scope once /me has answered.
	cache *fetch.ScopedCache
}

func newSession(c *Config) (*session, error) {
	s := &session{stats: &fetch.Stats{}}
	s.limiter = fetch.NewLimiter(fetch.LimiterOptions{Limits: c.Limits})
	tr := &fetch.Transport{Base: c.Transport, Limiter: s.limiter, Stats: s.stats, MaxRequests: c.MaxRequests, Deadline: c.Deadline}
	opts := []api.Option{api.WithHTTPClient(&http.Client{Transport: tr}), api.WithUserAgent(c.Generator)}
	if c.AllowHTTP {
		opts = append(opts, api.WithAllowHTTP())
	}
	client, err := api.New(c.BaseURL, c.Token, opts...)
	if err != nil {
		return nil, &ConfigError{fmt.Errorf("--base-url: %w", err)}
	}
	if c.CacheDir != "" {
		// Scoped by API origin and, once /me answers, by identity: two
		// servers with the same ids never see each other's answers.
		if c.scopeDir != "" {
			s.cache, err = fetch.OpenScope(c.scopeDir)
		} else {
			s.cache, err = fetch.NewScopedCache(c.CacheDir, client.BaseURL())
		}
		if err != nil {
			return nil, fmt.Errorf("cache: %w", err)
		}
		if client, err = api.New(c.BaseURL, c.Token, append(opts, api.WithCache(s.cache))...); err != nil {
			return nil, &ConfigError{fmt.Errorf("--base-url: %w", err)}
		}
	}
	s.client = client
	s.retry = fetch.RetryPolicy{
		Retryable: api.Retryable,
		Throttled: func(err error) bool { return errors.Is(err, api.ErrRateLimited) },
		RetryAfter: func(err error) (time.Duration, bool) {
			var e *api.Error
			// 429 waits are the limiter's; a 503's Retry-After is ours.
			if errors.As(err, &e) && e.StatusCode != http.StatusTooManyRequests && e.HasRetryAfter {
				return e.RetryAfter, true
			}
			return 0, false
		},
		OnRetry: func(attempt int, err error, wait time.Duration) {
			s.stats.AddRetry()
			c.Log.Debug("retry", "attempt", attempt, "wait", wait, "err", err)
		},
	}
	return s, nil
}

// PlanReport is what `curex plan` shows of the next run.
type PlanReport struct {
	// Plan is the result of discovery.
	Plan *fetch.Plan
	// Schedule says which trees the next run fetches, in what order, and
	// which it serves from the cache.
	Schedule *fresh.Schedule
	// Limiter paced discovery; its ETA estimates the rest.
	Limiter *fetch.Limiter
}

// Plan runs discovery only and decides what the next run would fetch, for
// `curex plan`. It records nothing.
func Plan(ctx context.Context, c Config) (*PlanReport, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	s, err := newSession(&c)
	if err != nil {
		return nil, err
	}
	p, err := discover(ctx, &c, s, c.Filter)
	if err != nil {
		return nil, err
	}
	fr, err := openFreshness(&c, s, p, time.Now())
	if err != nil {
		return nil, err
	}
	fr.close()
	return &PlanReport{Plan: p, Schedule: fr.sched, Limiter: s.limiter}, nil
}

// discover runs discovery, binding the session's cache to the scope /me
// names, and records the scope's folder in c.
func discover(ctx context.Context, c *Config, s *session, f fetch.Filter) (*fetch.Plan, error) {
	bind := func(u *api.User) error {
		if s.cache == nil {
			return nil
		}
		scope, err := fetch.ScopeOf(s.client.BaseURL(), u)
		if err != nil {
			return err
		}
		dir, err := s.cache.Bind(scope)
		if err != nil {
			return fmt.Errorf("cache of %s: %w", scope, err)
		}
		c.scopeDir = dir
		c.Log.Debug("cache scope", "scope", scope.String(), "dir", dir)
		return nil
	}
	p, err := fetch.DiscoverWith(ctx, s.client, s.retry, f, bind)
	var fe *fetch.FilterError
	if errors.As(err, &fe) {
		return nil, &ConfigError{err}
	}
	return p, err
}

// Run performs an export. It returns an error when nothing could be
// committed (the previous output is then untouched); a Summary with
// failures means a partial export.
func Run(ctx context.Context, c Config) (*Summary, error) {
	start := time.Now()
	if c.Output == "" {
		return nil, &ConfigError{errors.New("no output folder")}
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	// The output folder is checked (curex's or empty, writable) and its
	// staging folder made before the first request: a refused output
	// costs no request and no wait. A cancelled run stops writing at the
	// next file of any stage.
	w, err := output.BeginContext(ctx, c.Fs, c.Output)
	if err != nil {
		return nil, &ConfigError{err}
	}
	committed := false
	defer func() {
		if !committed {
			_ = w.Abort()
		}
	}()
	s, err := newSession(&c)
	if err != nil {
		return nil, err
	}
	plan, err := discover(ctx, &c, s, c.Filter)
	if err != nil {
		return nil, err
	}
	fr, err := openFreshness(&c, s, plan, start)
	if err != nil {
		return nil, err
	}
	defer fr.close()
	exports := plan.Exports()
	sum := &Summary{Planned: len(exports), Skipped: plan.Skipped, Schedule: fr.sched}
	c.Progress.Planned(len(exports), len(fr.sched.Fetch), s.limiter)
	for _, msg := range plan.Warnings {
		c.Log.Warn("locale left out", "reason", msg)
	}
	for _, sk := range plan.Skipped {
		c.Log.Info("skipped", "curriculum", sk.Export.CurriculumID, "variant", sk.Export.Variant, "locale", sk.Export.Locale, "reason", sk.Reason)
	}

	prev := w.Previous()
	entries := map[string]output.ManifestExport{}
	done := map[string]bool{}
	// Exports of a locale whose code is no language tag fail alone.
	for _, iv := range plan.Invalid {
		exports = append(exports, iv.Export)
		done[iv.Export.Key()] = true
		sum.Planned++
		sum.Failures = append(sum.Failures, Failure{Export: iv.Export, Err: iv.Err})
	}
	kept := &bodies{client: s.client}
	defer kept.close()
	// Rendering goes through gate; while requests are paced, one processor
	// is kept for the fetch (see cpugate).
	gate := cpugate.New(runtime.GOMAXPROCS(0))
	site, err := newSiteRun(&c, kept, gate)
	if err != nil {
		return nil, err
	}
	formats, err := newTreeFormats(ctx, &c, plan)
	if err != nil {
		return nil, err
	}
	defer formats.close()
	unchanged, err := newReuse(&c, plan, prev, kept)
	if err != nil {
		return nil, err
	}
	changed, err := newChangeLog(&c, prev, formats.date)
	if err != nil {
		return nil, err
	}
	if site != nil {
		site.changes = changed
	}
	f := &fetch.Fetcher{Client: s.client, Retry: s.retry, Concurrency: c.Concurrency, Skip: fr.skip, Fallback: fr.fallback,
		MaxNodes: c.MaxTreeNodes, Log: c.Log}
	site.start(ctx, w, plan)
	defer site.stop()
	unreserve := func() {}
	if !c.offline && len(c.Limits) > 0 {
		unreserve = gate.Reserve()
		defer unreserve() // released below; this covers an early return
	}
	fetchErr := f.Fetch(ctx, fr.order, func(r fetch.Result) (err error) {
		written := false
		defer func() {
			if err == nil {
				site.arrived(r.Export, written)
			}
		}()
		done[r.Export.Key()] = true
		if err := fr.record(r); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil // recorded; the run is stopping, nothing more to write
		}
		if r.Err != nil {
			sum.Failures = append(sum.Failures, Failure{Export: r.Export, Err: r.Err})
			c.Progress.TreeDone(r, s.stats.Snapshot())
			return nil
		}
		if held, err := unchanged.hold(r); err != nil || held {
			c.Progress.TreeDone(r, s.stats.Snapshot())
			return err
		}
		if r = f.Fill(r); r.Err != nil {
			sum.Failures = append(sum.Failures, Failure{Export: r.Export, Err: r.Err})
			c.Progress.TreeDone(r, s.stats.Snapshot())
			return nil
		}
		for _, m := range r.Tree.Repairs {
			c.Log.Warn("repaired a value the API left open", "tree", r.Export.Dir(), "repair", m)
		}
		gate.Acquire()
		entry, err := writeExport(ctx, w, &c, formats, changed, r.Tree)
		gate.Release()
		if fl, ok := refusedTree(err); ok {
			sum.Failures = append(sum.Failures, fl)
			c.Progress.TreeDone(r, s.stats.Snapshot())
			return nil
		}
		if err != nil {
			return err
		}
		entry.RenderKey = unchanged.keys[r.Export.CurriculumID]
		if err := site.keep(r, &entry); err != nil {
			return err
		}
		entries[r.Export.Key()] = entry
		sum.Written++
		written = true
		c.Progress.TreeDone(r, s.stats.Snapshot())
		return nil
	})
	unreserve() // the rest renders on every processor
	if c.offline && fetchErr == nil && len(sum.Failures) > 0 {
		me := &MissingError{CacheDir: c.CacheDir}
		for _, fl := range sum.Failures {
			var refused *RenderError
			var badLocale *fetch.LocaleError
			if errors.As(fl.Err, &refused) || errors.As(fl.Err, &badLocale) {
				continue // fails alone, as in an export
			}
			if !errors.Is(fl.Err, ErrNotCached) {
				return nil, fmt.Errorf("build %s: %w", fl.Export.Dir(), fl.Err)
			}
			me.Missing = append(me.Missing, fl.Export.Dir())
		}
		if len(me.Missing) > 0 {
			slices.Sort(me.Missing)
			return nil, me
		}
	}
	switch {
	case fetchErr == nil:
	case errors.Is(fetchErr, fetch.ErrDeadline):
		c.Log.Warn("deadline reached: the exports not fetched keep their previous version; the next run starts with them", "deadline", c.Deadline)
	case errors.Is(fetchErr, fetch.ErrBudget):
		c.Log.Warn("request budget used up: the exports not fetched keep their previous version; the next run starts with them", "max_requests", c.MaxRequests)
	default:
		return nil, fetchErr
	}
	// Exports that failed or were never fetched keep their previous files.
	failed := map[string]error{}
	for _, fl := range sum.Failures {
		failed[fl.Export.Key()] = fl.Err
	}
	for _, e := range exports {
		if !done[e.Key()] {
			sum.NotFetched++
			failed[e.Key()] = fetch.ErrBudget
			sum.Failures = append(sum.Failures, Failure{Export: e, Err: fetch.ErrBudget})
		}
	}
	// Trees held back as unchanged: carried over when their whole
	// curriculum is unchanged, else rendered now.
	same := unchanged.unchanged(plan)
	if err := checkIntact(w, exports, unchanged, same); err != nil {
		return nil, err
	}
	for _, e := range exports {
		p, ok := unchanged.pending[e.Key()]
		if !ok {
			continue
		}
		if same[e.CurriculumID] {
			for _, dir := range []string{"bundles/" + e.Dir(), e.Dir()} {
				if _, err := w.CarryOver(dir); err != nil {
					return nil, err
				}
			}
			if site != nil { // the other pages need its outline
				r, err := unchanged.load(p)
				if err != nil {
					return nil, fmt.Errorf("unchanged tree %s: %w", e.Dir(), err)
				}
				if err := site.reuse(r); err != nil {
					return nil, err
				}
			}
			entries[e.Key()] = unchanged.prev[e.Key()]
			sum.Reused++
			continue
		}
		r, err := unchanged.load(p)
		if err != nil {
			return nil, fmt.Errorf("unchanged tree %s: %w", e.Dir(), err)
		}
		entry, err := writeExport(ctx, w, &c, formats, changed, r.Tree)
		if fl, ok := refusedTree(err); ok {
			sum.Failures = append(sum.Failures, fl)
			continue
		}
		if err != nil {
			return nil, err
		}
		entry.RenderKey = unchanged.keys[e.CurriculumID]
		if err := site.keep(r, &entry); err != nil {
			return nil, err
		}
		entries[e.Key()] = entry
		sum.Written++
	}
	exported := map[string]bool{}
	for k := range entries {
		exported[k] = true
	}
	for i := range sum.Failures {
		fl := &sum.Failures[i]
		kept, err := w.CarryOver("bundles/" + fl.Export.Dir())
		if err != nil {
			return nil, err
		}
		if c.has("html") || c.has("handbook") || c.has("pdf") {
			pages, err := w.CarryOver(fl.Export.Dir())
			if err != nil {
				return nil, err
			}
			exported[fl.Export.Key()] = pages
		}
		fl.Kept = kept
		entries[fl.Export.Key()] = failedEntry(prev, fl.Export, kept, fl.Err)
	}
	// Curricula the token could not read (403) keep their previous files.
	if err := keepUnreadable(w, plan, prev, sum, entries, &exports); err != nil {
		return nil, err
	}
	late, err := formats.wait()
	if err != nil {
		return nil, err
	}
	if err := keepLate(w, late, entries, sum); err != nil {
		return nil, err
	}
	if err := site.stop(); err != nil {
		return nil, err
	}
	if err := site.render(ctx, w, plan, exports, exported); err != nil {
		return nil, err
	}
	m := &output.Manifest{Generator: c.Generator}
	for _, e := range exports {
		m.Exports = append(m.Exports, entries[e.Key()])
	}
	if err := w.Commit(m); err != nil {
		return nil, err
	}
	committed = true
	if err := fr.commit(); err != nil {
		return nil, err
	}
	if err := changed.prune(m); err != nil {
		return nil, err
	}
	sum.Files = w.Listed()
	sum.FilesWritten, sum.FilesUnchanged = w.Counts()
	sum.PDFsPrinted, sum.PDFsReused = formats.printed()
	sum.Stats = s.stats.Snapshot()
	sum.Duration = time.Since(start)
	slices.SortFunc(sum.Failures, func(a, b Failure) int { return strings.Compare(a.Export.Key(), b.Export.Key()) })
	return sum, nil
}

// writeExport renders one tree in every selected format but the website,
// and its changes.json.
func writeExport(ctx context.Context, w *output.Writer, c *Config, f *treeFormats, log *changeLog, t *model.Tree) (output.ManifestExport, error) {
	if !c.Filter.IncludeUnpublished {
		t = t.PublishedOnly()
	}
	entry := manifestEntry(t.Export, t.VariantChain, t.ETag, t.Count())
	entry.State = output.StateOK
	if err := f.write(ctx, w, t, &entry); err != nil {
		return entry, err
	}
	return entry, log.record(w, t, &entry)
}

// refusedTree returns the failure of an export whose tree a format
// refused (a *RenderError from writeExport), which fails that export
// alone.
func refusedTree(err error) (Failure, bool) {
	var re *RenderError
	if !errors.As(err, &re) {
		return Failure{}, false
	}
	return Failure{Export: re.Export, Err: re}, true
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

// WhoAmI verifies the token and returns the user it belongs to.
func WhoAmI(ctx context.Context, c Config) (*api.User, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	s, err := newSession(&c)
	if err != nil {
		return nil, err
	}
	var u *api.User
	err = s.retry.Do(ctx, func(ctx context.Context) error {
		var err error
		u, _, err = s.client.Me(ctx)
		return err
	})
	if errors.Is(err, api.ErrUnauthorized) {
		return nil, fmt.Errorf("the API rejected the token (401): check %s or --token-file: %w", api.EnvToken, err)
	}
	return u, err
}
