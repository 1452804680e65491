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
//
// Validation runs in stages, and a stage runs only when the ones before it
// found nothing, since each relies on what the earlier ones established:
// ids and references first, then the curriculum chains (no cycles), then
// the nodes and variant names, then that every curriculum resolves.
func NewIndex(ds *Dataset) (*Index, error) {
	v := &validator{ix: &Index{
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
	}}
	stages := [][]func(){
		{v.indexAccounts, v.indexNodeTypes, v.indexCurricula, v.checkCurricula},
		{v.checkChains},
		{v.indexNodes, v.checkVariantNames},
		{v.checkResolves},
	}
	for _, stage := range stages {
		for _, step := range stage {
			step()
		}
		if len(v.problems) > 0 {
			return nil, &ValidationError{Problems: v.problems}
		}
	}
	return v.ix, nil
}

// validator fills an Index while validating its dataset, collecting every
// problem it finds.
type validator struct {
	ix       *Index
	problems []string
}

// bad records one problem.
func (v *validator) bad(format string, args ...any) {
	v.problems = append(v.problems, fmt.Sprintf(format, args...))
}

// indexAccounts indexes the organizations, users and tokens, checking ids
// and the references between them.
func (v *validator) indexAccounts() {
	ds, ix := v.ix.ds, v.ix
	for i := range ds.Organizations {
		o := &ds.Organizations[i]
		if o.ID == "" {
			v.bad("organization %d: empty id", i)
		} else if ix.orgs[o.ID] != nil {
			v.bad("organization %q: duplicate id", o.ID)
		}
		ix.orgs[o.ID] = o
	}
	for i := range ds.Users {
		u := &ds.Users[i]
		switch {
		case u.ID == "":
			v.bad("user %d: empty id", i)
		case ix.users[u.ID] != nil:
			v.bad("user %q: duplicate id", u.ID)
		case ix.orgs[u.Organization] == nil:
			v.bad("user %q: unknown organization %q", u.ID, u.Organization)
		}
		ix.users[u.ID] = u
	}
	for i := range ds.Tokens {
		t := &ds.Tokens[i]
		switch {
		case t.Token == "" || strings.ContainsAny(t.Token, " \t\r\n"):
			v.bad("token %d: empty or contains white space", i)
		case ix.tokens[t.Token] != nil:
			v.bad("token %d: duplicate", i) // never print a token
		case ix.users[t.User] == nil:
			v.bad("token %d: unknown user %q", i, t.User)
		}
		ix.tokens[t.Token] = t
	}
}

// indexNodeTypes indexes the node types by name.
func (v *validator) indexNodeTypes() {
	ds, ix := v.ix.ds, v.ix
	for i := range ds.NodeTypes {
		nt := &ds.NodeTypes[i]
		if nt.Name == "" {
			v.bad("node type %d: empty name", i)
		} else if ix.types[nt.Name] != nil {
			v.bad("node type %q: duplicate name", nt.Name)
		}
		ix.types[nt.Name] = nt
	}
}

// indexCurricula indexes the curricula by id.
func (v *validator) indexCurricula() {
	ds, ix := v.ix.ds, v.ix
	for i := range ds.Curricula {
		c := &ds.Curricula[i]
		if c.ID == "" {
			v.bad("curriculum %d: empty id", i)
			continue
		}
		if ix.curricula[c.ID] != nil {
			v.bad("curriculum %q: duplicate id", c.ID)
			continue
		}
		ix.curricula[c.ID] = c
	}
}

// checkCurricula checks each curriculum's own fields and, for a base, its
// organization and primary locale, for a variant, its parent (indexing the
// variants of each curriculum).
func (v *validator) checkCurricula() {
	ds, ix := v.ix.ds, v.ix
	for i := range ds.Curricula {
		c := &ds.Curricula[i]
		if c.Name == "" {
			v.bad("curriculum %q: empty name", c.ID)
		}
		if c.Shape != "" && c.Shape != ShapeFull && c.Shape != ShapeAlternate {
			v.bad("curriculum %q: shape %q is neither %q nor %q", c.ID, c.Shape, ShapeFull, ShapeAlternate)
		}
		if c.UpdatedAt.Before(c.CreatedAt) {
			v.bad("curriculum %q: updated_at before created_at", c.ID)
		}
		for _, l := range c.Locales {
			if !ValidLocaleCode(l.Code) {
				v.bad("curriculum %q: locale code %q is not a language tag", c.ID, l.Code)
			}
		}
		if c.Parent == "" {
			v.checkBase(c)
			continue
		}
		if ix.curricula[c.Parent] == nil {
			v.bad("curriculum %q: unknown parent %q", c.ID, c.Parent)
			continue
		}
		ix.variants[c.Parent] = append(ix.variants[c.Parent], c.ID)
		if len(c.Nodes) > 0 {
			v.bad("curriculum %q: a variant adds nodes with additions, not nodes", c.ID)
		}
	}
}

// checkBase checks what only a base curriculum (one without a parent) has.
func (v *validator) checkBase(c *Curriculum) {
	if v.ix.orgs[c.Organization] == nil {
		v.bad("curriculum %q: unknown organization %q", c.ID, c.Organization)
	}
	if c.PrimaryLocale == "" || !slices.ContainsFunc(c.Locales, func(l Locale) bool { return l.Code == c.PrimaryLocale }) {
		v.bad("curriculum %q: primary_locale %q must be one of its locales", c.ID, c.PrimaryLocale)
	}
	if len(c.Overrides)+len(c.Additions) > 0 {
		v.bad("curriculum %q: a base curriculum has nodes, not overrides or additions", c.ID)
	}
}

// checkChains checks that every chain of parents ends at a base
// curriculum: no cycles.
func (v *validator) checkChains() {
	for _, c := range v.ix.ds.Curricula {
		if _, err := v.ix.chain(c.ID); err != nil {
			v.bad("%v", err)
		}
	}
}

// indexNodes records the curriculum that authored each node, checking that
// node ids are unique across the dataset and that node types exist.
func (v *validator) indexNodes() {
	ds, ix := v.ix.ds, v.ix
	for i := range ds.Curricula {
		c := &ds.Curricula[i]
		for j := range c.Nodes {
			v.indexNode(c, &c.Nodes[j])
		}
		for j := range c.Additions {
			v.indexNode(c, &c.Additions[j].Node)
		}
		for _, o := range c.Overrides {
			if o.NodeType != "" && ix.types[o.NodeType] == nil {
				v.bad("curriculum %q: override of %q: unknown node_type %q", c.ID, o.Node, o.NodeType)
			}
		}
	}
}

// indexNode indexes n, authored by c, and its descendants.
func (v *validator) indexNode(c *Curriculum, n *Node) {
	ix := v.ix
	switch {
	case n.ID == "":
		v.bad("curriculum %q: node with empty id (title %q)", c.ID, n.Title)
	case ix.owner[n.ID] != "":
		v.bad("node %q: duplicate id (curricula %q and %q)", n.ID, ix.owner[n.ID], c.ID)
	default:
		ix.owner[n.ID] = c.ID
	}
	if ix.types[n.NodeType] == nil {
		v.bad("node %q: unknown node_type %q", n.ID, n.NodeType)
	}
	for j := range n.Children {
		v.indexNode(c, &n.Children[j])
	}
}

// checkVariantNames checks that variant names are unique in a family,
// since requests name variants.
func (v *validator) checkVariantNames() {
	ix := v.ix
	for _, c := range ix.ds.Curricula {
		if c.Parent != "" {
			continue
		}
		seen := map[string]string{}
		for _, id := range ix.Descendants(c.ID) {
			cur := ix.curricula[id]
			if prev, dup := seen[cur.Name]; dup {
				v.bad("curricula %q and %q: variants of %q share the name %q", prev, id, c.ID, cur.Name)
			}
			seen[cur.Name] = id
		}
	}
}

// checkResolves checks that every curriculum resolves (overrides and
// additions name nodes that exist, translations name nodes and enabled
// locales) and records each one's node count and whether it is published.
func (v *validator) checkResolves() {
	ix := v.ix
	for _, c := range ix.ds.Curricula {
		t, err := ix.Resolve(c.ID, "")
		if err != nil {
			v.bad("%v", err)
			continue
		}
		ix.nodeCount[c.ID] = t.NodeCount
		for _, n := range t.Roots {
			ix.published[c.ID] = ix.published[c.ID] || n.WorkflowStatus == StatusPublished
		}
		primary := ix.PrimaryLocale(c.ID)
		for _, loc := range slices.Sorted(maps.Keys(c.Translations)) {
			if loc == primary {
				v.bad("curriculum %q: translations into the primary locale %q", c.ID, loc)
			} else if !ix.HasLocale(c.ID, loc) {
				v.bad("curriculum %q: translations into %q, which is not an enabled locale", c.ID, loc)
			}
			for _, nid := range slices.Sorted(maps.Keys(c.Translations[loc])) {
				if t.Node(nid) == nil {
					v.bad("curriculum %q: translation into %q of node %q, which is not in its tree", c.ID, loc, nid)
				}
			}
		}
	}
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
