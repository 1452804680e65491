package exporter

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/curex/curex/exporter/changes"
	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/model"
	"github.com/curex/curex/exporter/output"
	"github.com/curex/curex/exporter/render/html"
)

// siteRun renders the website in two phases. While trees arrive it keeps
// each tree's outline (small) and spools its raw body to a temporary
// folder; once every tree is in, it renders the trees one at a time, so the
// language and variant switchers know every other tree, and memory holds
// one tree plus the outlines, not the organization.
type siteRun struct {
	c        *Config
	renderer *html.Renderer
	bodies   *bodies
	// changes holds the histories of the trees rendered this run.
	changes *changeLog

	mu       sync.Mutex
	outlines outlines
	kept     map[string]bodyRef // by export key
	reused   map[string]bool    // export keys whose pages were carried over
}

func newSiteRun(c *Config, b *bodies) (*siteRun, error) {
	if !slices.Contains(c.Formats, "html") {
		return nil, nil
	}
	r, err := html.New(html.Options{ThemeDir: c.ThemeDir, IncludeUnpublished: c.Filter.IncludeUnpublished})
	if err != nil {
		return nil, &ConfigError{fmt.Errorf("--theme: %w", err)}
	}
	return &siteRun{c: c, renderer: r, bodies: b, outlines: outlines{}, kept: map[string]bodyRef{}, reused: map[string]bool{}}, nil
}

// keep records a fetched tree for the second phase.
func (s *siteRun) keep(r fetch.Result, entry *output.ManifestExport) error {
	if s == nil {
		return nil
	}
	t := r.Tree
	if !s.c.Filter.IncludeUnpublished {
		t = t.PublishedOnly()
	}
	ref, err := s.bodies.put(r)
	if err != nil {
		return fmt.Errorf("website: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kept[r.Export.Key()] = ref
	s.outlines[r.Export.Dir()] = html.OutlineOf(t, s.c.Filter.IncludeUnpublished)
	entry.HTML = r.Export.Dir() + "/index.html"
	if s.changes != nil {
		entry.Feed = r.Export.Dir() + "/feed.xml"
	}
	return nil
}

// reuse records a tree whose pages were carried over unchanged: other
// pages still need its outline, but its own are not written again.
func (s *siteRun) reuse(r fetch.Result) error {
	if s == nil {
		return nil
	}
	var entry output.ManifestExport
	if err := s.keep(r, &entry); err != nil {
		return err
	}
	s.mu.Lock()
	s.reused[r.Export.Key()] = true
	s.mu.Unlock()
	return nil
}

// render writes every spooled tree's pages, then the site-wide pages.
func (s *siteRun) render(ctx context.Context, w *output.Writer, plan *fetch.Plan, exports []model.Export, exported map[string]bool) error {
	if s == nil {
		return nil
	}
	site := buildSite(s.c, plan, exported)
	if s.changes != nil {
		site.Changes = map[string]*changes.History{}
		for _, e := range exports {
			if h := s.changes.history(e.Key()); h != nil {
				site.Changes[e.Dir()] = h
			}
		}
	}
	for _, e := range exports {
		if err := ctx.Err(); err != nil {
			return err
		}
		ref, ok := s.kept[e.Key()]
		if !ok {
			continue
		}
		t, _, err := s.bodies.load(ref)
		if err != nil {
			return fmt.Errorf("website: %s: %w", e.Dir(), err)
		}
		if !s.c.Filter.IncludeUnpublished {
			t = t.PublishedOnly()
		}
		if s.reused[e.Key()] {
			s.renderer.Reuse(t)
			continue
		}
		if err := s.renderer.RenderTree(w, site, t, s.outlines); err != nil {
			return fmt.Errorf("website: %s: %w", e.Dir(), err)
		}
	}
	if err := s.renderer.RenderSite(w, site); err != nil {
		return fmt.Errorf("website: %w", err)
	}
	return nil
}
