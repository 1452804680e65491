package exporter

import (
	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/render/terms"
)

// Warm is what a series of builds (or exports) in one process keeps
// between them, so that a build repeats none of the work whose result
// cannot have changed (curex dev makes one for its session and passes it
// to every build): the search index's stemmers, each language's
// interpreter loaded once and each word stemmed once (a bounded memo,
// package terms), and the trees builds read from the cache, decoded once
// per ETag (api.DecodedMemo, bounded by api.DefaultMemoBytes of bodies).
// A build's output is the same with a Warm or without one.
//
// A Warm is safe for concurrent use; the runs it serves may be several
// at once. Make one with NewWarm.
type Warm struct {
	stemmers *terms.Stemmers
	decoded  *api.DecodedMemo
}

// NewWarm returns an empty Warm: the first build fills it.
func NewWarm() *Warm {
	return &Warm{stemmers: terms.NewStemmers(), decoded: api.NewDecodedMemo(0)}
}

// memo is the memo of decoded trees w keeps, or nil (each build decodes
// its own) for a nil Warm.
func (w *Warm) memo() *api.DecodedMemo {
	if w == nil {
		return nil
	}
	return w.decoded
}

// stems is the set of stemmers w keeps, or nil (each run makes its own)
// for a nil Warm.
func (w *Warm) stems() *terms.Stemmers {
	if w == nil {
		return nil
	}
	return w.stemmers
}
