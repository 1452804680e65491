// Package testtrees gives renderer tests and benchmarks the model trees of a
// sandbox dataset exactly as an export sees them: it serves the dataset with
// the sandbox in process (no socket, no rate limit) and runs the real client,
// discovery, fetcher and normalization against it.
package testtrees

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/retry"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// SampleToken is the sample dataset's token of the organization with the
// richest curricula (Algebra 1 with nested variants, Intro to CS).
const SampleToken = "sandbox-riverbend-token"

// Set is what Fetch returns: the plan, and one tree per planned export in
// the plan's order, with its raw body.
type Set struct {
	Plan   *fetch.Plan
	Trees  []*model.Tree
	Bodies [][]byte
}

// Fetch discovers and fetches every export the filter selects from ds, as
// the user of token. Trees are as fetched: unpublished nodes included.
func Fetch(ctx context.Context, ds *dataset.Dataset, token string, f fetch.Filter) (*Set, error) {
	h, err := sandbox.New(ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	client, err := api.New("http://sandbox", token,
		api.WithAllowHTTP(), api.WithHTTPClient(&http.Client{Transport: &sandboxtest.Transport{Handler: h}}))
	if err != nil {
		return nil, err
	}
	retry := retry.Policy{MaxAttempts: 1}
	plan, err := fetch.Discover(ctx, client, retry, f)
	if err != nil {
		return nil, fmt.Errorf("discover: %w", err)
	}
	exports := plan.Exports()
	index := map[model.Key]int{}
	for i, e := range exports {
		index[e.Key()] = i
	}
	s := &Set{Plan: plan, Trees: make([]*model.Tree, len(exports)), Bodies: make([][]byte, len(exports))}
	var mu sync.Mutex
	fr := &fetch.Fetcher{Client: client, Retry: retry, Concurrency: 2}
	err = fr.Fetch(ctx, exports, func(r fetch.Result) error {
		if r.Err != nil {
			return fmt.Errorf("fetch %s: %w", r.Export.Dir(), r.Err)
		}
		mu.Lock()
		defer mu.Unlock()
		i := index[r.Export.Key()]
		s.Trees[i], s.Bodies[i] = r.Tree, r.Body
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

var (
	sampleOnce sync.Once
	sampleSet  *Set
	sampleErr  error
)

// Sample returns every export of the sample dataset's richest organization
// (SampleToken), fetched once per test binary and shared: callers must not
// modify the trees (use PublishedOnly, which copies).
func Sample(tb testing.TB) *Set {
	tb.Helper()
	sampleOnce.Do(func() {
		ds, err := dataset.Sample()
		if err != nil {
			sampleErr = err
			return
		}
		sampleSet, sampleErr = Fetch(context.Background(), ds, SampleToken, fetch.Filter{})
	})
	if sampleErr != nil {
		tb.Fatal(sampleErr)
	}
	return sampleSet
}

// Find returns the tree of the export at dir ("algebra-1/texas/es"), or
// fails the test.
func (s *Set) Find(tb testing.TB, dir string) *model.Tree {
	tb.Helper()
	for _, t := range s.Trees {
		if t.Dir() == dir {
			return t
		}
	}
	tb.Fatalf("no export %s in the set", dir)
	return nil
}

// Synthetic fetches the trees of a synthetic dataset; spec is in the
// syntax of dataset.ParseSynthetic, e.g. "curricula=1,variants=0,locales=1,nodes=1000".
func Synthetic(tb testing.TB, spec string) *Set {
	tb.Helper()
	o, err := dataset.ParseSynthetic(spec)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := Fetch(context.Background(), dataset.Synthetic(o), dataset.SyntheticToken, fetch.Filter{})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
