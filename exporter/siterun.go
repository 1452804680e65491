package exporter

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/curex/curex/exporter/api"
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
	spool    string

	mu       sync.Mutex
	outlines outlines
	spooled  map[string]string // export key -> spool file
	etags    map[string]string
	reused   map[string]bool // export keys whose pages were carried over
}

func newSiteRun(c *Config) (*siteRun, error) {
	if !slices.Contains(c.Formats, "html") {
		return nil, nil
	}
	r, err := html.New(html.Options{ThemeDir: c.ThemeDir, IncludeUnpublished: c.Filter.IncludeUnpublished})
	if err != nil {
		return nil, &ConfigError{fmt.Errorf("--theme: %w", err)}
	}
	spool, err := os.MkdirTemp("", "curex-spool-")
	if err != nil {
		return nil, fmt.Errorf("website: %w", err)
	}
	return &siteRun{c: c, renderer: r, spool: spool, outlines: outlines{}, spooled: map[string]string{}, etags: map[string]string{}, reused: map[string]bool{}}, nil
}

func (s *siteRun) close() {
	if s != nil {
		_ = os.RemoveAll(s.spool)
	}
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
	s.mu.Lock()
	defer s.mu.Unlock()
	name := filepath.Join(s.spool, strconv.Itoa(len(s.spooled))+".json")
	if err := os.WriteFile(name, r.Body, 0o600); err != nil {
		return fmt.Errorf("website: spool %s: %w", r.Export.Dir(), err)
	}
	s.spooled[r.Export.Key()] = name
	s.etags[r.Export.Key()] = t.ETag
	s.outlines[r.Export.Dir()] = html.OutlineOf(t, s.c.Filter.IncludeUnpublished)
	entry.HTML = r.Export.Dir() + "/index.html"
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
	for _, e := range exports {
		if err := ctx.Err(); err != nil {
			return err
		}
		name, ok := s.spooled[e.Key()]
		if !ok {
			continue
		}
		body, err := os.ReadFile(name)
		if err != nil {
			return fmt.Errorf("website: %s: %w", e.Dir(), err)
		}
		rc, err := api.DecodeResolved(body)
		if err != nil {
			return fmt.Errorf("website: %s: %w", e.Dir(), err)
		}
		t := fetch.Normalize(e, rc, s.etags[e.Key()])
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
