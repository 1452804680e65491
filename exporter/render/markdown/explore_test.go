package markdown

import (
	"fmt"
	"testing"

	"github.com/curex/curex/exporter/internal/testtrees"
	"github.com/curex/curex/exporter/model"
)

func TestExplore(t *testing.T) {
	s := testtrees.Sample(t)
	seen := map[string]bool{}
	for _, tr := range s.Trees {
		tr.Walk(func(n *model.Node) bool {
			for _, k := range []string{"rubric", "ap_topics", "ap_big_idea", "local_context", "ca_framework_notes"} {
				if v, ok := n.Attributes[k]; ok && !seen[k] {
					seen[k] = true
					fmt.Println(tr.Dir(), n.ID, k, string(v))
				}
			}
			if n.WorkflowStatus != "published" && !seen[n.WorkflowStatus] { seen[n.WorkflowStatus]=true; fmt.Println("status", n.WorkflowStatus, n.ID, tr.Dir()) }
			return true
		})
	}
}
