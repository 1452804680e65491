package fetch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/crash"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/retry"
	"github.com/curex/curex/exporter/internal/setting"
)

// Result is the outcome of fetching one export's tree.
type Result struct {
	Export model.Export
	// Tree is the normalized tree; nil when Err is set.
	Tree *model.Tree
	// Body is the raw /resolved body, kept for rebuilding from the cache.
	Body []byte
	// NotModified is true when the server answered 304 and the cached
	// body was used, and when the tree was served from the cache.
	NotModified bool
	// FromCache is true when the tree was served from the cache with no
	// request (Fetcher.Skip and Fetcher.Fallback).
	FromCache bool
	// Shallow is true for a tree served from the cache whose body was
	// not read yet: Tree holds only the export and the ETag, Body is nil.
	// Fetcher.Fill reads the rest.
	Shallow bool
	// Err is why the tree could not be fetched, after retries.
	Err error

	// held is the room the result's body holds in the Fetcher's budget
	// of bodies in flight, released once each has returned.
	held int64
}

// Fetcher fetches resolved trees concurrently. The limiter inside the
// client's transport sets the pace; concurrency only hides latency.
type Fetcher struct {
	Client      *api.Client
	Retry       retry.Policy
	Concurrency int
	// Skip holds the keys (model.Export.Key) of trees to serve from the
	// client's cache with no request.
	Skip map[model.Key]bool
	// Fallback holds the keys of trees to serve from the cache when the
	// request budget runs out before their turn.
	Fallback map[model.Key]bool
	// MaxNodes is the most nodes a tree may hold (0: DefaultMaxTreeNodes);
	// a larger tree fails alone, with a *TreeTooLargeError, not retried.
	MaxNodes int
	// Log, when set, gets a warning for each tree whose one-line texts
	// were cut to MaxLineBytes.
	Log *slog.Logger
	// BodyBytesInFlight bounds the bytes of /resolved bodies held at once
	// (0: DefaultBodyBytesInFlight), from the moment one is read until
	// each returns with it, across every worker and the queue to each.
	// A request reserves its body's Content-Length, or the client's body
	// limit when the server sends none, before it reads it, and waits for
	// room; a body larger than the whole budget is read alone.
	BodyBytesInFlight int64
}

// DefaultBodyBytesInFlight is the default Fetcher.BodyBytesInFlight: two
// bodies at the API client's own limit (api.DefaultMaxBodyBytes), and far
// more than 2 × Concurrency + 1 bodies of the largest real trees, whose
// answers are tens of megabytes; so it only ever slows a run whose
// answers are runaway ones.
const DefaultBodyBytesInFlight = 2 * api.DefaultMaxBodyBytes

// DefaultMaxTreeNodes is the most nodes a tree may hold unless
// Fetcher.MaxNodes says otherwise: ten times the largest trees the
// benchmarks export (20,000 nodes), far above any real curriculum. Every
// node is a page, so a runaway tree from a broken or hostile upstream
// would otherwise fill the disk and the run's memory.
const DefaultMaxTreeNodes = 200000

// TreeTooLargeError is the error of a tree of more nodes than the limit.
type TreeTooLargeError struct {
	// Limit is the most nodes a tree may hold.
	Limit int
}

// Error names the setting, and says what the limit is and that it may be
// raised.
func (e *TreeTooLargeError) Error() string { return e.Unwrap().Error() }

// Unwrap returns the error as a *setting.Error naming
// setting.MaxTreeNodes, the setting that raises the limit.
func (e *TreeTooLargeError) Unwrap() error {
	return setting.Errorf(setting.MaxTreeNodes, "the tree has more than %d nodes, the most curex exports in one tree (a broken or hostile answer? if not, raise it)", e.Limit)
}

// check refuses a tree nested deeper than MaxTreeDepth or holding more
// nodes than the Fetcher allows.
func (f *Fetcher) check(rc *api.ResolvedCurriculum) error {
	if d := treeDepth(rc.Nodes); d > MaxTreeDepth {
		return &TreeTooDeepError{Levels: d} // not retried: the same tree again
	}
	limit := f.MaxNodes
	if limit <= 0 {
		limit = DefaultMaxTreeNodes
	}
	if countNodes(rc.Nodes, limit) > limit {
		return &TreeTooLargeError{Limit: limit}
	}
	return nil
}

// normalize normalizes rc, warning when texts were cut.
func (f *Fetcher) normalize(e model.Export, rc *api.ResolvedCurriculum, etag string) *model.Tree {
	t, cut := normalize(e, rc, etag)
	if cut > 0 && f.Log != nil {
		f.Log.Warn("fetch: one-line texts over the limit were cut", "export", e.Dir(), "texts", cut, "limit_bytes", MaxLineBytes)
	}
	return t
}

// countNodes counts the nodes of ns, stopping once past limit.
func countNodes(ns []api.ResolvedNode, limit int) int {
	count := 0
	stack := [][]api.ResolvedNode{ns}
	for len(stack) > 0 && count <= limit {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		count += len(l)
		for i := range l {
			if len(l[i].Children) > 0 {
				stack = append(stack, l[i].Children)
			}
		}
	}
	return count
}

// ErrFatal wraps errors that stop a whole run: the token was rejected
// mid-run, the request budget ran out, or the ETag cache could not store
// a body (api.ErrCache).
var ErrFatal = errors.New("run stopped")

// Fetch fetches every export and calls each with its result, one call at
// a time, in completion order, from a goroutine of its own: the workers
// queue their results and go on fetching while each works. Trees in Skip
// are served from the cache by one goroutine beside the fetching ones (a
// tree the cache lost is fetched after all). A tree that fails after its
// retries is reported through Result.Err and the run goes on. Fetch stops early, and returns an
// error, when ctx ends, when each returns an error, or when a request
// shows the run cannot go on (401, budget used up); trees not fetched then
// get no call, but for those in Skip and Fallback after a budget stop,
// which are served from the cache first.
func (f *Fetcher) Fetch(ctx context.Context, exports []model.Export, each func(Result) error) error {
	// A fatal answer (401), or an error of each, cancels base: the
	// requests in flight end and no more are launched.
	base, cancel := context.WithCancel(ctx)
	defer cancel()
	fr := &fetchRun{f: f, each: each, cancel: cancel, delivered: map[model.Key]bool{},
		queue: make(chan Result, max(1, f.Concurrency)), room: newBodyBudget(f.BodyBytesInFlight), done: make(chan struct{})}
	go fr.consume()
	defer fr.finish()
	var network, cached []model.Export
	for _, e := range exports {
		if f.Skip[e.Key()] {
			cached = append(cached, e)
		} else {
			network = append(network, e)
		}
	}
	workers, wctx := errgroup.WithContext(base)
	workers.SetLimit(max(1, f.Concurrency))
	lerr := fr.launch(wctx, workers, cached, network)
	// The workers are waited for once both loops have launched theirs,
	// then each for the results queued. An error of each comes first: the
	// others are what it cancelled.
	err := workers.Wait()
	if ferr := fr.finish(); ferr != nil {
		return ferr
	}
	if lerr != nil {
		return lerr
	}
	if err == nil && ctx.Err() == nil && fr.budget != nil {
		return fr.afterBudget(exports)
	}
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// fetchRun is one call of Fetcher.Fetch.
type fetchRun struct {
	f      *Fetcher
	each   func(Result) error
	cancel context.CancelFunc

	mu        sync.Mutex
	delivered map[model.Key]bool
	budget    error // the budget ran out: requests stop, the cache goes on
	// stopped: after a budget stop the requests in flight finish (the
	// server has counted them) and no more are launched.
	stopped atomic.Bool

	// Results go to one goroutine (consume) that calls each, through a
	// queue as long as the workers are many: a worker hands its tree over
	// and is free for the next request while each renders, so the
	// limiter's slots are not left unused behind a slow each. At most 2 ×
	// Concurrency + 1 trees are held at once.
	queue   chan Result
	room    *bodyBudget
	eachErr error // the error of each, once it failed; read after done
	done    chan struct{}
	closed  bool
}

// consume calls each with every result queued, in order; after an error
// of each it drops the rest.
func (fr *fetchRun) consume() {
	defer close(fr.done)
	for r := range fr.queue {
		if fr.eachErr != nil {
			fr.room.release(r.held)
			continue // failed: the rest is dropped
		}
		fr.mu.Lock()
		fr.delivered[r.Export.Key()] = true
		fr.mu.Unlock()
		err := callEach(fr.each, r)
		fr.room.release(r.held)
		if err != nil {
			fr.eachErr = err
			fr.cancel()
		}
	}
}

// deliver queues r for each. Every result goes to each, even after a
// cancellation: a tree fetched is recorded (the server counted its
// request), and the consumer drains the queue to its end, so a send never
// blocks for long.
func (fr *fetchRun) deliver(r Result) { fr.queue <- r }

// finish closes the queue, waits for each to be done with it, and returns
// the error of each, if any. Calling it again returns that error.
func (fr *fetchRun) finish() error {
	if !fr.closed {
		fr.closed = true
		close(fr.queue)
		<-fr.done
	}
	return fr.eachErr
}

// launch starts the work in two loops: trees from the cache (served by
// the loop itself) and trees to fetch (by workers). It returns once both
// loops have launched theirs.
func (fr *fetchRun) launch(wctx context.Context, workers *errgroup.Group, cached, network []model.Export) error {
	var loops errgroup.Group
	loops.Go(func() (err error) {
		defer crash.Recover(&err)
		for _, e := range cached {
			if wctx.Err() != nil {
				return nil // the workers say why
			}
			r := fr.f.cached(e)
			if r.Err != nil {
				// The cache lost it since the run was planned: fetch
				// it after all, as one of the workers.
				workers.Go(func() error { return fr.fetchOne(wctx, e) })
				continue
			}
			fr.deliver(r)
		}
		return nil
	})
	loops.Go(func() error {
		for _, e := range network {
			if wctx.Err() != nil || fr.stopped.Load() {
				break
			}
			workers.Go(func() error { return fr.fetchOne(wctx, e) })
		}
		return nil
	})
	return loops.Wait()
}

// fetchOne fetches e and queues its result; a budget stop, a fatal
// answer or a cancellation is its error instead.
func (fr *fetchRun) fetchOne(ctx context.Context, e model.Export) (err error) {
	defer crash.Recover(&err)
	if fr.stopped.Load() {
		return nil
	}
	r := fr.f.one(ctx, e, fr.room)
	handed := false // to the queue, which releases its room
	defer func() {
		if !handed {
			fr.room.release(r.held)
		}
	}()
	if r.Err != nil && errors.Is(r.Err, ErrBudget) {
		fr.mu.Lock()
		if fr.budget == nil {
			fr.budget = fmt.Errorf("%w: %s %s: %w", ErrFatal, e.CurriculumID, describe(e), r.Err)
		}
		fr.mu.Unlock()
		fr.stopped.Store(true)
		return nil
	}
	if r.Err != nil && fatal(r.Err) {
		return fmt.Errorf("%w: %s %s: %w", ErrFatal, e.CurriculumID, describe(e), r.Err)
	}
	if r.Err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	handed = true
	fr.deliver(r)
	return nil
}

// afterBudget hands each, here (the queue is closed), what may come from
// the cache once the budget ran out, and returns the budget error.
func (fr *fetchRun) afterBudget(exports []model.Export) error {
	f := fr.f
	for _, e := range exports {
		if fr.delivered[e.Key()] || !(f.Skip[e.Key()] || f.Fallback[e.Key()]) {
			continue
		}
		if r := f.cached(e); r.Err == nil {
			if err := callEach(fr.each, r); err != nil {
				return err
			}
		}
	}
	return fr.budget
}

// callEach calls each with r; a panic of each becomes its error.
func callEach(each func(Result) error, r Result) (err error) {
	defer crash.Recover(&err)
	return each(r)
}

// cached serves e's tree from the client's cache, with no request and
// without decoding it: a Shallow result.
func (f *Fetcher) cached(e model.Export) Result {
	r := Result{Export: e, FromCache: true, NotModified: true, Shallow: true}
	etag, ok := f.Client.CachedResolvedETag(e.CurriculumID, api.ResolveOptions{Variant: e.Variant, Locale: e.APILocale()})
	if !ok {
		r.Err = fmt.Errorf("%s %s: %w", e.CurriculumID, describe(e), api.ErrNotCached)
		return r
	}
	r.Tree = &model.Tree{Export: e, ETag: etag}
	return r
}

// Fill reads the body of a Shallow result from the client's cache and
// returns the whole result; other results are returned as they are.
func (f *Fetcher) Fill(r Result) Result {
	if !r.Shallow {
		return r
	}
	e := r.Export
	full := Result{Export: e, FromCache: true, NotModified: true}
	rc, resp, err := f.Client.CachedResolved(e.CurriculumID, api.ResolveOptions{Variant: e.Variant, Locale: e.APILocale()})
	if err == nil && resp.ETag != r.Tree.ETag {
		err = fmt.Errorf("%s %s: the cached answer changed during the run", e.CurriculumID, describe(e))
	}
	if err == nil {
		err = f.check(rc)
	}
	if err != nil {
		full.Err = err
		return full
	}
	full.Tree = f.normalize(e, rc, resp.ETag)
	full.Body = resp.Body
	return full
}

// one fetches e's tree, its body's room reserved in room (Result.held).
func (f *Fetcher) one(ctx context.Context, e model.Export, room *bodyBudget) Result {
	r := Result{Export: e}
	opts := api.ResolveOptions{Variant: e.Variant, Locale: e.APILocale()}
	reserve := func(ctx context.Context, n int64) error {
		n, err := room.acquire(ctx, n)
		r.held += n
		return err
	}
	err := f.Retry.Do(ctx, func(ctx context.Context) error {
		room.release(r.held) // an earlier attempt's body is dropped
		r.held = 0
		rc, resp, err := f.Client.Resolved(api.WithBodyReservation(ctx, reserve), e.CurriculumID, opts)
		if err != nil {
			return err
		}
		// Hold what the body takes: less than reserved for a body the
		// server sent no length of, the cached body on a 304.
		if err := room.resize(ctx, &r.held, int64(len(resp.Body))); err != nil {
			return err
		}
		if err := f.check(rc); err != nil {
			return err // not retried: the same tree again
		}
		r.Tree = f.normalize(e, rc, resp.ETag)
		r.Body, r.NotModified = resp.Body, resp.NotModified
		return nil
	})
	if err != nil {
		r.Tree, r.Body = nil, nil
		r.Err = err
		room.release(r.held)
		r.held = 0
	}
	return r
}

// bodyBudget is a Fetcher's budget of body bytes in flight: a weighted
// semaphore whose every reservation is cut to its size, so that a body
// larger than the whole budget waits for all of it and is read alone.
type bodyBudget struct {
	sem  *semaphore.Weighted
	size int64
}

func newBodyBudget(size int64) *bodyBudget {
	if size <= 0 {
		size = DefaultBodyBytesInFlight
	}
	return &bodyBudget{sem: semaphore.NewWeighted(size), size: size}
}

// acquire waits for room for n bytes and returns the room taken (0 on an
// error: the context ended).
func (b *bodyBudget) acquire(ctx context.Context, n int64) (int64, error) {
	n = min(max(n, 0), b.size)
	if n == 0 {
		return 0, nil
	}
	if err := b.sem.Acquire(ctx, n); err != nil {
		return 0, err
	}
	return n, nil
}

// resize makes *held the room n bytes take: it gives back what is over,
// or waits for what is missing.
func (b *bodyBudget) resize(ctx context.Context, held *int64, n int64) error {
	n = min(max(n, 0), b.size)
	switch {
	case n < *held:
		b.release(*held - n)
		*held = n
	case n > *held:
		more, err := b.acquire(ctx, n-*held)
		*held += more
		return err
	}
	return nil
}

// release gives back n bytes of room.
func (b *bodyBudget) release(n int64) {
	if n > 0 {
		b.sem.Release(n)
	}
}

// fatal reports errors after which no further request can succeed, or
// none would be worth its cost: a body the cache could not store (a full
// disk) stops the run at once rather than spend a request per tree.
func fatal(err error) bool {
	return errors.Is(err, api.ErrUnauthorized) || errors.Is(err, ErrBudget) || errors.Is(err, api.ErrCache)
}

func describe(e model.Export) string {
	v := e.Variant
	if v == "" {
		v = "(base)"
	}
	return fmt.Sprintf("%s × %s", v, e.Locale)
}

// MaxTreeDepth is the deepest tree, in levels (roots are level 1), a run
// exports. Real curricula nest a handful of levels. Every page of the
// website repeats its ancestors (breadcrumbs, the open sidebar), so the
// site of a tree grows with the square of its depth: a chain 1,000 levels
// deep is already a quarter of a gigabyte of HTML, and one from a broken
// or hostile upstream could fill the disk.
const MaxTreeDepth = 100

// TreeTooDeepError is the error of a tree nested deeper than MaxTreeDepth.
type TreeTooDeepError struct {
	// Levels is how deep the tree nests.
	Levels int
}

// Error says how deep the tree is and what the limit is.
func (e *TreeTooDeepError) Error() string {
	return fmt.Sprintf("the tree nests %d levels deep, more than the %d curex exports (a broken or hostile answer?)", e.Levels, MaxTreeDepth)
}

// treeDepth returns how many levels ns nests, without recursion.
func treeDepth(ns []api.ResolvedNode) int {
	type level struct {
		ns    []api.ResolvedNode
		depth int
	}
	deepest := 0
	stack := []level{{ns, 1}}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i := range l.ns {
			deepest = max(deepest, l.depth)
			if len(l.ns[i].Children) > 0 {
				stack = append(stack, level{l.ns[i].Children, l.depth + 1})
			}
		}
	}
	return deepest
}
