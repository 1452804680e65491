package fetch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/crash"
	"github.com/curex/curex/exporter/model"
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
}

// Fetcher fetches resolved trees concurrently. The limiter inside the
// client's transport sets the pace; concurrency only hides latency.
type Fetcher struct {
	Client      *api.Client
	Retry       RetryPolicy
	Concurrency int
	// Skip holds the keys (model.Export.Key) of trees to serve from the
	// client's cache with no request.
	Skip map[string]bool
	// Fallback holds the keys of trees to serve from the cache when the
	// request budget runs out before their turn.
	Fallback map[string]bool
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
	var (
		mu        sync.Mutex
		delivered = map[string]bool{}
		budget    error // the budget ran out: requests stop, the cache goes on
	)
	// A fatal answer (401), or an error of each, cancels base: the
	// requests in flight end and no more are launched.
	base, cancel := context.WithCancel(ctx)
	defer cancel()
	// Results go to one goroutine that calls each, through a queue as long
	// as the workers are many: a worker hands its tree over and is free for
	// the next request while each renders, so the limiter's slots are not
	// left unused behind a slow each. At most 2 × Concurrency + 1 trees are
	// held at once.
	queue := make(chan Result, max(1, f.Concurrency))
	var eachErr error // the error of each, once it failed; read after done
	done := make(chan struct{})
	go func() {
		defer close(done)
		for r := range queue {
			if eachErr != nil {
				continue // failed: the rest is dropped
			}
			mu.Lock()
			delivered[r.Export.Key()] = true
			mu.Unlock()
			if err := callEach(each, r); err != nil {
				eachErr = err
				cancel()
			}
		}
	}()
	closed := false
	finish := func() error {
		if !closed {
			closed = true
			close(queue)
			<-done
		}
		return eachErr
	}
	defer finish()
	// Every result goes to each, even after a cancellation: a tree
	// fetched is recorded (the server counted its request), and the
	// consumer drains the queue to its end, so a send never blocks for
	// long.
	deliver := func(r Result) { queue <- r }
	var network, cached []model.Export
	for _, e := range exports {
		if f.Skip[e.Key()] {
			cached = append(cached, e)
		} else {
			network = append(network, e)
		}
	}
	// A budget stop lets the requests in flight finish (the server has
	// counted them) and launches no more.
	var stopped atomic.Bool
	workers, wctx := errgroup.WithContext(base)
	workers.SetLimit(max(1, f.Concurrency))
	fetchOne := func(ctx context.Context, e model.Export) (err error) {
		defer crash.Recover(&err)
		if stopped.Load() {
			return nil
		}
		r := f.one(ctx, e)
		if r.Err != nil && errors.Is(r.Err, ErrBudget) {
			mu.Lock()
			if budget == nil {
				budget = fmt.Errorf("%w: %s %s: %w", ErrFatal, e.CurriculumID, describe(e), r.Err)
			}
			mu.Unlock()
			stopped.Store(true)
			return nil
		}
		if r.Err != nil && fatal(r.Err) {
			return fmt.Errorf("%w: %s %s: %w", ErrFatal, e.CurriculumID, describe(e), r.Err)
		}
		if r.Err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		deliver(r)
		return nil
	}
	// Two loops launch the work: trees from the cache (served by the loop
	// itself) and trees to fetch.
	var loops errgroup.Group
	loops.Go(func() (err error) {
		defer crash.Recover(&err)
		for _, e := range cached {
			if wctx.Err() != nil {
				return nil // the workers say why
			}
			r := f.cached(e)
			if r.Err != nil {
				// The cache lost it since the run was planned: fetch
				// it after all, as one of the workers.
				workers.Go(func() error { return fetchOne(wctx, e) })
				continue
			}
			deliver(r)
		}
		return nil
	})
	loops.Go(func() error {
		for _, e := range network {
			if wctx.Err() != nil || stopped.Load() {
				break
			}
			workers.Go(func() error { return fetchOne(wctx, e) })
		}
		return nil
	})
	// The workers are waited for once both loops have launched theirs,
	// then each for the results queued. An error of each comes first: the
	// others are what it cancelled.
	lerr := loops.Wait()
	err := workers.Wait()
	if ferr := finish(); ferr != nil {
		return ferr
	}
	if lerr != nil {
		return lerr
	}
	if err == nil && ctx.Err() == nil && budget != nil {
		// The budget ran out: what may come from the cache does, handed
		// to each here (the queue is closed).
		for _, e := range exports {
			if delivered[e.Key()] || !(f.Skip[e.Key()] || f.Fallback[e.Key()]) {
				continue
			}
			if r := f.cached(e); r.Err == nil {
				if err := callEach(each, r); err != nil {
					return err
				}
			}
		}
		return budget
	}
	if err == nil {
		err = ctx.Err()
	}
	return err
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
	etag, ok := f.Client.CachedResolvedETag(e.CurriculumID, api.ResolveOptions{Variant: e.Variant, Locale: e.Locale})
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
	rc, resp, err := f.Client.CachedResolved(e.CurriculumID, api.ResolveOptions{Variant: e.Variant, Locale: e.Locale})
	if err == nil && resp.ETag != r.Tree.ETag {
		err = fmt.Errorf("%s %s: the cached answer changed during the run", e.CurriculumID, describe(e))
	}
	if err == nil {
		if d := treeDepth(rc.Nodes); d > MaxTreeDepth {
			err = &TreeTooDeepError{Levels: d}
		}
	}
	if err != nil {
		full.Err = err
		return full
	}
	full.Tree = Normalize(e, rc, resp.ETag)
	full.Body = resp.Body
	return full
}

func (f *Fetcher) one(ctx context.Context, e model.Export) Result {
	r := Result{Export: e}
	opts := api.ResolveOptions{Variant: e.Variant, Locale: e.Locale}
	err := f.Retry.Do(ctx, func(ctx context.Context) error {
		rc, resp, err := f.Client.Resolved(ctx, e.CurriculumID, opts)
		if err != nil {
			return err
		}
		if d := treeDepth(rc.Nodes); d > MaxTreeDepth {
			return &TreeTooDeepError{Levels: d} // not retried: the same tree again
		}
		r.Tree = Normalize(e, rc, resp.ETag)
		r.Body, r.NotModified = resp.Body, resp.NotModified
		return nil
	})
	if err != nil {
		r.Tree, r.Body = nil, nil
		r.Err = err
	}
	return r
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
