package exporter

import (
	"log/slog"
	"time"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
)

// freshness is a run's use of package fresh: what each tree's signal is,
// what is fetched in what order, what comes from the cache, and the
// record of each fetched tree.
type freshness struct {
	store   *fresh.Store // nil with no cache folder, and for Build
	sched   *fresh.Schedule
	signals map[model.Key]string
	// order is the order trees are handed to the Fetcher; skip and
	// fallback are its Skip and Fallback.
	order          []model.Export
	skip, fallback map[model.Key]bool
	started        time.Time
}

// freshnessOptions are the settings of the schedule.
type freshnessOptions struct {
	// revalidate is how unchanged trees are revalidated (Config.Revalidate).
	revalidate fresh.Policy
	log        *slog.Logger
}

// openFreshness decides what the run fetches. Without a cache folder, and
// when building from the cache, every tree is fetched (or read) as new.
func openFreshness(o freshnessOptions, s *session, plan *fetch.Plan, started time.Time) (*freshness, error) {
	fr := &freshness{signals: map[model.Key]string{}, skip: map[model.Key]bool{}, fallback: map[model.Key]bool{}, started: started}
	var trees []fresh.Tree
	for i := range plan.Curricula {
		cp := &plan.Curricula[i]
		for _, e := range cp.Exports {
			sig := fresh.Signal(cp, e)
			fr.signals[e.Key()] = sig
			trees = append(trees, fresh.Tree{Export: e, Signal: sig})
		}
	}
	if s.scopeDir != "" && !s.src.fromCache() {
		st, err := fresh.Open(layout.ScopeDir(s.scopeDir).State())
		if err != nil {
			return nil, err
		}
		for _, p := range st.Problems() {
			o.log.Warn("state of earlier runs", "problem", p)
		}
		fr.store = st
	}
	cached := func(e model.Export, etag string) bool {
		got, ok := s.client.CachedResolvedETag(e.CurriculumID, resolveOptions(e))
		return ok && got == etag
	}
	fr.sched = fresh.Decide(trees, fr.store, cached, started, o.revalidate)
	for _, it := range fr.sched.Fetch {
		fr.order = append(fr.order, it.Export)
		if it.Reason == fresh.Due {
			fr.fallback[it.Export.Key()] = true
		}
	}
	for _, it := range fr.sched.Skip {
		fr.order = append(fr.order, it.Export)
		fr.skip[it.Export.Key()] = true
	}
	o.log.Debug("schedule", "trees", len(trees), "new", fr.sched.Count(fresh.New), "changed", fr.sched.Count(fresh.Changed),
		"revalidate", fr.sched.Count(fresh.Due), "unchanged", fr.sched.Count(fresh.Unchanged), "policy", fr.sched.Policy.Mode.String(), "window", fr.sched.Policy.Window)
	return fr, nil
}

// record keeps what a request taught about r's tree, at once, so that a
// run killed later repeats no request that had succeeded.
func (fr *freshness) record(r fetch.Result) error {
	if fr.store == nil || r.Err != nil || r.FromCache || r.Tree == nil || r.Tree.ETag == "" {
		return nil
	}
	return fr.store.Put(fresh.RecordOf(r.Export, fr.signals[r.Export.Key()], r.Tree.ETag, time.Now()))
}

// commit ends the run in the state: the snapshot is written and the time
// of this run kept for sizing the next one's revalidation.
func (fr *freshness) commit() error {
	if fr.store == nil {
		return nil
	}
	return fr.store.Commit(fr.started, nil)
}

func (fr *freshness) close() {
	if fr.store != nil {
		_ = fr.store.Close()
	}
}

func resolveOptions(e model.Export) api.ResolveOptions {
	return api.ResolveOptions{Variant: e.Variant, Locale: e.APILocale()}
}
