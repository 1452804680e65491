package fetch

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/slug"
)

// MaxLineBytes bounds a one-line text of a node (title, type name and
// label, ordinal label, source curriculum, variant chain names) in every
// format. A longer one is cut, ending in "…", with a warning, not failed:
// one runaway title is no reason to lose a tree of 20,000 nodes. Ids are
// kept whole (pages are named by a hash of them).
const MaxLineBytes = 4096

// Normalize turns a resolved curriculum from the API into the model tree of
// export e, giving every node its segment (model.Node.Segment). Node ids
// that repeat within the tree (a broken upstream) get distinct segments. The
// one-line texts every format shows (titles, type names and labels, the
// source curriculum) pass through PlainText and are cut to about
// MaxLineBytes, ending in "…"; ids and attributes are kept exactly as
// received.
//
// Values the specification leaves open are repaired in this tree alone,
// each named in Tree.Repairs: siblings with a negative position are
// ordered as served (positions 0, 1, ...), a node with an empty id gets
// "unnamed-" and its place (such as "unnamed-2.1", 1-based), a source
// locale in POSIX style (es_MX) is normalized and one that is no language
// tag is dropped, and a negative override level becomes 0.
func Normalize(e model.Export, rc *api.ResolvedCurriculum, etag string) *model.Tree {
	t, _ := normalize(e, rc, etag)
	return t
}

// normalize is Normalize, also counting the texts it cut.
func normalize(e model.Export, rc *api.ResolvedCurriculum, etag string) (*model.Tree, int) {
	t := &model.Tree{
		Export:       e,
		VariantChain: make([]string, len(rc.VariantChain)),
		ETag:         etag,
		ResolvedAt:   rc.ResolvedAt,
	}
	nz := &normalizer{t: t, used: map[string]int{}}
	for i, name := range rc.VariantChain {
		t.VariantChain[i] = name
		if len(name) > MaxLineBytes {
			t.VariantChain[i] = nz.line(name)
		}
	}
	if t.VariantID == "" {
		t.VariantID = rc.ID
	}
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
		servedOrder := nz.servedOrder(f.src)
		for i := range f.src {
			s := &f.src[i]
			place := strconv.Itoa(i + 1)
			if f.place != "" {
				place = f.place + "." + place
			}
			n := nz.node(s, f.depth, place)
			if servedOrder {
				n.Position = i
			}
			*f.dst = append(*f.dst, n)
			if len(s.Children) > 0 {
				stack = append(stack, frame{s.Children, &n.Children, f.depth + 1, place})
			}
		}
	}
	return t, nz.cut
}

// normalizer turns the nodes of one served tree into model nodes.
type normalizer struct {
	t    *model.Tree
	cut  int            // texts cut to MaxLineBytes
	used map[string]int // segments given, and how often
}

// line is s as a one-line text, cut to MaxLineBytes.
func (nz *normalizer) line(s string) string {
	s = PlainText(s)
	if len(s) <= MaxLineBytes {
		return s
	}
	nz.cut++
	return cutLine(s)
}

// repair records a value of the served tree that was repaired.
func (nz *normalizer) repair(format string, args ...any) {
	nz.t.Repairs = append(nz.t.Repairs, fmt.Sprintf(format, args...))
}

// servedOrder reports whether siblings keep the order they are served in
// (one of them has a negative position), and records the repair.
func (nz *normalizer) servedOrder(src []api.ResolvedNode) bool {
	for i := range src {
		if src[i].Position < 0 {
			nz.repair("node %q: negative position %d: its siblings are ordered as served", src[i].ID, src[i].Position)
			return true
		}
	}
	return false
}

// node is the model node of s (without its children) at depth, whose
// place among its siblings is place ("2.1").
func (nz *normalizer) node(s *api.ResolvedNode, depth int, place string) *model.Node {
	n := &model.Node{
		ID:             s.ID,
		Title:          nz.line(s.Title),
		NodeType:       model.NodeType{Name: s.NodeType.Name, DisplayName: nz.line(s.NodeType.DisplayName), Icon: s.NodeType.Icon},
		OrdinalLabel:   nz.line(s.OrdinalLabel),
		TypeDisplay:    nz.line(s.TypeDisplay),
		WorkflowStatus: s.WorkflowStatus,
		Position:       s.Position,
		Depth:          depth,
		Attributes:     s.Attributes,
		Inheritance:    model.Inheritance(s.Inheritance),
		Translation:    model.Translation(s.Translation),
	}
	n.Inheritance.SourceCurriculum = nz.line(n.Inheritance.SourceCurriculum)
	if n.ID == "" {
		n.ID = "unnamed-" + place
		nz.repair("node %s (%q): empty id: called %s", place, n.Title, n.ID)
	}
	if n.Inheritance.OverrideLevel < 0 {
		nz.repair("node %q: negative override level %d: taken as 0", n.ID, n.Inheritance.OverrideLevel)
		n.Inheritance.OverrideLevel = 0
	}
	if sl := n.Translation.SourceLocale; sl != "" {
		if tag, ok := NormalizeLocale(sl); ok {
			n.Translation.SourceLocale = tag
		} else {
			n.Translation.SourceLocale = ""
			nz.repair("node %q: source locale %q is not a language tag: left out", n.ID, sl)
		}
	}
	if n.NodeType.DisplayName == "" {
		n.NodeType.DisplayName = n.NodeType.Name
	}
	n.Segment = nz.segment(n.ID)
	return n
}

// segment is the unique path segment of the node whose id is id: its
// slug, or for a slug given before, the slug of id#2, id#3, ...
func (nz *normalizer) segment(id string) string {
	seg := slug.ID(id)
	if k := nz.used[seg]; k > 0 {
		nz.used[seg]++
		return slug.ID(id + "#" + strconv.Itoa(k+1))
	}
	nz.used[seg] = 1
	return seg
}

// cutLine cuts s, a PlainText, to about MaxLineBytes on a character
// boundary and ends it with "…", closing again the bidirectional controls
// the cut left open.
func cutLine(s string) string {
	end := MaxLineBytes - len("…")
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return PlainText(s[:end] + "…")
}
