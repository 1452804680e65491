package fetch

import (
	"strconv"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/model"
	"github.com/curex/curex/exporter/slug"
)

// Normalize turns a resolved curriculum from the API into the model tree of
// export e, giving every node its page path under e.Dir(). Node ids that
// repeat within the tree (a broken upstream) get distinct paths. The
// one-line texts every format shows (titles, type names and labels, the
// source curriculum) pass through PlainText; ids and attributes are kept
// exactly as received.
func Normalize(e model.Export, rc *api.ResolvedCurriculum, etag string) *model.Tree {
	t := &model.Tree{
		Export:       e,
		VariantChain: append([]string(nil), rc.VariantChain...),
		ETag:         etag,
		ResolvedAt:   rc.ResolvedAt,
	}
	if t.VariantID == "" {
		t.VariantID = rc.ID
	}
	used := map[string]int{}
	type frame struct {
		src   []api.ResolvedNode
		dst   *[]*model.Node
		depth int
	}
	stack := []frame{{rc.Nodes, &t.Nodes, 0}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		*f.dst = make([]*model.Node, 0, len(f.src))
		for i := range f.src {
			s := &f.src[i]
			n := &model.Node{
				ID:             s.ID,
				Title:          PlainText(s.Title),
				NodeType:       model.NodeType{Name: s.NodeType.Name, DisplayName: PlainText(s.NodeType.DisplayName), Icon: s.NodeType.Icon},
				OrdinalLabel:   PlainText(s.OrdinalLabel),
				TypeDisplay:    PlainText(s.TypeDisplay),
				WorkflowStatus: s.WorkflowStatus,
				Position:       s.Position,
				Depth:          f.depth,
				Attributes:     s.Attributes,
				Inheritance:    model.Inheritance(s.Inheritance),
				Translation:    model.Translation(s.Translation),
			}
			n.Inheritance.SourceCurriculum = PlainText(n.Inheritance.SourceCurriculum)
			if n.NodeType.DisplayName == "" {
				n.NodeType.DisplayName = n.NodeType.Name
			}
			seg := slug.ID(s.ID)
			if k := used[seg]; k > 0 {
				used[seg]++
				seg = slug.ID(s.ID + "#" + strconv.Itoa(k+1))
			} else {
				used[seg] = 1
			}
			n.Path = e.Dir() + "/" + seg + "/index.html"
			*f.dst = append(*f.dst, n)
			if len(s.Children) > 0 {
				stack = append(stack, frame{s.Children, &n.Children, f.depth + 1})
			}
		}
	}
	return t
}
