package exporter

import (
	"log/slog"
	"time"

	"github.com/curex/curex/exporter/internal/diskcache"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/mathml"
)

// contentKeptFor is how long an entry of the content caches (formulas,
// highlighted code) that no run used stays in the cache folder; they are
// pruned once every contentPruneEvery, not by every run.
const (
	contentKeptFor    = 30 * 24 * time.Hour
	contentPruneEvery = 24 * time.Hour
)

// Headers of the entries of the content caches (package diskcache);
// math 2: with the body's CRC-32C.
const (
	mathHeader = "curex-math 2"
	codeHeader = "curex-code 1"
)

// codeMemory bounds the highlighted code a run keeps in memory, so that
// the formats after the first read a block without reading its file.
const codeMemory = 32 << 20

// contentCaches are the stores of the content every format renders alike,
// kept between runs in the cache folder: Temml's MathML (math/) and
// highlighted code (code/).
type contentCaches struct {
	math *diskcache.Store
	code *diskcache.Store
	log  *slog.Logger
}

// openContentCaches opens the content caches in cacheDir; with no cache
// folder, highlighted code is kept in memory for the run alone, and
// formulas by the run's converter.
func openContentCaches(cacheDir string, log *slog.Logger) (*contentCaches, error) {
	cc := &contentCaches{log: log}
	codeOptions := diskcache.Options{Name: "code cache", Header: codeHeader, Fanout: true,
		TouchAfter: 24 * time.Hour, MemoryBytes: codeMemory, Valid: content.ValidHighlight, Log: log}
	var err error
	if cacheDir == "" {
		cc.code, err = diskcache.Open("", codeOptions)
		return cc, err
	}
	c := layout.Cache(cacheDir)
	if cc.code, err = diskcache.Open(c.Code(), codeOptions); err != nil {
		return nil, err
	}
	// Temml's output is sanitized as it is read back: a file is a miss
	// only when it is not whole. A formula is read once per run (the
	// converter keeps its results), so its mark of use is renewed daily.
	if cc.math, err = diskcache.Open(c.Math(), diskcache.Options{Name: "math cache", Header: mathHeader,
		Fanout: true, TouchAfter: 24 * time.Hour, Log: log}); err != nil {
		return nil, err
	}
	return cc, nil
}

// mathOptions are the options of the run's one math converter.
func (cc *contentCaches) mathOptions() mathml.Options {
	if cc.math == nil {
		return mathml.Options{}
	}
	return mathml.Options{Store: cc.math}
}

// prune removes the entries no run used for contentKeptFor, once a day.
func (cc *contentCaches) prune() {
	for _, s := range []*diskcache.Store{cc.math, cc.code} {
		if s == nil {
			continue
		}
		if n, err := s.PruneEvery(contentKeptFor, contentPruneEvery); err != nil {
			cc.log.Warn("pruning the cache", "err", err)
		} else if n > 0 {
			cc.log.Debug("cache pruned", "cache", s.Name(), "removed", n)
		}
	}
}
