package fetch

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/curex/curex/exporter/api"
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
	// body was used.
	NotModified bool
	// Err is why the tree could not be fetched, after retries.
	Err error
}

// Fetcher fetches resolved trees concurrently. The limiter inside the
// client's transport sets the pace; concurrency only hides latency.
type Fetcher struct {
	Client      *api.Client
	Retry       RetryPolicy
	Concurrency int
}

// ErrFatal wraps errors that stop a whole run: the token was rejected
// mid-run or the request budget ran out.
var ErrFatal = errors.New("run stopped")

// Fetch fetches every export and calls each with its result, one call at
// a time, in completion order. A tree that fails after its retries is
// reported through Result.Err and the run goes on. Fetch stops early, and
// returns an error, when ctx ends, when each returns an error, or when a
// request shows the run cannot go on (401, budget used up); trees not
// fetched then get no call.
func (f *Fetcher) Fetch(ctx context.Context, exports []model.Export, each func(Result) error) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, f.Concurrency))
	var mu sync.Mutex
	for _, e := range exports {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			r := f.one(ctx, e)
			if r.Err != nil && fatal(r.Err) {
				return fmt.Errorf("%w: %s %s: %w", ErrFatal, e.CurriculumID, describe(e), r.Err)
			}
			if r.Err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			mu.Lock()
			defer mu.Unlock()
			return each(r)
		})
	}
	return g.Wait()
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

// fatal reports errors after which no further request can succeed.
func fatal(err error) bool {
	return errors.Is(err, api.ErrUnauthorized) || errors.Is(err, ErrBudget)
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
