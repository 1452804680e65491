package layout_test

import (
	"path/filepath"
	"testing"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
)

// TestPaths pins every output path: they are the layout README.md and
// docs/formats.md document, and tree.json's "path" values.
func TestPaths(t *testing.T) {
	e := model.Export{CurriculumSlug: "algebra-1", VariantSlug: "texas", LocaleSlug: "es"}
	for _, tc := range []struct{ name, got, want string }{
		{"Home", layout.Home, "index.html"},
		{"Manifest", layout.Manifest, "manifest.json"},
		{"Sitemap", layout.Sitemap, "sitemap.xml"},
		{"Robots", layout.Robots, "robots.txt"},
		{"NotFound", layout.NotFound, "404.html"},
		{"Dir", layout.Dir(e), "algebra-1/texas/es"},
		{"ExportIndex", layout.ExportIndex(e), "algebra-1/texas/es/index.html"},
		{"NodePage", layout.NodePage(e, "u1"), "algebra-1/texas/es/u1/index.html"},
		{"CurriculumIndex", layout.CurriculumIndex("algebra-1"), "algebra-1/index.html"},
		{"Asset", layout.Asset("site.1a2b3c4d.css"), "assets/site.1a2b3c4d.css"},
		{"Asset icon", layout.Asset("icons/unit.svg"), "assets/icons/unit.svg"},
		{"Handbook", layout.Handbook(e), "algebra-1/texas/es/handbook.html"},
		{"PDF", layout.PDF(e), "algebra-1/texas/es/handbook.pdf"},
		{"Feed", layout.Feed(e), "algebra-1/texas/es/feed.xml"},
		{"WhatsNew", layout.WhatsNew(e), "algebra-1/texas/es/whats-new.html"},
		{"Search", layout.Search(e), "algebra-1/texas/es/search.json"},
		{"SearchScript", layout.SearchScript(e), "algebra-1/texas/es/search-index.js"},
		{"SearchBody", layout.SearchBody(e, 2), "algebra-1/texas/es/search-body-2.js"},
		{"CurriculumSearchSources", layout.CurriculumSearchSources("algebra-1"), "algebra-1/search-sources.js"},
		{"BundleDir", layout.BundleDir(e), "bundles/algebra-1/texas/es"},
		{"TreeJSON", layout.TreeJSON(e), "bundles/algebra-1/texas/es/tree.json"},
		{"Changes", layout.Changes(e), "bundles/algebra-1/texas/es/changes.json"},
		{"MarkdownDir", layout.MarkdownDir(e), "bundles/algebra-1/texas/es/markdown/"},
		{"MarkdownZip", layout.MarkdownZip(e), "bundles/algebra-1/texas/es/markdown.zip"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	for _, seg := range []string{"u1", "unit-1-6b3a55e0", ""} {
		prefix, suffix := layout.NodePageParts(e)
		if got, want := prefix+seg+suffix, layout.NodePage(e, seg); got != want {
			t.Errorf("NodePageParts around %q: got %q, want %q", seg, got, want)
		}
	}
	if got := layout.Trees(e); len(got) != 2 || got[0] != "bundles/algebra-1/texas/es" || got[1] != "algebra-1/texas/es" {
		t.Errorf("Trees: got %q", got)
	}
}

// TestCache pins the cache folder's layout: a cache written by one version
// is read by the next, so a change here strands every user's cache.
func TestCache(t *testing.T) {
	c := layout.Cache(filepath.FromSlash("/var/cache/curex"))
	s := c.Scope("0123456789abcdef01234567")
	entry := "ab" + "cdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789"
	for _, tc := range []struct{ name, got, want string }{
		{"Scopes", c.Scopes(), "/var/cache/curex/api"},
		{"Scope", string(s), "/var/cache/curex/api/0123456789abcdef01234567"},
		{"Record", s.Record(), "/var/cache/curex/api/0123456789abcdef01234567/scope.json"},
		{"ETags", s.ETags(), "/var/cache/curex/api/0123456789abcdef01234567/etag"},
		{"State", s.State(), "/var/cache/curex/api/0123456789abcdef01234567/state"},
		{"Snapshots", s.Snapshots(), "/var/cache/curex/api/0123456789abcdef01234567/state/snapshots"},
		{"ETagEntry", layout.ETagEntry(s.ETags(), entry), "/var/cache/curex/api/0123456789abcdef01234567/etag/ab/" + entry},
		{"Prints", c.Prints(), "/var/cache/curex/pdf"},
		{"Staging", c.Staging("0011223344556677"), "/var/cache/curex/publish/0011223344556677"},
		{"relative root", string(layout.Cache("cache").Scope("x")), "cache/api/x"},
	} {
		if want := filepath.FromSlash(tc.want); tc.got != want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, want)
		}
	}
}
