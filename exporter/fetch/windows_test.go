package fetch_test

import (
	"strings"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/model"
	"github.com/curex/curex/exporter/output"
	"github.com/curex/curex/exporter/slug"
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
			if err := output.CheckPath(n.Path); err != nil {
				t.Errorf("node %q: %v", n.ID, err)
			}
			for _, seg := range strings.Split(n.Path, "/") {
				if slug.Reserved(seg) {
					t.Errorf("node %q: path %q has segment %q, reserved on Windows", n.ID, n.Path, seg)
				}
			}
			if seen[n.Path] {
				t.Errorf("node %q: path %q given twice", n.ID, n.Path)
			}
			seen[n.Path] = true
			walk(n.Children)
		}
	}
	walk(tr.Nodes)
}
