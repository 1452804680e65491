package html

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/curex/curex/exporter/internal/changes"
	"github.com/curex/curex/exporter/internal/crash"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/setting"
)

// Website is the website as the run's site format (render.Site), in two
// phases. While trees arrive it keeps each tree's outline and history;
// once every tree of a curriculum is in, written, it renders the
// curriculum's trees one at a time, reading each back from the run, so
// the language and variant switchers know its other trees and memory
// holds one tree plus the outlines of the curricula still waiting, not
// the organization. A curriculum's outlines go once its pages are
// written; trees carried over unchanged keep none (their curriculum is
// unchanged as a whole, no page is rendered against them). Finish
// renders the trees left, then the site-wide pages.
type Website struct {
	o        render.Options
	renderer *Renderer

	mu sync.Mutex
	// outlines holds the outline of each tree kept and not yet rendered:
	// the trees Finish renders.
	outlines outlines
	// histories holds the history of changes of each tree kept.
	histories map[model.Key]*changes.History

	// Early rendering: a curriculum whose trees are all in and all written
	// this run is rendered at once, by one goroutine, while the other
	// curricula are still being fetched (see Start).
	left    map[string]int  // trees not in yet, by curriculum id
	spoiled map[string]bool // a tree failed or was held back
	catalog *model.Catalog
	trees   render.Trees
	// warm is the decoded tree that completed its curriculum, kept for
	// renderCurriculum so that the tree rendered next is not read back
	// and decoded again; one at most, so memory stays one tree.
	warm   warmTree
	queue  chan *model.Curriculum
	done   chan error
	cancel context.CancelFunc
}

// NewSite makes the website of a run (a render.Format's NewSite). A theme
// it cannot load is an error naming the theme setting.
func NewSite(ctx context.Context, o render.Options) (render.Site, error) {
	r, err := NewContext(ctx, Options{ThemeDir: o.ThemeDir, NoSitemap: o.SiteURL == "", Gate: o.Gate, Images: o.Images, Math: o.Math, Content: o.Content, Stemmers: o.Stemmers, Identity: o.Site, Words: o.Words, Order: o.AttributeOrder})
	if _, ok := setting.Of(err); err != nil && !ok {
		return nil, setting.Errorf(setting.Theme, "%w", err)
	} else if err != nil {
		return nil, err
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Website{o: o, renderer: r, outlines: outlines{}, histories: map[model.Key]*changes.History{}}, nil
}

// Name implements render.Site.
func (s *Website) Name() string { return "html" }

// warmTree is a tree kept decoded by export key (see Website.warm).
type warmTree struct {
	key model.Key
	t   *model.Tree
}

// take returns the kept tree of export key k and forgets it; nil when
// the slot holds another tree.
func (s *Website) take(k model.Key) *model.Tree {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.warm.key != k || s.warm.t == nil {
		return nil
	}
	t := s.warm.t
	s.warm = warmTree{}
	return t
}

// tree returns the tree of e for rendering: the warm one when it is e's,
// else the one the run reads back.
func (s *Website) tree(e model.Export) (*model.Tree, error) {
	if t := s.take(e.Key()); t != nil {
		return t, nil
	}
	return s.trees(e)
}

// Start implements render.Site: it makes curricula render as soon as each
// is complete (Arrived); Stop waits for that. The pages of a curriculum
// depend only on its own trees (switchers stay within it), so once its
// last tree is in, nothing later changes them, unless one of its trees
// failed or was held back as unchanged: Finish decides those.
func (s *Website) Start(ctx context.Context, w render.Writer, catalog *model.Catalog, trees render.Trees) {
	s.left, s.spoiled = map[string]int{}, map[string]bool{}
	for _, c := range catalog.Curricula {
		s.left[c.ID] = len(c.Exports)
	}
	s.catalog, s.trees = catalog, trees
	q := make(chan *model.Curriculum, len(catalog.Curricula))
	s.queue = q
	s.done = make(chan error, 1)
	ctx, s.cancel = context.WithCancel(ctx)
	go func() {
		var first error
		for c := range q {
			if first == nil && ctx.Err() == nil {
				first = s.renderSafely(ctx, w, catalog, c)
			}
		}
		s.done <- first
	}()
}

// Arrived implements render.Site: it counts a tree in, and queues its
// curriculum once all its trees are in, written.
func (s *Website) Arrived(e model.Export, written bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.queue == nil {
		return
	}
	id := e.CurriculumID
	if !written {
		s.spoiled[id] = true
	}
	if s.left[id]--; s.left[id] == 0 && !s.spoiled[id] {
		if c := s.catalog.Curriculum(id); c != nil {
			s.queue <- c // buffered: one slot per curriculum
		}
	}
}

// Stop implements render.Site: it waits for the curricula queued and
// returns the first error. Calling it again returns nil.
func (s *Website) Stop() error {
	s.mu.Lock()
	q := s.queue
	s.queue = nil
	s.mu.Unlock()
	if q == nil {
		return nil
	}
	close(q)
	err := <-s.done
	s.cancel()
	return err
}

// renderSafely is renderCurriculum with a panic turned into its error.
func (s *Website) renderSafely(ctx context.Context, w render.Writer, catalog *model.Catalog, c *model.Curriculum) (err error) {
	defer crash.Recover(&err)
	return s.renderCurriculum(ctx, w, catalog, c)
}

// renderCurriculum writes the pages of every tree of c, its formulas
// converted under ctx (the run's).
func (s *Website) renderCurriculum(ctx context.Context, w render.Writer, catalog *model.Catalog, c *model.Curriculum) error {
	exported := map[model.Key]bool{}
	for _, e := range c.Exports {
		exported[e.Key()] = true
	}
	site := siteOf(s.o, catalog, exported)
	s.mu.Lock()
	own := outlines{}
	for _, e := range c.Exports {
		own[e.Dir()] = s.outlines[e.Dir()]
	}
	s.withChanges(site, c.Exports)
	s.mu.Unlock()
	for _, e := range c.Exports {
		if err := s.renderTree(ctx, w, site, e, own); err != nil {
			return err
		}
	}
	s.mu.Lock()
	for _, e := range c.Exports {
		delete(s.outlines, e.Dir()) // its pages are written: no one else asks
	}
	s.mu.Unlock()
	return nil
}

// renderTree reads e's tree back and writes its pages.
func (s *Website) renderTree(ctx context.Context, w render.Writer, site *SiteInfo, e model.Export, others Outlines) error {
	t, err := s.tree(e)
	if err != nil {
		return fmt.Errorf("website: %s: %w", e.Dir(), err)
	}
	s.o.Log.Debug("website: rendering", "export", e.Dir())
	if err := s.renderer.RenderTree(ctx, w, site, t, others); err != nil {
		return fmt.Errorf("website: %s: %w", e.Dir(), err)
	}
	s.o.Log.Debug("website: rendered", "export", e.Dir())
	return nil
}

// withChanges gives site the histories of exports; s.mu is held.
func (s *Website) withChanges(site *SiteInfo, exports []model.Export) {
	site.Changes = map[string]*changes.History{}
	for _, e := range exports {
		if h := s.histories[e.Key()]; h != nil {
			site.Changes[e.Dir()] = h
		}
	}
}

// Keep implements render.Site: it records a tree written this run (t as
// the formats see it) for its pages, and lists its feed in entry (the
// run lists its pages: Format.Path).
func (s *Website) Keep(t *render.Tree, h *changes.History, entry *output.ManifestExport) error {
	e := t.Export
	s.mu.Lock()
	defer s.mu.Unlock()
	s.outlines[e.Dir()] = OutlineOf(t.Tree)
	if h != nil {
		s.histories[e.Key()] = h
		entry.Feed = layout.Feed(e)
	}
	// The tree that completes a curriculum none of whose trees failed is
	// rendered next (Arrived queues it): keep it decoded if the slot is
	// free.
	id := e.CurriculumID
	if s.queue != nil && s.left[id] == 1 && !s.spoiled[id] && s.warm.t == nil {
		s.warm = warmTree{key: e.Key(), t: t.Tree}
	}
	return nil
}

// Reuse implements render.Site: the pages of t were carried over
// unchanged, and the site-wide pages (the landing page's progress, the
// sitemap) count them. Its curriculum is unchanged as a whole, so no
// page is rendered against its outline: none is kept.
func (s *Website) Reuse(t *render.Tree, prior func(rel string) ([]byte, error)) {
	s.renderer.Reuse(t.Tree, prior)
}

// Finish implements render.Site: it writes the pages of every tree kept
// and not yet rendered, then the site-wide pages.
func (s *Website) Finish(ctx context.Context, w render.Writer, exports []model.Export, pages map[model.Key]bool) error {
	site := siteOf(s.o, s.catalog, pages)
	s.withChanges(site, exports)
	for _, e := range exports {
		if err := ctx.Err(); err != nil {
			return err
		}
		if s.outlines[e.Dir()] == nil {
			continue // not written this run, or its pages are written
		}
		if err := s.renderTree(ctx, w, site, e, s.outlines); err != nil {
			return err
		}
	}
	if err := s.renderer.RenderSite(w, site); err != nil {
		return fmt.Errorf("website: %w", err)
	}
	return nil
}

// siteOf describes the whole site from the run's catalog: curricula,
// their variants and locales, and which pairs have pages (written now,
// or kept from the previous run). The catalog's names are one-line texts
// already (fetch made them so); manifest.json keeps them as served.
func siteOf(o render.Options, catalog *model.Catalog, exported map[model.Key]bool) *SiteInfo {
	site := &SiteInfo{
		URL: o.SiteURL, Generator: o.Generator, Title: o.Site.Title, Lang: o.Site.Language, Identity: o.Site,
		PageData: o.PageData, Downloads: o.Downloads,
	}
	for _, c := range catalog.Curricula {
		hc := &Curriculum{
			ID: c.ID, Name: c.Name, Description: c.Description,
			Slug: c.Slug, PrimaryLocale: c.PrimaryLocale, Locales: slices.Clone(c.Locales), Exported: map[string]bool{},
		}
		slugs := map[string]string{c.ID: model.BaseSlug}
		hc.Variants = append(hc.Variants, Variant{ID: c.ID, Slug: model.BaseSlug})
		for _, e := range c.Exports {
			if e.Variant != "" {
				slugs[e.VariantID] = e.VariantSlug
			}
		}
		for _, v := range c.Variants {
			sl, ok := slugs[v.ID]
			if !ok {
				continue // not exported: no pages to switch to
			}
			hc.Variants = append(hc.Variants, Variant{
				Name: v.Name, ID: v.ID, Slug: sl, ParentSlug: slugs[v.ParentID], Depth: v.Depth,
			})
		}
		for _, e := range c.Exports {
			if exported[e.Key()] {
				hc.Exported[e.VariantSlug+"/"+e.LocaleSlug] = true
			}
		}
		site.Curricula = append(site.Curricula, hc)
	}
	return site
}

// outlines holds the outlines of a run's trees by export folder.
type outlines map[string]*Outline

// Outline implements Outlines.
func (o outlines) Outline(c, v, l string) *Outline { return o[c+"/"+v+"/"+l] }
