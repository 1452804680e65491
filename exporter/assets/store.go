package assets

import (
	"context"
	"sync"
)

// DefaultConcurrency is how many images a Store fetches at once.
const DefaultConcurrency = 4

// Result is what became of one image URL: an Asset, or Err.
type Result struct {
	Asset
	// Err is why the image could not be kept (an *Error), nil when it was.
	Err error
}

// Store is a run's images: each URL is fetched once, whatever the number
// of trees that refer to it, at most a few at a time, and its Result is
// kept for the renderers. It keeps the bytes of every good image in
// memory (at most Options.MaxBytes each) until the run ends, for the
// output and the PDF's spool. It is safe for concurrent use.
type Store struct {
	f   *Fetcher
	sem chan struct{}

	mu                      sync.Mutex
	entries                 map[string]*entry
	fetched, reused, failed int
}

// entry is one URL's fetch: done is closed when res is set.
type entry struct {
	done chan struct{}
	res  Result
}

// NewStore returns a store that fetches with f, concurrency at a time
// (DefaultConcurrency when not positive).
func NewStore(f *Fetcher, concurrency int) *Store {
	if concurrency <= 0 {
		concurrency = DefaultConcurrency
	}
	return &Store{f: f, sem: make(chan struct{}, concurrency), entries: map[string]*entry{}}
}

// Fetch fetches the URLs the store was never asked for, and waits for
// them and for those other callers are fetching. A URL asked for again
// costs nothing. It returns an error only when ctx ends; the images that
// failed are in their Results.
func (s *Store) Fetch(ctx context.Context, urls []string) error {
	var wait []*entry
	var wg sync.WaitGroup
	for _, u := range urls {
		s.mu.Lock()
		e, ok := s.entries[u]
		if !ok {
			e = &entry{done: make(chan struct{})}
			s.entries[u] = e
		}
		s.mu.Unlock()
		wait = append(wait, e)
		if ok {
			continue
		}
		wg.Go(func() { s.fetch(ctx, u, e) })
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

// fetch fetches u into e, within the store's concurrency.
func (s *Store) fetch(ctx context.Context, u string, e *entry) {
	defer close(e.done)
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		e.res = Result{Err: &Error{URL: u, Err: ctx.Err()}}
		return
	}
	a, how, err := s.f.Fetch(ctx, u)
	<-s.sem
	e.res = Result{Asset: a, Err: err}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case err != nil && ctx.Err() == nil:
		s.failed++
		s.f.o.Log.Warn("image not kept: pages link to its URL", "url", u, "err", err)
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
// reused (from the cache, confirmed by a 304 or offline) and failed.
func (s *Store) Counts() (fetched, reused, failed int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fetched, s.reused, s.failed
}
