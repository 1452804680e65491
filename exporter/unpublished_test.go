package exporter_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/slug"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// TestUnpublishedNodesNeverReachAPage: the API's trees hold drafts,
// nodes in review and archived ones; the run filters them once, as a tree
// arrives, and no format filters again. None of them, nor a node under
// one, has a page, a link, a search entry, a handbook section or a node
// in the bundle of its export.
func TestUnpublishedNodesNeverReachAPage(t *testing.T) {
	t.Parallel()
	// The shared export of the sample (html, json, markdown, handbook).
	shared := sampleExport(t)
	h, out := shared.Handler, shared.Out
	f, err := os.Open(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := output.ReadManifest(f)
	if err != nil {
		t.Fatal(err)
	}
	unpublished := 0
	for _, e := range m.Exports {
		var b bundle
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(e.JSON)))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &b); err != nil {
			t.Fatal(err)
		}
		tree, err := h.Index().Resolve(b.VariantID, e.Locale)
		if err != nil {
			t.Fatal(err)
		}
		hidden := hiddenNodes(tree.Roots, false, nil)
		unpublished += len(hidden)
		dir := path.Dir(e.HTML)
		for _, root := range []string{dir, path.Dir(e.JSON)} {
			err := filepath.WalkDir(filepath.Join(out, filepath.FromSlash(root)), func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				for _, id := range hidden {
					if strings.Contains(string(data), `"`+id+`"`) || strings.Contains(string(data), slug.ID(id)+"/index.html") {
						rel, _ := filepath.Rel(out, p)
						t.Errorf("%s mentions %s, which is not published", rel, id)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, id := range hidden {
			if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(dir), slug.ID(id))); err == nil {
				t.Errorf("%s: %s has a page", dir, id)
			}
		}
	}
	if unpublished == 0 {
		t.Fatal("the sample's trees hold no unpublished node: the test shows nothing")
	}
}

// hiddenNodes lists the nodes of ns a reader must not see: those not
// published and every node under one.
func hiddenNodes(ns []*dataset.ResolvedNode, under bool, out []string) []string {
	for _, n := range ns {
		hide := under || n.WorkflowStatus != dataset.StatusPublished
		if hide {
			out = append(out, n.ID)
		}
		out = hiddenNodes(n.Children, hide, out)
	}
	return out
}
