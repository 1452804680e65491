package fetch

import (
	"fmt"
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
//
// Values the specification leaves open are repaired in this tree alone,
// each named in Tree.Repairs: siblings with a negative position are
// ordered as served (positions 0, 1, ...), a node with an empty id gets
// "unnamed-" and its place (such as "unnamed-2.1", 1-based), a source
// locale in POSIX style (es_MX) is normalized and one that is no language
// tag is dropped, and a negative override level becomes 0.
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
		place string // 1-based indexes from the root, "2.1"
	}
	stack := []frame{{rc.Nodes, &t.Nodes, 0, ""}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		*f.dst = make([]*model.Node, 0, len(f.src))
		servedOrder := false
		for i := range f.src {
			if f.src[i].Position < 0 {
				servedOrder = true
				t.Repairs = append(t.Repairs, fmt.Sprintf("node %q: negative position %d: its siblings are ordered as served", f.src[i].ID, f.src[i].Position))
				break
			}
		}
		for i := range f.src {
			s := &f.src[i]
			place := strconv.Itoa(i + 1)
			if f.place != "" {
				place = f.place + "." + place
			}
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
			if servedOrder {
				n.Position = i
			}
			if n.ID == "" {
				n.ID = "unnamed-" + place
				t.Repairs = append(t.Repairs, fmt.Sprintf("node %s (%q): empty id: called %s", place, n.Title, n.ID))
			}
			if n.Inheritance.OverrideLevel < 0 {
				t.Repairs = append(t.Repairs, fmt.Sprintf("node %q: negative override level %d: taken as 0", n.ID, n.Inheritance.OverrideLevel))
				n.Inheritance.OverrideLevel = 0
			}
			if sl := n.Translation.SourceLocale; sl != "" {
				if tag, ok := NormalizeLocale(sl); ok {
					n.Translation.SourceLocale = tag
				} else {
					n.Translation.SourceLocale = ""
					t.Repairs = append(t.Repairs, fmt.Sprintf("node %q: source locale %q is not a language tag: left out", n.ID, sl))
				}
			}
			if n.NodeType.DisplayName == "" {
				n.NodeType.DisplayName = n.NodeType.Name
			}
			seg := slug.ID(n.ID)
			if k := used[seg]; k > 0 {
				used[seg]++
				seg = slug.ID(n.ID + "#" + strconv.Itoa(k+1))
			} else {
				used[seg] = 1
			}
			n.Path = e.Dir() + "/" + seg + "/index.html"
			*f.dst = append(*f.dst, n)
			if len(s.Children) > 0 {
				stack = append(stack, frame{s.Children, &n.Children, f.depth + 1, place})
			}
		}
	}
	return t
}
