// Package model is the centre of curex: one normalized tree per curriculum
// variant and locale, and the Catalog of a run's curricula, variants and
// locales. The fetcher produces both; renderers only read them. It
// imports nothing of the API client or of any renderer.
package model

import (
	"encoding/json"
	"maps"
	"time"
)

// Workflow states with a meaning to curex. Other values are kept as they
// come and count as unpublished.
const (
	StatusPublished = "published"
)

// BaseSlug is the variant slug (Export.VariantSlug) of a base curriculum.
const BaseSlug = "base"

// Export names one variant × locale of one base curriculum: the unit curex
// fetches, renders and writes.
type Export struct {
	// CurriculumID and CurriculumName are those of the base curriculum,
	// exactly as the API gives them.
	CurriculumID   string
	CurriculumName string
	// Variant is the variant's name as the API gives it, "" for the base.
	Variant string
	// VariantID is the id of the resolved curriculum (the base's id for the
	// base itself).
	VariantID string
	// Locale is the locale code, a language tag; PrimaryLocale the
	// curriculum's.
	Locale        string
	PrimaryLocale string
	// LocaleAsServed is the code as the API lists it, when that is not
	// Locale (a POSIX or Rails style code such as "pt_BR" normalized to
	// "pt-BR"); empty otherwise. Requests use it: see APILocale.
	LocaleAsServed string
	// Slugs place the export in the output: CurriculumSlug/VariantSlug/LocaleSlug.
	CurriculumSlug, VariantSlug, LocaleSlug string
}

// Key identifies an export uniquely within a run: its base curriculum,
// variant and locale. It is comparable, for maps keyed by export.
type Key struct {
	CurriculumID, Variant, Locale string
}

// String is the key as one string, for names derived from it (file names
// in the state folder): the three parts joined by NUL bytes.
func (k Key) String() string {
	return k.CurriculumID + "\x00" + k.Variant + "\x00" + k.Locale
}

// Key identifies the export uniquely within a run.
func (e Export) Key() Key {
	return Key{CurriculumID: e.CurriculumID, Variant: e.Variant, Locale: e.Locale}
}

// APILocale is the locale code to ask the API for: the code as served.
func (e Export) APILocale() string {
	if e.LocaleAsServed != "" {
		return e.LocaleAsServed
	}
	return e.Locale
}

// Dir is the export's folder relative to an output root, with forward
// slashes: curriculum/variant/locale.
func (e Export) Dir() string {
	return e.CurriculumSlug + "/" + e.VariantSlug + "/" + e.LocaleSlug
}

// Tree is one resolved curriculum variant in one locale.
type Tree struct {
	Export
	// VariantChain lists curriculum names from the base to the variant.
	VariantChain []string
	// ETag is the API's ETag of the resolved response.
	ETag string
	// ResolvedAt is when the API says the content was resolved.
	ResolvedAt time.Time
	// Nodes are the root nodes in order.
	Nodes []*Node
	// Repairs name the values of the served tree that the specification
	// leaves open and that were repaired in this tree (a negative
	// position, an empty node id, a source locale that is no language
	// tag), one message each, for the run to warn about.
	Repairs []string
}

// NodeType is the kind of a node.
type NodeType struct {
	Name, DisplayName, Icon string
}

// Inheritance says where a node's content comes from in the variant chain.
type Inheritance struct {
	IsInherited      bool
	SourceCurriculum string
	OverrideLevel    int
}

// Translation says which language a node's content is in.
type Translation struct {
	IsTranslated bool
	Status       string
	SourceLocale string
}

// Node is one content node with its subtree.
type Node struct {
	ID             string
	Title          string
	NodeType       NodeType
	OrdinalLabel   string
	TypeDisplay    string
	WorkflowStatus string
	Position       int
	Depth          int
	// Attributes is the free-form content, exactly as received.
	Attributes  map[string]json.RawMessage
	Inheritance Inheritance
	Translation Translation
	// Segment is the node's name in its tree, unique there and the same in
	// every format: a slug of its ID (see slug.ID), told apart when two
	// nodes share an ID. Renderers ask the layout package where a node's
	// files go (layout.NodePage).
	Segment  string
	Children []*Node
}

// Published reports whether the node's own workflow status is published.
func (n *Node) Published() bool { return n.WorkflowStatus == StatusPublished }

// Walk calls fn for every node in reading order (depth first, pre-order);
// when fn returns false the node's subtree is skipped.
func (t *Tree) Walk(fn func(*Node) bool) {
	stack := make([]*Node, 0, 64)
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		stack = append(stack, t.Nodes[i])
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !fn(n) {
			continue
		}
		for i := len(n.Children) - 1; i >= 0; i-- {
			stack = append(stack, n.Children[i])
		}
	}
}

// Count returns the number of nodes in the tree.
func (t *Tree) Count() int {
	n := 0
	t.Walk(func(*Node) bool { n++; return true })
	return n
}

// PublishedOnly returns a copy of t without unpublished nodes and their
// subtrees (a draft's children are never public, whatever their own
// status). Node values are shared, not copied; only child lists are new.
func (t *Tree) PublishedOnly() *Tree {
	out := *t
	out.Nodes = publishedOnly(t.Nodes)
	return &out
}

func publishedOnly(ns []*Node) []*Node {
	var out []*Node
	for _, n := range ns {
		if !n.Published() {
			continue
		}
		c := *n
		c.Children = publishedOnly(n.Children)
		out = append(out, &c)
	}
	return out
}

// WithoutAttributes returns t with the attributes of the given keys
// removed from every node: the members a publisher hides (the
// hide_attributes setting) reach no format. With no keys, or none of them
// present, it returns t itself; otherwise a copy, t left as it was.
func (t *Tree) WithoutAttributes(keys []string) *Tree {
	if len(keys) == 0 || !t.hasAttribute(keys) {
		return t
	}
	out := *t
	out.Nodes = withoutAttributes(t.Nodes, keys)
	return &out
}

// hasAttribute reports whether any node of t has a member of keys.
func (t *Tree) hasAttribute(keys []string) bool {
	found := false
	t.Walk(func(n *Node) bool {
		for _, k := range keys {
			if _, ok := n.Attributes[k]; ok {
				found = true
			}
		}
		return !found
	})
	return found
}

func withoutAttributes(ns []*Node, keys []string) []*Node {
	if ns == nil {
		return nil
	}
	out := make([]*Node, 0, len(ns))
	for _, n := range ns {
		c := *n
		c.Attributes = maps.Clone(n.Attributes)
		for _, k := range keys {
			delete(c.Attributes, k)
		}
		c.Children = withoutAttributes(n.Children, keys)
		out = append(out, &c)
	}
	return out
}
