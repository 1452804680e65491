package dataset

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Index is a validated, read-only view of a Dataset with lookups by id. Build
// one with NewIndex; it is safe for concurrent use.
type Index struct {
	ds        *Dataset
	orgs      map[string]*Organization
	users     map[string]*User
	tokens    map[string]*Token
	types     map[string]*NodeType
	curricula map[string]*Curriculum
	variants  map[string][]string // curriculum id -> direct variant ids, dataset order
	owner     map[string]string   // node id -> id of the curriculum that authored it
	nodeCount map[string]int      // curriculum id -> nodes in its resolved tree
	published map[string]bool     // curriculum id -> has a published root node
}

// ValidationError lists every problem found in a dataset.
type ValidationError struct {
	Problems []string
}

// Error reports the first problems, one per line.
func (e *ValidationError) Error() string {
	const show = 20
	p := e.Problems
	more := ""
	if len(p) > show {
		more = fmt.Sprintf("\n  ... and %d more", len(p)-show)
		p = p[:show]
	}
	return fmt.Sprintf("invalid dataset (%d problems):\n  %s%s", len(e.Problems), strings.Join(p, "\n  "), more)
}

var localeCode = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)

// ValidLocaleCode reports whether code is a well-formed BCP 47 style language
// tag such as "en", "pt-BR" or "zh-Hant".
func ValidLocaleCode(code string) bool { return localeCode.MatchString(code) }

// NewIndex validates ds and indexes it. The returned error is a
// *ValidationError listing every problem found.
func NewIndex(ds *Dataset) (*Index, error) {
	ix := &Index{
		ds:        ds,
		orgs:      map[string]*Organization{},
		users:     map[string]*User{},
		tokens:    map[string]*Token{},
		types:     map[string]*NodeType{},
		curricula: map[string]*Curriculum{},
		variants:  map[string][]string{},
		owner:     map[string]string{},
		nodeCount: map[string]int{},
		published: map[string]bool{},
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	for i := range ds.Organizations {
		o := &ds.Organizations[i]
		if o.ID == "" {
			bad("organization %d: empty id", i)
		} else if ix.orgs[o.ID] != nil {
			bad("organization %q: duplicate id", o.ID)
		}
		ix.orgs[o.ID] = o
	}
	for i := range ds.Users {
		u := &ds.Users[i]
		switch {
		case u.ID == "":
			bad("user %d: empty id", i)
		case ix.users[u.ID] != nil:
			bad("user %q: duplicate id", u.ID)
		case ix.orgs[u.Organization] == nil:
			bad("user %q: unknown organization %q", u.ID, u.Organization)
		}
		ix.users[u.ID] = u
	}
	for i := range ds.Tokens {
		t := &ds.Tokens[i]
		switch {
		case t.Token == "" || strings.ContainsAny(t.Token, " \t\r\n"):
			bad("token %d: empty or contains white space", i)
		case ix.tokens[t.Token] != nil:
			bad("token %d: duplicate", i) // never print a token
		case ix.users[t.User] == nil:
			bad("token %d: unknown user %q", i, t.User)
		}
		ix.tokens[t.Token] = t
	}
	for i := range ds.NodeTypes {
		nt := &ds.NodeTypes[i]
		if nt.Name == "" {
			bad("node type %d: empty name", i)
		} else if ix.types[nt.Name] != nil {
			bad("node type %q: duplicate name", nt.Name)
		}
		ix.types[nt.Name] = nt
	}
	for i := range ds.Curricula {
		c := &ds.Curricula[i]
		if c.ID == "" {
			bad("curriculum %d: empty id", i)
			continue
		}
		if ix.curricula[c.ID] != nil {
			bad("curriculum %q: duplicate id", c.ID)
			continue
		}
		ix.curricula[c.ID] = c
	}
	for i := range ds.Curricula {
		c := &ds.Curricula[i]
		if c.Name == "" {
			bad("curriculum %q: empty name", c.ID)
		}
		if c.Shape != "" && c.Shape != ShapeFull && c.Shape != ShapeAlternate {
			bad("curriculum %q: shape %q is neither %q nor %q", c.ID, c.Shape, ShapeFull, ShapeAlternate)
		}
		if c.UpdatedAt.Before(c.CreatedAt) {
			bad("curriculum %q: updated_at before created_at", c.ID)
		}
		for _, l := range c.Locales {
			if !ValidLocaleCode(l.Code) {
				bad("curriculum %q: locale code %q is not a language tag", c.ID, l.Code)
			}
		}
		if c.Parent == "" {
			if ix.orgs[c.Organization] == nil {
				bad("curriculum %q: unknown organization %q", c.ID, c.Organization)
			}
			if c.PrimaryLocale == "" || !slices.ContainsFunc(c.Locales, func(l Locale) bool { return l.Code == c.PrimaryLocale }) {
				bad("curriculum %q: primary_locale %q must be one of its locales", c.ID, c.PrimaryLocale)
			}
			if len(c.Overrides)+len(c.Additions) > 0 {
				bad("curriculum %q: a base curriculum has nodes, not overrides or additions", c.ID)
			}
			continue
		}
		if ix.curricula[c.Parent] == nil {
			bad("curriculum %q: unknown parent %q", c.ID, c.Parent)
			continue
		}
		ix.variants[c.Parent] = append(ix.variants[c.Parent], c.ID)
		if len(c.Nodes) > 0 {
			bad("curriculum %q: a variant adds nodes with additions, not nodes", c.ID)
		}
	}
	if len(problems) > 0 {
		return nil, &ValidationError{Problems: problems}
	}
	// Chains must end at a base curriculum: no cycles.
	for _, c := range ds.Curricula {
		if _, err := ix.chain(c.ID); err != nil {
			bad("%v", err)
		}
	}
	if len(problems) > 0 {
		return nil, &ValidationError{Problems: problems}
	}
	// Node ids are unique across the dataset; node types exist.
	for i := range ds.Curricula {
		c := &ds.Curricula[i]
		var visit func(n *Node)
		visit = func(n *Node) {
			switch {
			case n.ID == "":
				bad("curriculum %q: node with empty id (title %q)", c.ID, n.Title)
			case ix.owner[n.ID] != "":
				bad("node %q: duplicate id (curricula %q and %q)", n.ID, ix.owner[n.ID], c.ID)
			default:
				ix.owner[n.ID] = c.ID
			}
			if ix.types[n.NodeType] == nil {
				bad("node %q: unknown node_type %q", n.ID, n.NodeType)
			}
			for j := range n.Children {
				visit(&n.Children[j])
			}
		}
		for j := range c.Nodes {
			visit(&c.Nodes[j])
		}
		for j := range c.Additions {
			visit(&c.Additions[j].Node)
		}
		for _, o := range c.Overrides {
			if o.NodeType != "" && ix.types[o.NodeType] == nil {
				bad("curriculum %q: override of %q: unknown node_type %q", c.ID, o.Node, o.NodeType)
			}
		}
	}
	// Variant names are unique in a family, since requests name variants.
	for _, c := range ds.Curricula {
		if c.Parent != "" {
			continue
		}
		seen := map[string]string{}
		for _, id := range ix.Descendants(c.ID) {
			v := ix.curricula[id]
			if prev, dup := seen[v.Name]; dup {
				bad("curricula %q and %q: variants of %q share the name %q", prev, id, c.ID, v.Name)
			}
			seen[v.Name] = id
		}
	}
	if len(problems) > 0 {
		return nil, &ValidationError{Problems: problems}
	}
	// Every curriculum resolves: overrides and additions name nodes that
	// exist, translations name nodes and enabled locales.
	for _, c := range ds.Curricula {
		t, err := ix.Resolve(c.ID, "")
		if err != nil {
			bad("%v", err)
			continue
		}
		ix.nodeCount[c.ID] = t.NodeCount
		for _, n := range t.Roots {
			ix.published[c.ID] = ix.published[c.ID] || n.WorkflowStatus == StatusPublished
		}
		primary := ix.PrimaryLocale(c.ID)
		for _, loc := range slices.Sorted(maps.Keys(c.Translations)) {
			if loc == primary {
				bad("curriculum %q: translations into the primary locale %q", c.ID, loc)
			} else if !ix.HasLocale(c.ID, loc) {
				bad("curriculum %q: translations into %q, which is not an enabled locale", c.ID, loc)
			}
			for _, nid := range slices.Sorted(maps.Keys(c.Translations[loc])) {
				if t.Node(nid) == nil {
					bad("curriculum %q: translation into %q of node %q, which is not in its tree", c.ID, loc, nid)
				}
			}
		}
	}
	if len(problems) > 0 {
		return nil, &ValidationError{Problems: problems}
	}
	return ix, nil
}

// Dataset returns the dataset the index was built from. Callers must not
// change it.
func (ix *Index) Dataset() *Dataset { return ix.ds }

// Token returns the token record for a bearer token, or nil.
func (ix *Index) Token(token string) *Token { return ix.tokens[token] }

// User returns a user by id, or nil.
func (ix *Index) User(id string) *User { return ix.users[id] }

// Organization returns an organization by id, or nil.
func (ix *Index) Organization(id string) *Organization { return ix.orgs[id] }

// Curriculum returns a curriculum (base or variant) by id, or nil.
func (ix *Index) Curriculum(id string) *Curriculum { return ix.curricula[id] }

// NodeType returns a node type by name, or nil.
func (ix *Index) NodeType(name string) *NodeType { return ix.types[name] }

// NodeOwner returns the id of the curriculum that authored node id, or "".
func (ix *Index) NodeOwner(id string) string { return ix.owner[id] }

// NodeCount returns the number of nodes in the resolved tree of curriculum id.
func (ix *Index) NodeCount(id string) int { return ix.nodeCount[id] }

// Published reports whether curriculum id has published content: a
// published root node after inheritance.
func (ix *Index) Published(id string) bool { return ix.published[id] }

// Base returns the base curriculum of id (id itself for a base curriculum).
func (ix *Index) Base(id string) *Curriculum {
	chain, err := ix.chain(id)
	if err != nil {
		return nil
	}
	return chain[0]
}

// OrganizationOf returns the organization id that owns curriculum id.
func (ix *Index) OrganizationOf(id string) string {
	if b := ix.Base(id); b != nil {
		return b.Organization
	}
	return ""
}

// Chain returns the curricula from the base to id, inclusive.
func (ix *Index) Chain(id string) []*Curriculum {
	chain, _ := ix.chain(id)
	return chain
}

var errCycle = errors.New("cycle in parent chain")

func (ix *Index) chain(id string) ([]*Curriculum, error) {
	var chain []*Curriculum
	for cur := id; cur != ""; {
		c := ix.curricula[cur]
		if c == nil {
			return nil, fmt.Errorf("curriculum %q: unknown parent %q", id, cur)
		}
		if len(chain) > len(ix.curricula) {
			return nil, fmt.Errorf("curriculum %q: %w", id, errCycle)
		}
		chain = append(chain, c)
		cur = c.Parent
	}
	slices.Reverse(chain)
	return chain, nil
}

// Children returns the ids of the direct variants of curriculum id.
func (ix *Index) Children(id string) []string { return ix.variants[id] }

// Descendants returns the ids of every variant below id, direct and nested,
// parents before their variants, in dataset order among siblings.
func (ix *Index) Descendants(id string) []string {
	var out []string
	var walk func(string)
	walk = func(p string) {
		for _, v := range ix.variants[p] {
			out = append(out, v)
			walk(v)
		}
	}
	walk(id)
	return out
}

// PrimaryLocale returns the primary locale of curriculum id's base.
func (ix *Index) PrimaryLocale(id string) string {
	if b := ix.Base(id); b != nil {
		return b.PrimaryLocale
	}
	return ""
}

// Locales returns the enabled locales of curriculum id: its own list, or the
// nearest ancestor's.
func (ix *Index) Locales(id string) []Locale {
	chain := ix.Chain(id)
	for i := len(chain) - 1; i >= 0; i-- {
		if len(chain[i].Locales) > 0 {
			return chain[i].Locales
		}
	}
	return nil
}

// HasLocale reports whether code is an enabled locale of curriculum id.
func (ix *Index) HasLocale(id, code string) bool {
	return slices.ContainsFunc(ix.Locales(id), func(l Locale) bool { return l.Code == code })
}

// VariantByName finds the variant called name among the descendants of
// curriculum id, or returns nil.
func (ix *Index) VariantByName(id, name string) *Curriculum {
	for _, v := range ix.Descendants(id) {
		if c := ix.curricula[v]; c.Name == name {
			return c
		}
	}
	return nil
}
