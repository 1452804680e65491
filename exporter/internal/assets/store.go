package assets

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// DefaultConcurrency is how many images a Store fetches at once.
const DefaultConcurrency = 4

// The default Budget. A lesson tree shows tens of images of tens of
// kilobytes to a few megabytes; the caps leave room for that many times
// over, and bound what a tree or a run of hostile or mistaken content
// costs in requests, disk and output (150 distinct 9.5 MB images were
// 1.4 GB in the output and 1.4 GB in the cache before).
const (
	// DefaultTreeImages caps the images one tree brings to the run.
	DefaultTreeImages = 200
	// DefaultTreeBytes caps the bytes of the images one tree brings.
	DefaultTreeBytes = 100 << 20
	// DefaultRunImages caps the images of a run.
	DefaultRunImages = 2000
	// DefaultRunBytes caps the bytes of the images of a run.
	DefaultRunBytes = 512 << 20
)

// Budget caps the images a Store keeps. A tree's caps count the images
// it is the first to ask for (an image another tree brought costs it
// nothing). An image over a cap is not fetched, or not kept, and its
// Result is an *Error wrapping ErrBudget: the pages show its alt text
// and a link, as for any image not kept. Zero fields take the defaults.
type Budget struct {
	// TreeImages and TreeBytes cap the images of one tree
	// (DefaultTreeImages, DefaultTreeBytes).
	TreeImages int
	TreeBytes  int64
	// RunImages and RunBytes cap the images of the run
	// (DefaultRunImages, DefaultRunBytes).
	RunImages int
	RunBytes  int64
}

// withDefaults returns b with zero fields set to the defaults.
func (b Budget) withDefaults() Budget {
	if b.TreeImages <= 0 {
		b.TreeImages = DefaultTreeImages
	}
	if b.TreeBytes <= 0 {
		b.TreeBytes = DefaultTreeBytes
	}
	if b.RunImages <= 0 {
		b.RunImages = DefaultRunImages
	}
	if b.RunBytes <= 0 {
		b.RunBytes = DefaultRunBytes
	}
	return b
}

// Result is what became of one image URL: an Asset, or Err.
type Result struct {
	Asset
	// Err is why the image could not be kept (an *Error), nil when it was.
	Err error
}

// Store is a run's images: each URL is fetched once, whatever the number
// of trees that refer to it, at most a few at a time, within its Budget,
// and its Result is kept for the renderers. It holds no image's bytes:
// each is in its Asset's File. It is safe for concurrent use.
type Store struct {
	f   *Fetcher
	sem chan struct{}
	b   Budget

	mu                               sync.Mutex
	entries                          map[string]*entry
	fetched, reused, failed, skipped int
	// images and bytes are what the run kept so far.
	images int
	bytes  int64
}

// entry is one URL's fetch: done is closed when res is set.
type entry struct {
	done chan struct{}
	res  Result
}

// tally is what one tree (one call of Fetch) brought so far.
type tally struct {
	images int
	bytes  int64
}

// NewStore returns a store that fetches with f, concurrency at a time
// (DefaultConcurrency when not positive), within the default Budget.
func NewStore(f *Fetcher, concurrency int) *Store {
	return NewStoreBudget(f, concurrency, Budget{})
}

// NewStoreBudget is NewStore within the budget b.
func NewStoreBudget(f *Fetcher, concurrency int, b Budget) *Store {
	if concurrency <= 0 {
		concurrency = DefaultConcurrency
	}
	return &Store{f: f, sem: make(chan struct{}, concurrency), b: b.withDefaults(), entries: map[string]*entry{}}
}

// Fetch fetches the URLs of one tree the store was never asked for, and
// waits for them and for those other callers are fetching. A URL asked
// for again costs nothing. It returns an error only when ctx ends; the
// images that failed, or were over the budget, are in their Results.
func (s *Store) Fetch(ctx context.Context, urls []string) error {
	var wait []*entry
	var wg sync.WaitGroup
	tree := &tally{}
	var overs []error // this tree's images over a count cap
	for _, u := range urls {
		s.mu.Lock()
		e, ok := s.entries[u]
		var over error // this image's
		if !ok {
			e = &entry{done: make(chan struct{})}
			s.entries[u] = e
			over = s.count(tree)
		}
		s.mu.Unlock()
		wait = append(wait, e)
		switch {
		case ok:
		case over != nil:
			s.skip(u, e, over)
			overs = append(overs, over)
		default:
			wg.Go(func() { s.fetch(ctx, u, e, tree) })
		}
	}
	if len(overs) > 0 {
		// One line for them all: a tree of 100,000 images is not
		// 100,000 warnings.
		s.f.o.Log.Warn("images skipped: pages link to their URLs", "skipped", len(overs), "reason", overs[0])
	}
	wg.Wait()
	for _, e := range wait {
		select {
		case <-e.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return ctx.Err()
}

// count counts one more image of tree and of the run, or returns why it
// is over the budget (s.mu held).
func (s *Store) count(tree *tally) error {
	switch {
	case tree.images >= s.b.TreeImages:
		return fmt.Errorf("%w: more than %d images in one tree", ErrBudget, s.b.TreeImages)
	case s.images >= s.b.RunImages:
		return fmt.Errorf("%w: more than %d images in the run", ErrBudget, s.b.RunImages)
	}
	tree.images++
	s.images++
	return nil
}

// spent returns why no more image fits tree's bytes or the run's, or nil
// while some room is left.
func (s *Store) spent(tree *tally) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case tree.bytes >= s.b.TreeBytes:
		return fmt.Errorf("%w: the %d bytes of images of one tree are used up", ErrBudget, s.b.TreeBytes)
	case s.bytes >= s.b.RunBytes:
		return fmt.Errorf("%w: the %d bytes of images of the run are used up", ErrBudget, s.b.RunBytes)
	}
	return nil
}

// treeAdmitter is the Fetcher's admitter of an image of tree.
type treeAdmitter struct {
	s    *Store
	tree *tally
}

func (a treeAdmitter) fits(n int64) error  { return a.s.admit(a.tree, n, false) }
func (a treeAdmitter) admit(n int64) error { return a.s.admit(a.tree, n, true) }

// admit returns why n more bytes are over tree's or the run's budget;
// else, when count, it adds them to both.
func (s *Store) admit(tree *tally, n int64, count bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case tree.bytes+n > s.b.TreeBytes:
		return fmt.Errorf("%w: %d bytes, more than the %d left of one tree's %d", ErrBudget, n, s.b.TreeBytes-tree.bytes, s.b.TreeBytes)
	case s.bytes+n > s.b.RunBytes:
		return fmt.Errorf("%w: %d bytes, more than the %d left of the run's %d", ErrBudget, n, s.b.RunBytes-s.bytes, s.b.RunBytes)
	}
	if count {
		tree.bytes += n
		s.bytes += n
	}
	return nil
}

// skip records that u is over the budget, without fetching it.
func (s *Store) skip(u string, e *entry, why error) {
	e.res = Result{Err: &Error{URL: Redact(u), Err: why}}
	close(e.done)
	s.mu.Lock()
	s.skipped++
	s.failed++
	s.mu.Unlock()
	s.f.o.Log.Debug("image skipped: pages link to its URL", "url", Redact(u), "reason", why)
}

// fetch fetches u into e, within the store's concurrency.
func (s *Store) fetch(ctx context.Context, u string, e *entry, tree *tally) {
	defer close(e.done)
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		e.res = Result{Err: &Error{URL: Redact(u), Err: ctx.Err()}}
		return
	}
	var a Asset
	var how Outcome
	err := s.spent(tree) // known once the fetches before it are done
	if err != nil {
		err = &Error{URL: Redact(u), Err: err}
	} else {
		a, how, err = s.f.fetchAdmit(ctx, u, treeAdmitter{s, tree})
	}
	<-s.sem
	e.res = Result{Asset: a, Err: err}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case err != nil && ctx.Err() == nil:
		s.failed++ // still counted as one of the images asked for
		if errors.Is(err, ErrBudget) {
			s.skipped++
			s.f.o.Log.Warn("image skipped: pages link to its URL", "url", Redact(u), "reason", err)
			return
		}
		s.f.o.Log.Warn("image not kept: pages link to its URL", "url", Redact(u), "err", err)
	case err != nil:
	case how == Reused:
		s.reused++
	default:
		s.fetched++
	}
}

// Lookup returns the Result of url, once fetched; ok is false for a URL
// the store was never asked for, or still fetching.
func (s *Store) Lookup(url string) (Result, bool) {
	s.mu.Lock()
	e, ok := s.entries[url]
	s.mu.Unlock()
	if !ok {
		return Result{}, false
	}
	select {
	case <-e.done:
		return e.res, true
	default:
		return Result{}, false
	}
}

// Counts returns how many images were fetched (sent by their server),
// reused (from the cache, confirmed by a 304 or offline) and failed
// (skipped over the budget included).
func (s *Store) Counts() (fetched, reused, failed int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fetched, s.reused, s.failed
}

// Skipped returns how many images were skipped over the Budget.
func (s *Store) Skipped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.skipped
}

// Close removes the fetcher's temporary files (Fetcher.Close): the
// Assets' Files are gone after it.
func (s *Store) Close() error { return s.f.Close() }
