package layout_test

import (
	"testing"

	"github.com/curex/curex/exporter/layout"
	"github.com/curex/curex/exporter/model"
)

func TestPaths(t *testing.T) {
	e := model.Export{CurriculumSlug: "algebra-1", VariantSlug: "texas", LocaleSlug: "es"}
	for _, tc := range []struct{ got, want string }{
		{layout.Dir(e), "algebra-1/texas/es"},
		{layout.ExportIndex(e), "algebra-1/texas/es/index.html"},
		{layout.NodePage(e, "u1"), "algebra-1/texas/es/u1/index.html"},
		{layout.CurriculumIndex("algebra-1"), "algebra-1/index.html"},
		{layout.Handbook(e), "algebra-1/texas/es/handbook.html"},
		{layout.PDF(e), "algebra-1/texas/es/handbook.pdf"},
		{layout.Feed(e), "algebra-1/texas/es/feed.xml"},
		{layout.BundleDir(e), "bundles/algebra-1/texas/es"},
		{layout.TreeJSON(e), "bundles/algebra-1/texas/es/tree.json"},
		{layout.Changes(e), "bundles/algebra-1/texas/es/changes.json"},
		{layout.MarkdownDir(e), "bundles/algebra-1/texas/es/markdown/"},
		{layout.MarkdownZip(e), "bundles/algebra-1/texas/es/markdown.zip"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
