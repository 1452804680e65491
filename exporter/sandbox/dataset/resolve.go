package dataset

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
)

// Translation states reported in translation_metadata.translation_status.
const (
	// TranslationOriginal: the requested locale is the primary locale.
	TranslationOriginal = "original"
	// TranslationTranslated: a published translation into the requested
	// locale is shown.
	TranslationTranslated = "translated"
	// TranslationFallback: no published translation exists; the content is
	// shown in the primary locale.
	TranslationFallback = "fallback"
)

// ResolvedNode is one node of a resolved tree: inheritance and translation
// applied.
type ResolvedNode struct {
	ID             string
	Title          string
	NodeType       ResolvedType
	OrdinalLabel   string
	TypeDisplay    string
	WorkflowStatus string
	Position       int
	Depth          int
	Attributes     map[string]json.RawMessage
	Inheritance    Inheritance
	Translation    TranslationInfo
	Parent         *ResolvedNode
	Children       []*ResolvedNode

	// source is the chain position of the curriculum whose version of the
	// content is shown; authored that of the curriculum that created the
	// node.
	source, authored int
	// changed maps a field (titleField or an attribute member) to the chain
	// position of the last override that set it.
	changed map[string]int
	// explicitLabel is true when the dataset set the ordinal label.
	explicitLabel bool
}

// ResolvedType is the node type as served, display name localized.
type ResolvedType struct {
	Name        string
	DisplayName string
	Icon        string
}

// Inheritance says where a node's content comes from (inheritance_metadata).
type Inheritance struct {
	// IsInherited is true when the shown content was authored by an
	// ancestor of the requested curriculum, not by the curriculum itself.
	IsInherited bool
	// SourceCurriculum is the name of the curriculum that authored the shown
	// content: the last in the chain to add or override the node.
	SourceCurriculum string
	// OverrideLevel counts the curricula in the chain that overrode the
	// node; 0 means the node is shown as it was first written.
	OverrideLevel int
}

// TranslationInfo says which language a node is shown in
// (translation_metadata).
type TranslationInfo struct {
	IsTranslated bool
	Status       string
	// SourceLocale is the locale of the text shown: the requested locale
	// when translated, the primary locale otherwise.
	SourceLocale string
}

// Tree is a curriculum resolved for one variant and locale.
type Tree struct {
	// Curriculum is the resolved curriculum (the variant, or the base).
	Curriculum *Curriculum
	// Chain runs from the base curriculum to Curriculum.
	Chain []*Curriculum
	// Locale is the locale resolved into; PrimaryLocale the base's.
	Locale        string
	PrimaryLocale string
	Roots         []*ResolvedNode
	NodeCount     int
	// MaxDepth is the greatest depth of any node (roots have depth 0).
	MaxDepth int
	// UpdatedAt is the latest updated_at along the chain: the content's time.
	UpdatedAt time.Time

	byID map[string]*ResolvedNode
}

// Node returns the node with id, or nil.
func (t *Tree) Node(id string) *ResolvedNode { return t.byID[id] }

// Walk calls fn for every node in reading order (depth first, pre-order).
func (t *Tree) Walk(fn func(*ResolvedNode)) {
	var walk func([]*ResolvedNode)
	walk = func(ns []*ResolvedNode) {
		for _, n := range ns {
			fn(n)
			walk(n.Children)
		}
	}
	walk(t.Roots)
}

// Resolve returns curriculum id resolved into locale: its variant chain's
// overrides and additions applied in order from the base, then translations.
// An empty locale means the primary locale. The caller checks that the
// locale is enabled; Resolve reports an unknown curriculum, or a dataset
// whose overrides or additions name nodes that are not there.
func (ix *Index) Resolve(id, locale string) (*Tree, error) {
	chain, err := ix.chain(id)
	if err != nil {
		return nil, err
	}
	base := chain[0]
	if locale == "" {
		locale = base.PrimaryLocale
	}
	t := &Tree{
		Curriculum:    chain[len(chain)-1],
		Chain:         chain,
		Locale:        locale,
		PrimaryLocale: base.PrimaryLocale,
		byID:          map[string]*ResolvedNode{},
	}
	for _, c := range chain {
		if c.UpdatedAt.After(t.UpdatedAt) {
			t.UpdatedAt = c.UpdatedAt
		}
	}
	for i := range base.Nodes {
		t.Roots = append(t.Roots, t.build(&base.Nodes[i], nil, 0))
	}
	for level, c := range chain[1:] {
		level++
		for _, o := range c.Overrides {
			n := t.byID[o.Node]
			if n == nil {
				return nil, fmt.Errorf("curriculum %q: override of node %q, which it does not inherit", c.ID, o.Node)
			}
			n.override(&o, level)
		}
		for _, a := range c.Additions {
			siblings := &t.Roots
			var parent *ResolvedNode
			if a.Parent != "" {
				parent = t.byID[a.Parent]
				if parent == nil {
					return nil, fmt.Errorf("curriculum %q: addition of node %q under %q, which it does not inherit", c.ID, a.Node.ID, a.Parent)
				}
				siblings = &parent.Children
			}
			if t.byID[a.Node.ID] != nil {
				return nil, fmt.Errorf("curriculum %q: addition of node %q, which already exists", c.ID, a.Node.ID)
			}
			pos := min(max(a.Position, 0), len(*siblings))
			*siblings = slices.Insert(*siblings, pos, t.build(&a.Node, parent, level))
		}
	}
	t.finish(ix, chain)
	return t, nil
}

// build copies a dataset node and its subtree, authored at chain level.
func (t *Tree) build(n *Node, parent *ResolvedNode, level int) *ResolvedNode {
	r := &ResolvedNode{
		ID:             n.ID,
		Title:          n.Title,
		NodeType:       ResolvedType{Name: n.NodeType},
		OrdinalLabel:   n.OrdinalLabel,
		explicitLabel:  n.OrdinalLabel != "",
		WorkflowStatus: n.WorkflowStatus,
		Attributes:     maps.Clone(n.Attributes),
		Parent:         parent,
		source:         level,
		authored:       level,
	}
	if r.WorkflowStatus == "" {
		r.WorkflowStatus = StatusPublished
	}
	if r.Attributes == nil {
		r.Attributes = map[string]json.RawMessage{}
	}
	t.byID[n.ID] = r
	for i := range n.Children {
		r.Children = append(r.Children, t.build(&n.Children[i], r, level))
	}
	return r
}

func (r *ResolvedNode) override(o *Override, level int) {
	if r.changed == nil {
		r.changed = map[string]int{}
	}
	if o.Title != "" {
		r.Title = o.Title
		r.changed[titleField] = level
	}
	for k := range o.Attributes {
		r.changed[k] = level
	}
	if o.NodeType != "" {
		r.NodeType.Name = o.NodeType
	}
	if o.OrdinalLabel != "" {
		r.OrdinalLabel, r.explicitLabel = o.OrdinalLabel, true
	}
	if o.WorkflowStatus != "" {
		r.WorkflowStatus = o.WorkflowStatus
	}
	mergeAttributes(r.Attributes, o.Attributes)
	r.source = level
	r.Inheritance.OverrideLevel++
}

// mergeAttributes sets the members of src in dst; a JSON null removes one.
func mergeAttributes(dst, src map[string]json.RawMessage) {
	for k, v := range src {
		if string(v) == "null" {
			delete(dst, k)
		} else {
			dst[k] = v
		}
	}
}

// finish numbers, types, attributes and translates every node.
func (t *Tree) finish(ix *Index, chain []*Curriculum) {
	last := len(chain) - 1
	var walk func(ns []*ResolvedNode, depth int)
	walk = func(ns []*ResolvedNode, depth int) {
		perType := map[string]int{}
		for i, n := range ns {
			t.NodeCount++
			t.MaxDepth = max(t.MaxDepth, depth)
			n.Position, n.Depth = i, depth
			perType[n.NodeType.Name]++
			if !n.explicitLabel {
				n.OrdinalLabel = strconv.Itoa(perType[n.NodeType.Name])
			}
			n.Inheritance.SourceCurriculum = chain[n.source].Name
			n.Inheritance.IsInherited = n.source != last
			t.translate(ix, chain, n)
			walk(n.Children, depth+1)
		}
	}
	walk(t.Roots, 0)
}

// translate applies the first published translation of n into t.Locale found
// from the requested curriculum back to the one that authored n's content.
func (t *Tree) translate(ix *Index, chain []*Curriculum, n *ResolvedNode) {
	nt := ix.types[n.NodeType.Name]
	n.NodeType.DisplayName, n.NodeType.Icon = nt.DisplayName, nt.Icon
	if t.Locale == t.PrimaryLocale {
		n.Translation = TranslationInfo{Status: TranslationOriginal, SourceLocale: t.PrimaryLocale}
	} else {
		n.Translation = TranslationInfo{Status: TranslationFallback, SourceLocale: t.PrimaryLocale}
		if tr, ok := findTranslation(chain, n, t.Locale, false); ok {
			if tr.Title != "" {
				n.Title = tr.Title
			}
			mergeAttributes(n.Attributes, tr.Attributes)
			n.Translation = TranslationInfo{IsTranslated: true, Status: TranslationTranslated, SourceLocale: t.Locale}
		}
		if dn, ok := nt.Translations[t.Locale]; ok && dn != "" {
			n.NodeType.DisplayName = dn
		}
	}
	n.TypeDisplay = n.NodeType.DisplayName + " " + n.OrdinalLabel
}

// titleField names the title in ResolvedNode.changed; attribute members
// cannot be called that, since JSON object keys never hold a NUL.
const titleField = "\x00title"

// findTranslation looks for a translation of n into locale from the end of
// chain back to the curriculum that created n; the first current one wins. A
// translation is current when no later override changed a field it
// translates: a translation of text that has since changed describes other
// content. Draft translations count only when drafts is true.
func findTranslation(chain []*Curriculum, n *ResolvedNode, locale string, drafts bool) (Translation, bool) {
	for i := len(chain) - 1; i >= n.authored; i-- {
		tr, ok := chain[i].Translations[locale][n.ID]
		if !ok || !(drafts || tr.Status == "" || tr.Status == StatusPublished) {
			continue
		}
		if n.stale(tr, i) {
			continue
		}
		return tr, true
	}
	return Translation{}, false
}

// stale reports whether an override after chain position at changed a field
// that tr translates.
func (n *ResolvedNode) stale(tr Translation, at int) bool {
	if tr.Title != "" && n.changed[titleField] > at {
		return true
	}
	for k := range tr.Attributes {
		if n.changed[k] > at {
			return true
		}
	}
	return false
}

// Progress is the translation progress of one locale of a curriculum.
type Progress struct {
	Locale Locale
	// IsPrimary is true for the primary locale.
	IsPrimary bool
	// Translated is the percentage (0–100, rounded down) of nodes with a
	// translation, draft or published; Published counts published ones only.
	Translated, Published int
}

// Progress reports the translation progress of every enabled locale of
// curriculum id, in the order the locales are listed.
func (ix *Index) Progress(id string) ([]Progress, error) {
	t, err := ix.Resolve(id, "")
	if err != nil {
		return nil, err
	}
	var out []Progress
	for _, l := range ix.Locales(id) {
		p := Progress{Locale: l, IsPrimary: l.Code == t.PrimaryLocale}
		if p.IsPrimary || t.NodeCount == 0 {
			p.Translated, p.Published = 100, 100
			out = append(out, p)
			continue
		}
		var any, pub int
		t.Walk(func(n *ResolvedNode) {
			if _, ok := findTranslation(t.Chain, n, l.Code, true); ok {
				any++
			}
			if _, ok := findTranslation(t.Chain, n, l.Code, false); ok {
				pub++
			}
		})
		p.Translated, p.Published = 100*any/t.NodeCount, 100*pub/t.NodeCount
		out = append(out, p)
	}
	return out, nil
}
