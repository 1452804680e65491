package exporter

import (
	"context"
	"fmt"
	"sync"

	"github.com/curex/curex/exporter/changes"
	"github.com/curex/curex/exporter/crash"
	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/internal/cpugate"
	"github.com/curex/curex/exporter/layout"
	"github.com/curex/curex/exporter/model"
	"github.com/curex/curex/exporter/output"
	"github.com/curex/curex/exporter/render/html"
	"github.com/curex/curex/exporter/setting"
)

// siteRun renders the website in two phases. While trees arrive it keeps
// each tree's outline and spools its raw body to a temporary folder; once
// every tree of a curriculum is in, it renders the curriculum's trees one
// at a time, so the language and variant switchers know its other trees,
// and memory holds one tree plus the outlines of the curricula still
// waiting, not the organization. A curriculum's outlines go once its pages
// are written; trees carried over unchanged keep none (their curriculum
// is unchanged as a whole, no page is rendered against them).
type siteRun struct {
	o        *siteOptions
	renderer *html.Renderer
	bodies   *bodies
	// changes holds the histories of the trees rendered this run.
	changes *changeLog

	mu       sync.Mutex
	outlines outlines
	kept     map[model.Key]bodyRef
	reused   map[model.Key]bool // exports whose pages were carried over

	// Early rendering: a curriculum whose trees are all in and all written
	// this run is rendered at once, by one goroutine, while the other
	// curricula are still being fetched (see start).
	left    map[string]int     // trees not in yet, by curriculum id
	spoiled map[string]bool    // a tree failed or was held back
	early   map[model.Key]bool // exports whose pages are written
	plan    *fetch.Plan
	// warm is the decoded tree that completed its curriculum, kept for
	// renderCurriculum so that the tree rendered next is not read back
	// and decoded again; one at most, so memory stays one tree.
	warm   warmTree
	queue  chan *fetch.CurriculumPlan
	done   chan error
	cancel context.CancelFunc
}

// newSiteRun prepares the website; nil when o is (no website).
func newSiteRun(o *siteOptions, b *bodies, gate *cpugate.Gate) (*siteRun, error) {
	if o == nil {
		return nil, nil
	}
	r, err := html.New(html.Options{ThemeDir: o.themeDir, IncludeUnpublished: o.includeUnpublished, NoSitemap: o.siteURL == "", Gate: gate})
	if err != nil {
		return nil, &ConfigError{setting.Errorf(setting.Theme, "%w", err)}
	}
	return &siteRun{o: o, renderer: r, bodies: b, outlines: outlines{}, kept: map[model.Key]bodyRef{}, reused: map[model.Key]bool{}}, nil
}

// warmTree is a tree kept decoded by export key (see siteRun.warm).
type warmTree struct {
	key model.Key
	t   *model.Tree
}

// take returns the kept tree of export key k, published nodes only
// unless the run includes the others, and forgets it; nil when the slot
// holds another tree.
func (s *siteRun) take(k model.Key) *model.Tree {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.warm.key != k || s.warm.t == nil {
		return nil
	}
	t := s.warm.t
	s.warm = warmTree{}
	return t
}

// tree returns the tree of ref for rendering: the warm one when it is
// ref's, else the body read back and decoded.
func (s *siteRun) tree(ref bodyRef) (*model.Tree, error) {
	if t := s.take(ref.export.Key()); t != nil {
		return t, nil
	}
	t, _, err := s.bodies.load(ref) // published nodes only, unless included
	return t, err
}

// start makes curricula render as soon as each is complete (arrived);
// stop waits for that and returns the first error. The pages of a
// curriculum depend only on its own trees (switchers stay within it),
// so once its last tree is in, nothing later changes them, unless one of
// its trees failed or was held back as unchanged: the end of the run
// decides those.
func (s *siteRun) start(ctx context.Context, w *output.Writer, plan *fetch.Plan) {
	if s == nil {
		return
	}
	s.left, s.spoiled, s.early = map[string]int{}, map[string]bool{}, map[model.Key]bool{}
	for _, cp := range plan.Curricula {
		s.left[cp.Curriculum.ID] = len(cp.Exports)
	}
	s.plan = plan
	q := make(chan *fetch.CurriculumPlan, len(plan.Curricula))
	s.queue = q
	s.done = make(chan error, 1)
	ctx, s.cancel = context.WithCancel(ctx)
	go func() {
		var first error
		for cp := range q {
			if first == nil && ctx.Err() == nil {
				first = s.renderSafely(w, plan, cp)
			}
		}
		s.done <- first
	}()
}

// arrived counts a tree in; written says it was rendered in every format
// but the website (not failed, not held back).
func (s *siteRun) arrived(e model.Export, written bool) {
	if s == nil || s.queue == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := e.CurriculumID
	if !written {
		s.spoiled[id] = true
	}
	if s.left[id]--; s.left[id] == 0 && !s.spoiled[id] {
		for i := range s.plan.Curricula {
			if s.plan.Curricula[i].Curriculum.ID == id {
				s.queue <- &s.plan.Curricula[i] // buffered: one slot per curriculum
			}
		}
	}
}

// stop ends early rendering: it waits for the curricula queued and
// returns the first error. Calling it again returns nil.
func (s *siteRun) stop() error {
	if s == nil || s.queue == nil {
		return nil
	}
	s.mu.Lock()
	q := s.queue
	s.queue = nil
	s.mu.Unlock()
	close(q)
	err := <-s.done
	s.cancel()
	return err
}

// renderSafely is renderCurriculum with a panic turned into its error.
func (s *siteRun) renderSafely(w *output.Writer, plan *fetch.Plan, cp *fetch.CurriculumPlan) (err error) {
	defer crash.Recover(&err)
	return s.renderCurriculum(w, plan, cp)
}

// renderCurriculum writes the pages of every tree of cp.
func (s *siteRun) renderCurriculum(w *output.Writer, plan *fetch.Plan, cp *fetch.CurriculumPlan) error {
	exported := map[model.Key]bool{}
	for _, e := range cp.Exports {
		exported[e.Key()] = true
	}
	site := buildSite(s.o, plan, exported)
	s.mu.Lock()
	own := outlines{}
	for _, e := range cp.Exports {
		own[e.Dir()] = s.outlines[e.Dir()]
	}
	refs := make([]bodyRef, len(cp.Exports))
	for i, e := range cp.Exports {
		refs[i] = s.kept[e.Key()]
	}
	s.mu.Unlock()
	s.withChanges(site, cp.Exports)
	for i, e := range cp.Exports {
		t, err := s.tree(refs[i])
		if err != nil {
			return fmt.Errorf("website: %s: %w", e.Dir(), err)
		}
		s.o.log.Debug("website: rendering", "export", e.Dir())
		if err := s.renderer.RenderTree(w, site, t, own); err != nil {
			return fmt.Errorf("website: %s: %w", e.Dir(), err)
		}
		s.o.log.Debug("website: rendered", "export", e.Dir())
		s.mu.Lock()
		s.early[e.Key()] = true
		s.mu.Unlock()
	}
	s.mu.Lock()
	for _, e := range cp.Exports {
		delete(s.outlines, e.Dir()) // its pages are written: no one else asks
	}
	s.mu.Unlock()
	return nil
}

// withChanges gives site the histories of the exports recorded this run.
func (s *siteRun) withChanges(site *html.Site, exports []model.Export) {
	if s.changes == nil {
		return
	}
	site.Changes = map[string]*changes.History{}
	for _, e := range exports {
		if h := s.changes.history(e.Key()); h != nil {
			site.Changes[e.Dir()] = h
		}
	}
}

// keep records a fetched tree (r.Tree as the formats see it) for the
// second phase.
func (s *siteRun) keep(r fetch.Result, entry *output.ManifestExport) error {
	if s == nil {
		return nil
	}
	t := r.Tree
	ref, err := s.bodies.put(r)
	if err != nil {
		return fmt.Errorf("website: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kept[r.Export.Key()] = ref
	s.outlines[r.Export.Dir()] = html.OutlineOf(t, s.o.includeUnpublished)
	// The tree that completes a curriculum none of whose trees failed is
	// rendered next (arrived queues it): keep it decoded if the slot is
	// free.
	id := r.Export.CurriculumID
	if s.queue != nil && s.left[id] == 1 && !s.spoiled[id] && s.warm.t == nil {
		s.warm = warmTree{key: r.Export.Key(), t: t}
	}
	entry.HTML = layout.ExportIndex(r.Export)
	if s.changes != nil {
		entry.Feed = layout.Feed(r.Export)
	}
	return nil
}

// reuse records a tree whose pages were carried over unchanged, for the
// site-wide pages (the landing page's progress, the sitemap). Its
// curriculum is unchanged as a whole, so no page is rendered against its
// outline: none is kept.
func (s *siteRun) reuse(r fetch.Result) error {
	if s == nil {
		return nil
	}
	ref, err := s.bodies.put(r)
	if err != nil {
		return fmt.Errorf("website: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kept[r.Export.Key()] = ref
	s.reused[r.Export.Key()] = true
	return nil
}

// render writes every spooled tree's pages, then the site-wide pages.
func (s *siteRun) render(ctx context.Context, w *output.Writer, plan *fetch.Plan, exports []model.Export, exported map[model.Key]bool) error {
	if s == nil {
		return nil
	}
	site := buildSite(s.o, plan, exported)
	s.withChanges(site, exports)
	for _, e := range exports {
		if err := ctx.Err(); err != nil {
			return err
		}
		ref, ok := s.kept[e.Key()]
		if !ok || s.early[e.Key()] {
			continue // not fetched, or its pages are written
		}
		t, err := s.tree(ref)
		if err != nil {
			return fmt.Errorf("website: %s: %w", e.Dir(), err)
		}
		if s.reused[e.Key()] {
			s.renderer.Reuse(t)
			continue
		}
		s.o.log.Debug("website: rendering", "export", e.Dir())
		if err := s.renderer.RenderTree(w, site, t, s.outlines); err != nil {
			return fmt.Errorf("website: %s: %w", e.Dir(), err)
		}
		s.o.log.Debug("website: rendered", "export", e.Dir())
	}
	if err := s.renderer.RenderSite(w, site); err != nil {
		return fmt.Errorf("website: %w", err)
	}
	return nil
}
