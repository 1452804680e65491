package sandbox

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/curex/curex/exporter/sandbox/dataset"
)

// route dispatches on the path segments after /api/v1/.
func route(r *http.Request, ix *dataset.Index, c *caller, segs []string) (any, error) {
	q := r.URL.Query()
	switch {
	case len(segs) == 1 && segs[0] == "me":
		return me(ix, c), nil
	case len(segs) == 1 && segs[0] == "curricula":
		return listCurricula(ix, c, q)
	case len(segs) >= 2 && segs[0] == "curricula":
		cur, err := curriculumFor(ix, c, segs[1])
		if err != nil {
			return nil, err
		}
		switch {
		case len(segs) == 2:
			return showCurriculum(ix, cur)
		case len(segs) == 3 && segs[2] == "variants":
			return listVariants(ix, cur), nil
		case len(segs) == 3 && segs[2] == "locales":
			return listLocales(ix, cur)
		case len(segs) == 3 && segs[2] == "resolved":
			return resolveCurriculum(ix, cur, q)
		}
	case len(segs) >= 2 && segs[0] == "content_nodes":
		owner, err := nodeOwner(ix, c, segs[1])
		if err != nil {
			return nil, err
		}
		switch {
		case len(segs) == 2:
			return showNode(ix, owner, segs[1])
		case len(segs) == 3 && segs[2] == "resolved":
			return resolveNode(ix, owner, segs[1], q)
		}
	}
	return nil, notFound("no such endpoint: %s", r.URL.Path)
}

// curriculumFor finds a curriculum the caller may read: 404 when it does not
// exist, 403 when it belongs to another organization.
func curriculumFor(ix *dataset.Index, c *caller, id string) (*dataset.Curriculum, error) {
	cur := ix.Curriculum(id)
	if cur == nil {
		return nil, notFound("curriculum %q not found", id)
	}
	if ix.OrganizationOf(id) != c.user.Organization {
		return nil, newError(http.StatusForbidden, CodeForbidden, "token has no access to curriculum %q", id)
	}
	return cur, nil
}

func nodeOwner(ix *dataset.Index, c *caller, id string) (*dataset.Curriculum, error) {
	owner := ix.NodeOwner(id)
	if owner == "" {
		return nil, notFound("content node %q not found", id)
	}
	if ix.OrganizationOf(owner) != c.user.Organization {
		return nil, newError(http.StatusForbidden, CodeForbidden, "token has no access to content node %q", id)
	}
	return ix.Curriculum(owner), nil
}

// single reads a query parameter given at most once.
func single(q url.Values, name string) (string, bool, error) {
	v, ok := q[name]
	switch {
	case !ok:
		return "", false, nil
	case len(v) > 1:
		return "", false, badParam(name, "given %d times; give it once", len(v))
	}
	return v[0], true, nil
}

func intParam(q url.Values, name string, def, lo int) (int, error) {
	s, ok, err := single(q, name)
	if err != nil || !ok {
		return def, err
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo {
		return 0, badParam(name, "%q is not a whole number of at least %d", s, lo)
	}
	return n, nil
}

func boolParam(q url.Values, name string) (bool, error) {
	s, ok, err := single(q, name)
	if err != nil || !ok {
		return false, err
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, badParam(name, "%q is not true or false", s)
	}
	return b, nil
}

type envelope struct {
	Status string `json:"status,omitempty"`
	Data   any    `json:"data"`
	Meta   any    `json:"meta,omitempty"`
}

func me(ix *dataset.Index, c *caller) any {
	org := ix.Organization(c.user.Organization)
	return envelope{
		Status: "ok",
		Data:   resource{ID: c.user.ID, Type: "user", Attributes: userAttrs{Email: c.user.Email, Name: c.user.Name}},
		Meta:   map[string]any{"organization": map[string]string{"id": org.ID, "name": org.Name}},
	}
}

type listMeta struct {
	TotalCount int `json:"total_count"`
	Page       int `json:"page"`
	PerPage    int `json:"per_page"`
}

func listCurricula(ix *dataset.Index, c *caller, q url.Values) (any, error) {
	page, err := intParam(q, "page", 1, 1)
	if err != nil {
		return nil, err
	}
	perPage, err := intParam(q, "per_page", DefaultPerPage, 1)
	if err != nil {
		return nil, err
	}
	perPage = min(perPage, MaxPerPage)
	rootOnly, err := boolParam(q, "root_only")
	if err != nil {
		return nil, err
	}
	status, _, err := single(q, "status")
	if err != nil {
		return nil, err
	}
	if status != "" && status != dataset.StatusPublished && status != dataset.StatusDraft {
		return nil, badParam("status", "%q is not one of published, draft", status)
	}
	var all []resource
	for i := range ix.Dataset().Curricula {
		cur := &ix.Dataset().Curricula[i]
		if ix.OrganizationOf(cur.ID) != c.user.Organization || (rootOnly && cur.Parent != "") {
			continue
		}
		published := ix.Published(cur.ID)
		if (status == dataset.StatusPublished && !published) || (status == dataset.StatusDraft && published) {
			continue
		}
		all = append(all, curriculumRecord(ix, cur, published))
	}
	// (page-1)*perPage can overflow for a huge page: compare before
	// multiplying.
	from := len(all)
	if page-1 <= len(all)/perPage {
		from = min((page-1)*perPage, len(all))
	}
	to := min(from+perPage, len(all))
	data := all[from:to]
	if data == nil {
		data = []resource{}
	}
	return envelope{Data: data, Meta: listMeta{TotalCount: len(all), Page: page, PerPage: perPage}}, nil
}

func showCurriculum(ix *dataset.Index, cur *dataset.Curriculum) (any, error) {
	t, err := ix.Resolve(cur.ID, "")
	if err != nil {
		return nil, err
	}
	rec := curriculumRecord(ix, cur, ix.Published(cur.ID))
	roots := make([]resource, 0, len(t.Roots))
	for _, n := range t.Roots {
		roots = append(roots, nodeRecord(n))
	}
	env := envelope{Meta: map[string]int{"root_count": len(t.Roots), "total_node_count": t.NodeCount}}
	if shapeOf(cur) == dataset.ShapeAlternate {
		env.Status = "ok"
		rec.Relationships = map[string]relation{"root_nodes": {Data: roots}}
	} else {
		rec.Relationships = map[string]relation{"content_nodes": {Data: roots}}
	}
	env.Data = rec
	return env, nil
}

func listVariants(ix *dataset.Index, cur *dataset.Curriculum) any {
	data := []resource{}
	base := len(ix.Chain(cur.ID))
	for _, id := range ix.Descendants(cur.ID) {
		v := ix.Curriculum(id)
		data = append(data, resource{ID: v.ID, Type: "curriculum_variant", Attributes: variantAttrs{
			Name:          v.Name,
			Description:   v.Description,
			ParentID:      v.Parent,
			Depth:         len(ix.Chain(id)) - base,
			NodeCount:     ix.NodeCount(id),
			OverrideCount: len(v.Overrides),
			AddedCount:    countAdded(v.Additions),
		}})
	}
	return envelope{Data: data, Meta: map[string]any{
		"total_count": len(data), "curriculum_id": cur.ID, "curriculum_name": cur.Name,
	}}
}

// countAdded counts the nodes a variant adds, subtrees included.
func countAdded(as []dataset.Addition) int {
	var count func(n *dataset.Node) int
	count = func(n *dataset.Node) int {
		k := 1
		for i := range n.Children {
			k += count(&n.Children[i])
		}
		return k
	}
	total := 0
	for i := range as {
		total += count(&as[i].Node)
	}
	return total
}

func listLocales(ix *dataset.Index, cur *dataset.Curriculum) (any, error) {
	ps, err := ix.Progress(cur.ID)
	if err != nil {
		return nil, err
	}
	data := make([]resource, 0, len(ps))
	for _, p := range ps {
		data = append(data, resource{ID: cur.ID + ":" + p.Locale.Code, Type: "locale", Attributes: localeAttrs{
			Code: p.Locale.Code, Name: p.Locale.Name, IsPrimary: p.IsPrimary,
			TranslationProgress: p.Translated, PublishedProgress: p.Published,
		}})
	}
	return envelope{Data: data, Meta: map[string]any{
		"primary_locale": ix.PrimaryLocale(cur.ID), "total_locales": len(data),
		"curriculum_id": cur.ID, "curriculum_name": cur.Name,
	}}, nil
}

// target picks the curriculum a resolved request names: the variant called
// variant among the descendants of cur (or cur itself by name), or cur.
// It also checks the locale.
func target(ix *dataset.Index, cur *dataset.Curriculum, q url.Values) (*dataset.Curriculum, string, string, error) {
	variant, _, err := single(q, "variant")
	if err != nil {
		return nil, "", "", err
	}
	locale, hasLocale, err := single(q, "locale")
	if err != nil {
		return nil, "", "", err
	}
	t := cur
	if variant != "" {
		t = ix.VariantByName(cur.ID, variant)
		if t == nil && cur.Name == variant {
			t = cur
		}
		if t == nil {
			names := []string{}
			for _, id := range ix.Descendants(cur.ID) {
				names = append(names, ix.Curriculum(id).Name)
			}
			return nil, "", "", notFound("variant %q not found in curriculum %q", variant, cur.ID).
				with("parameter", "variant").with("available", names)
		}
	}
	if hasLocale {
		if !dataset.ValidLocaleCode(locale) {
			return nil, "", "", badParam("locale", "%q is not a locale code such as en or pt-BR", locale)
		}
		// Language tags compare case-insensitively (RFC 5646); answer
		// with the code as the curriculum spells it.
		codes, found := []string{}, ""
		for _, l := range ix.Locales(t.ID) {
			codes = append(codes, l.Code)
			if strings.EqualFold(l.Code, locale) {
				found = l.Code
			}
		}
		locale = found
		if found == "" {
			return nil, "", "", notFound("locale %q is not enabled for curriculum %q", q.Get("locale"), t.ID).
				with("parameter", "locale").with("available", codes)
		}
	}
	return t, variant, locale, nil
}

type resolvedMeta struct {
	VariantChain []string `json:"variant_chain"`
	Locale       string   `json:"locale"`
	NodeCount    int      `json:"node_count"`
	MaxDepth     int      `json:"max_depth"`
}

func metaOf(t *dataset.Tree) resolvedMeta {
	chain := make([]string, len(t.Chain))
	for i, c := range t.Chain {
		chain[i] = c.Name
	}
	return resolvedMeta{VariantChain: chain, Locale: t.Locale, NodeCount: t.NodeCount, MaxDepth: t.MaxDepth}
}

func resolveCurriculum(ix *dataset.Index, cur *dataset.Curriculum, q url.Values) (any, error) {
	tc, variant, locale, err := target(ix, cur, q)
	if err != nil {
		return nil, err
	}
	t, err := ix.Resolve(tc.ID, locale)
	if err != nil {
		return nil, err
	}
	nodes := make([]resolvedNode, 0, len(t.Roots))
	for _, n := range t.Roots {
		nodes = append(nodes, resolvedRecord(n))
	}
	return envelope{
		Data: resource{
			ID:   tc.ID,
			Type: "resolved_curriculum",
			Attributes: resolvedCurriculumAttrs{
				Name: tc.Name, Variant: variant, Locale: t.Locale, ResolvedAt: timestamp(t.UpdatedAt),
			},
			Relationships: map[string]relation{"content_nodes": {Data: nodes}},
		},
		Meta: metaOf(t),
	}, nil
}

func showNode(ix *dataset.Index, owner *dataset.Curriculum, id string) (any, error) {
	t, err := ix.Resolve(owner.ID, "")
	if err != nil {
		return nil, err
	}
	n := t.Node(id)
	rec := nodeRecord(n)
	var parent any
	if n.Parent != nil {
		parent = ref{ID: n.Parent.ID, Type: "content_node"}
	}
	children := make([]resource, 0, len(n.Children))
	for _, ch := range n.Children {
		children = append(children, childRecord(ch))
	}
	rec.Relationships = map[string]relation{
		"curriculum": {Data: ref{ID: owner.ID, Type: "curriculum"}},
		"parent":     {Data: parent},
		"children":   {Data: children},
	}
	return envelope{Status: "ok", Data: rec, Meta: map[string]int{
		"children_count": len(n.Children), "ancestry_depth": n.Depth,
	}}, nil
}

func resolveNode(ix *dataset.Index, owner *dataset.Curriculum, id string, q url.Values) (any, error) {
	family := owner
	if q.Get("variant") != "" {
		family = ix.Base(owner.ID)
	}
	tc, _, locale, err := target(ix, family, q)
	if err != nil {
		return nil, err
	}
	t, err := ix.Resolve(tc.ID, locale)
	if err != nil {
		return nil, err
	}
	n := t.Node(id)
	if n == nil {
		return nil, notFound("content node %q is not part of curriculum %q", id, tc.ID)
	}
	rec := resolvedRecord(n)
	var parent any
	if n.Parent != nil {
		parent = ref{ID: n.Parent.ID, Type: "resolved_content_node"}
	}
	rec.Relations = map[string]relation{
		"curriculum": {Data: ref{ID: tc.ID, Type: "curriculum"}},
		"parent":     {Data: parent},
	}
	sub := &dataset.Tree{Chain: t.Chain, Locale: t.Locale, Roots: []*dataset.ResolvedNode{n}}
	m := metaOf(sub)
	m.NodeCount, m.MaxDepth = 0, 0
	sub.Walk(func(x *dataset.ResolvedNode) {
		m.NodeCount++
		m.MaxDepth = max(m.MaxDepth, x.Depth)
	})
	return envelope{Data: rec, Meta: m}, nil
}
