package fetch_test

import (
	"strings"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/slug"
)

// TestWindowsReservedSegments normalizes a tree whose locale and node ids
// are device names Windows reserves and checks that none becomes a path
// segment: every page path passes output.CheckPath, which refuses them.
func TestWindowsReservedSegments(t *testing.T) {
	for _, code := range []string{"CON", "nul", "aux", "prn", "Com"} {
		if s := fetch.LocaleSlug(code); slug.Reserved(s) {
			t.Errorf("LocaleSlug(%q) = %q, reserved on Windows", code, s)
		}
	}
	if got := fetch.LocaleSlug("es-MX"); got != "es-mx" {
		t.Errorf("LocaleSlug(es-MX) = %q, want es-mx", got)
	}
	e := model.Export{CurriculumSlug: "algebra-1", VariantSlug: "base", LocaleSlug: fetch.LocaleSlug("nul")}
	rc := &api.ResolvedCurriculum{}
	for _, id := range []string{"con", "CON", "nul", "com1", "lpt9", "aux.md", "prn"} {
		rc.Nodes = append(rc.Nodes, api.ResolvedNode{ID: id, Title: id, Children: []api.ResolvedNode{{ID: id + "/" + "con", Title: "con"}}})
	}
	tr := fetch.Normalize(e, rc, `"x"`)
	seen := map[string]bool{}
	var walk func([]*model.Node)
	walk = func(ns []*model.Node) {
		for _, n := range ns {
			page := layout.NodePage(e, n.Segment)
			if err := output.CheckPath(page); err != nil {
				t.Errorf("node %q: %v", n.ID, err)
			}
			for _, seg := range strings.Split(page, "/") {
				if slug.Reserved(seg) {
					t.Errorf("node %q: path %q has segment %q, reserved on Windows", n.ID, page, seg)
				}
			}
			if seen[page] {
				t.Errorf("node %q: path %q given twice", n.ID, page)
			}
			seen[page] = true
			walk(n.Children)
		}
	}
	walk(tr.Nodes)
}
