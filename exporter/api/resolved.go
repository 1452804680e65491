package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"time"

	"golang.org/x/sync/errgroup"
)

// ResolveOptions selects what Resolved and ResolvedNode resolve. Empty
// fields are left out of the query.
type ResolveOptions struct {
	// Variant is the name of a variant (not its id); empty resolves the
	// curriculum asked about.
	Variant string
	// Locale is a locale code such as "es"; empty gives the primary
	// (base-language) content.
	Locale string
}

func (o ResolveOptions) query() url.Values {
	q := url.Values{}
	if o.Variant != "" {
		q.Set("variant", o.Variant)
	}
	if o.Locale != "" {
		q.Set("locale", o.Locale)
	}
	return q
}

// Inheritance tells where a resolved node's content comes from.
type Inheritance struct {
	// IsInherited reports content written in another curriculum of the
	// chain than the one resolved.
	IsInherited bool
	// SourceCurriculum names the curriculum the content comes from.
	SourceCurriculum string
	// OverrideLevel counts the overrides applied; 0 means as first
	// written.
	OverrideLevel int
}

// Translation tells which language a resolved node's text is in.
type Translation struct {
	// IsTranslated reports text in the requested locale.
	IsTranslated bool
	// Status is translation_status: "translated" or any other value
	// ("fallback", "original", ...), kept as it is.
	Status string
	// SourceLocale is the locale of the text shown.
	SourceLocale string
}

// ResolvedNode is a content node with inheritance and translation applied,
// and its whole subtree.
type ResolvedNode struct {
	// ID and Title identify and name the node.
	ID, Title string
	// NodeType is the node's kind, its display name localized.
	NodeType NodeType
	// OrdinalLabel, TypeDisplay and WorkflowStatus are as in Node; an
	// unknown workflow status is kept as it is.
	OrdinalLabel, TypeDisplay, WorkflowStatus string
	// Position is the place among siblings; Depth is 0 for a root node
	// (counted from the nesting when the record leaves it out).
	Position, Depth int
	// Attributes holds the free-form content fields exactly as served.
	Attributes map[string]json.RawMessage
	// Inheritance describes where the content comes from.
	Inheritance Inheritance
	// Translation describes the language of the text.
	Translation Translation
	// Children are the child nodes, in order; nil for a leaf.
	Children []ResolvedNode
}

// ResolvedCurriculum is a curriculum resolved for a variant and a locale,
// with its complete tree (spec section 2.5).
type ResolvedCurriculum struct {
	// ID is the id of the curriculum resolved (the variant's when one was
	// asked for); Name its name.
	ID, Name string
	// Variant is the variant name asked for (empty for none); Locale the
	// locale of the content.
	Variant, Locale string
	// ResolvedAt is attributes.resolved_at; zero when absent.
	ResolvedAt time.Time
	// Nodes are the root nodes, each with its subtree.
	Nodes []ResolvedNode
	// VariantChain lists curriculum names from the base to the one
	// resolved.
	VariantChain []string
	// MetaLocale is meta.locale.
	MetaLocale string
	// NodeCount and MaxDepth are meta.node_count and meta.max_depth, or
	// counted from Nodes when absent.
	NodeCount, MaxDepth int
}

// Resolved returns a curriculum with inheritance and translation applied
// and its complete tree (GET /api/v1/curricula/:id/resolved).
func (c *Client) Resolved(ctx context.Context, id string, o ResolveOptions) (*ResolvedCurriculum, *Response, error) {
	seg, err := escapeID("curriculum", id)
	if err != nil {
		return nil, nil, err
	}
	r := new(ResolvedCurriculum)
	resp, err := c.get(ctx, "curricula/"+seg+"/resolved", o.query(), r)
	if err != nil {
		return nil, resp, err
	}
	return r, resp, nil
}

// ErrNotCached is returned, wrapped, by the Cached methods when the
// Client's Cache holds no answer for the request.
var ErrNotCached = errors.New("not in the cache")

// CachedResolved returns what Resolved returned last time, from the
// Client's Cache, without a request: the body stored with its ETag
// (Response.NotModified is true, as for a 304). It returns an error
// wrapping ErrNotCached when the Cache holds no such answer, and a
// *DecodeError when the stored body no longer decodes. With a
// DecodedMemo (WithDecodedMemo), an answer decoded before is returned
// again, its nodes shared: the caller must not modify them.
func (c *Client) CachedResolved(id string, o ResolveOptions) (*ResolvedCurriculum, *Response, error) {
	path, etag, body, err := c.cachedResolved(id, o)
	if err != nil {
		return nil, nil, err
	}
	r := new(ResolvedCurriculum)
	if err := c.decodeCached(http.MethodGet, path, etag, body, r); err != nil {
		return nil, nil, err
	}
	return r, &Response{StatusCode: http.StatusNotModified, ETag: etag, NotModified: true, Body: body}, nil
}

// CachedResolvedBody returns the raw body and ETag of the answer to
// Resolved that the Client's Cache holds, without a request or decoding;
// an error wraps ErrNotCached when it holds none.
func (c *Client) CachedResolvedBody(id string, o ResolveOptions) (etag string, body []byte, err error) {
	_, etag, body, err = c.cachedResolved(id, o)
	return etag, body, err
}

// CachedResolvedETag returns the ETag of the answer to Resolved the
// Client's Cache holds, and whether it holds one, without decoding it.
func (c *Client) CachedResolvedETag(id string, o ResolveOptions) (string, bool) {
	_, etag, _, err := c.cachedResolved(id, o)
	return etag, err == nil
}

// Caches reports whether the Client has a Cache: every 2xx answer with an
// ETag it returns is then in it.
func (c *Client) Caches() bool { return c.cache != nil }

func (c *Client) cachedResolved(id string, o ResolveOptions) (path, etag string, body []byte, err error) {
	seg, err := escapeID("curriculum", id)
	if err != nil {
		return "", "", nil, err
	}
	req, err := c.NewRequest(context.Background(), "curricula/"+seg+"/resolved", o.query())
	if err != nil {
		return "", "", nil, err
	}
	path = requestPath(req)
	if c.cache == nil {
		return path, "", nil, fmt.Errorf("GET %s: %w (no cache)", path, ErrNotCached)
	}
	etag, body, ok := c.cache.Get(req.URL.RequestURI())
	if !ok || etag == "" {
		return path, "", nil, fmt.Errorf("GET %s: %w", path, ErrNotCached)
	}
	return path, etag, body, nil
}

// ResolvedNode returns one content node with inheritance and translation
// applied, and its subtree (GET /api/v1/content_nodes/:id/resolved).
func (c *Client) ResolvedNode(ctx context.Context, id string, o ResolveOptions) (*ResolvedNode, *Response, error) {
	seg, err := escapeID("content node", id)
	if err != nil {
		return nil, nil, err
	}
	n := new(ResolvedNode)
	resp, err := c.get(ctx, "content_nodes/"+seg+"/resolved", o.query(), n)
	if err != nil {
		return nil, resp, err
	}
	return n, resp, nil
}

// DecodeResolved decodes the body of a /resolved response, such as one kept
// in a Cache, so that a curriculum can be rebuilt without a request.
func DecodeResolved(body []byte) (*ResolvedCurriculum, error) {
	r := new(ResolvedCurriculum)
	if err := Decode(body, r); err != nil {
		return nil, err
	}
	return r, nil
}

type inheritanceWire struct {
	IsInherited      flexBool `json:"is_inherited"`
	SourceCurriculum string   `json:"source_curriculum"`
	OverrideLevel    flexInt  `json:"override_level"`
}

type translationWire struct {
	IsTranslated      flexBool `json:"is_translated"`
	TranslationStatus string   `json:"translation_status"`
	Status            string   `json:"status"`
	SourceLocale      string   `json:"source_locale"`
}

type resolvedAttrs struct {
	nodeAttrs
	Inheritance inheritanceWire    `json:"inheritance_metadata"`
	Translation translationWire    `json:"translation_metadata"`
	Children    []resolvedNodeWire `json:"children"`
}

// fieldsAtTop reports whether any field but the free-form content and the
// children is set (see nodeAttrs.fieldsAtTop).
func (a *resolvedAttrs) fieldsAtTop() bool {
	return a.nodeAttrs.fieldsAtTop() || a.Inheritance != (inheritanceWire{}) || a.Translation != (translationWire{})
}

// resolvedNodeWire is a resolved node record, in either form (see
// resource): the embedded fields are those at the top (the plain form),
// Attributes the attributes member. Its children sit beside the fields;
// inside attributes or under relationships they are found too. It has no
// UnmarshalJSON of its own: a method called at every level would scan
// each subtree again, and deep trees would cost time quadratic in their
// depth.
type resolvedNodeWire struct {
	ID flexString `json:"id"`
	resolvedAttrs
	Attributes    attrsMember         `json:"attributes"`
	Children      []resolvedNodeWire  `json:"children"`
	Relationships map[string]relation `json:"relationships"`
}

// attrsMember is the attributes member of a resolved node: its fields in
// the resource form, its free-form content in the plain form. Which one is
// decided once the whole record is read (resolvedNodeWire.fields), and the
// member is decoded then, once.
type attrsMember struct {
	// raw is the member as it is in the body being decoded, not a copy:
	// fields reads it before Decode returns, and nothing decoded refers
	// to it (encoding/json copies what it keeps).
	raw json.RawMessage
}

// UnmarshalJSON keeps an object (null: absent).
func (m *attrsMember) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		return nil
	case len(b) == 0 || b[0] != '{':
		return kindError[attrsMember](b)
	}
	m.raw = b
	return nil
}

// fields returns the node's fields, from whichever form it came in.
func (w *resolvedNodeWire) fields() (*resolvedAttrs, error) {
	switch {
	case w.Attributes.raw == nil: // the plain form, without content
		return &w.resolvedAttrs, nil
	case w.resolvedAttrs.fieldsAtTop(): // the plain form: attributes is the content
		a := &w.resolvedAttrs
		if err := within("attributes", json.Unmarshal(w.Attributes.raw, &a.Attributes)); err != nil {
			return nil, readable(err)
		}
		return a, nil
	}
	a := new(resolvedAttrs) // the resource form
	if err := within("attributes", json.Unmarshal(w.Attributes.raw, a)); err != nil {
		return nil, readable(err)
	}
	return a, nil
}

// resolvedNodeOf converts a resolved node and its subtree; depth is used
// when the record has none.
func resolvedNodeOf(w *resolvedNodeWire, depth int) (ResolvedNode, error) {
	a, err := w.fields()
	if err != nil {
		return ResolvedNode{}, fmt.Errorf("node %q: %w", string(w.ID), err)
	}
	n := ResolvedNode{
		ID:             string(w.ID),
		Title:          a.title(),
		NodeType:       a.NodeType.nodeType(),
		OrdinalLabel:   string(a.OrdinalLabel),
		TypeDisplay:    a.TypeDisplay,
		WorkflowStatus: a.WorkflowStatus,
		Position:       int(a.Position),
		Depth:          a.depthOr(depth),
		Attributes:     a.Attributes,
		Inheritance: Inheritance{
			IsInherited:      bool(a.Inheritance.IsInherited),
			SourceCurriculum: a.Inheritance.SourceCurriculum,
			OverrideLevel:    int(a.Inheritance.OverrideLevel),
		},
		Translation: Translation{
			IsTranslated: bool(a.Translation.IsTranslated),
			Status:       a.Translation.TranslationStatus,
			SourceLocale: a.Translation.SourceLocale,
		},
	}
	if n.Translation.Status == "" {
		n.Translation.Status = a.Translation.Status
	}
	children := w.Children
	if children == nil {
		children = a.Children
	}
	if children == nil {
		var err error
		if children, err = relationList[resolvedNodeWire](w.Relationships, "children"); err != nil {
			return ResolvedNode{}, err
		}
	}
	if n.Children, err = resolvedNodesOf(children, n.Depth+1); err != nil {
		return ResolvedNode{}, err
	}
	return n, nil
}

// parallelDepth is the depth above which resolvedNodesOf reads the
// nodes of a list side by side: the units of a large tree, each a
// subtree of hundreds of nodes whose fields are decoded one by one.
const parallelDepth = 2

// resolvedNodesOf reads the nodes ws at depth, in order: near the top
// of the tree side by side, on as many goroutines as there are
// processors. Its error is the first node's that fails, in order, as if
// they were read one by one.
func resolvedNodesOf(ws []resolvedNodeWire, depth int) ([]ResolvedNode, error) {
	if len(ws) == 0 {
		return nil, nil
	}
	out := make([]ResolvedNode, len(ws))
	if depth >= parallelDepth || len(ws) == 1 {
		for i := range ws {
			var err error
			if out[i], err = resolvedNodeOf(&ws[i], depth); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	errs := make([]error, len(ws))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range ws {
		g.Go(func() error {
			out[i], errs[i] = resolvedNodeOf(&ws[i], depth)
			return nil
		})
	}
	_ = g.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

type resolvedCurriculumAttrs struct {
	Name       string   `json:"name"`
	Title      string   `json:"title"`
	Variant    string   `json:"variant"`
	Locale     string   `json:"locale"`
	ResolvedAt flexTime `json:"resolved_at"`
}

type resolvedMeta struct {
	VariantChain []flexString `json:"variant_chain"`
	Locale       string       `json:"locale"`
	NodeCount    *flexInt     `json:"node_count"`
	MaxDepth     *flexInt     `json:"max_depth"`
}

// decodeBody reads the envelope of GET /api/v1/curricula/:id/resolved.
// A tree is read in parts side by side (decodeSplit); a body that way does
// not read is read whole, which also words its errors.
func (r *ResolvedCurriculum) decodeBody(body []byte) error {
	if r.decodeSplit(body) {
		return nil
	}
	return r.decodeWhole(body)
}

// decodeWhole reads the body of a resolved curriculum with encoding/json
// from its top, its nodes side by side once all are read.
func (r *ResolvedCurriculum) decodeWhole(body []byte) error {
	out, roots, meta, err := decodeResolvedHead(body)
	if err != nil {
		return err
	}
	if out.Nodes, err = resolvedNodesOf(roots, 0); err != nil {
		return errorIn("resolved curriculum", "nodes", err)
	}
	*r = out.counted(meta)
	return nil
}

// decodeResolvedHead reads a resolved curriculum's envelope, all but its
// nodes: it returns them as records, not yet read into ResolvedNodes.
func decodeResolvedHead(body []byte) (ResolvedCurriculum, []resolvedNodeWire, *resolvedMeta, error) {
	data, meta, err := decodeEnvelope[resource[resolvedCurriculumAttrs], resolvedMeta](body, "resolved curriculum")
	if err != nil {
		return ResolvedCurriculum{}, nil, nil, err
	}
	a := data.Attributes
	out := ResolvedCurriculum{
		ID:         string(data.ID),
		Name:       a.Name,
		Variant:    a.Variant,
		Locale:     a.Locale,
		ResolvedAt: a.ResolvedAt.Time,
		MetaLocale: meta.Locale,
	}
	if out.Name == "" {
		out.Name = a.Title
	}
	if out.Locale == "" {
		out.Locale = meta.Locale
	}
	for _, name := range meta.VariantChain {
		out.VariantChain = append(out.VariantChain, string(name))
	}
	roots, err := relationList[resolvedNodeWire](data.Relationships, rootRelations...)
	if err != nil {
		return ResolvedCurriculum{}, nil, nil, fmt.Errorf("decode resolved curriculum: %w", err)
	}
	if roots == nil && !isNull(data.Children) {
		// A tree under children instead of relationships.
		if err := within("children", unmarshal(data.Children, &roots)); err != nil {
			return ResolvedCurriculum{}, nil, nil, errorIn("resolved curriculum", "data", err)
		}
	}
	return out, roots, meta, nil
}

// rootRelations are the relationships that may hold a resolved
// curriculum's top nodes, the first present (and not null) winning.
var rootRelations = []string{"content_nodes", "root_nodes", "nodes"}

// counted returns c with its node count and depth: meta's when it gives
// them, else those of c's nodes.
func (c ResolvedCurriculum) counted(meta *resolvedMeta) ResolvedCurriculum {
	count, deepest := 0, 0
	for i := range c.Nodes {
		c.Nodes[i].walk(func(x *ResolvedNode) {
			count++
			deepest = max(deepest, x.Depth)
		})
	}
	c.NodeCount, c.MaxDepth = count, deepest
	if meta.NodeCount != nil {
		c.NodeCount = int(*meta.NodeCount)
	}
	if meta.MaxDepth != nil {
		c.MaxDepth = int(*meta.MaxDepth)
	}
	return c
}

// decodeBody reads the envelope of GET /api/v1/content_nodes/:id/resolved.
func (n *ResolvedNode) decodeBody(body []byte) error {
	data, _, err := decodeEnvelope[resolvedNodeWire, json.RawMessage](body, "resolved content node")
	if err != nil {
		return err
	}
	out, err := resolvedNodeOf(data, 0)
	if err != nil {
		return errorIn("resolved content node", "children", err)
	}
	*n = out
	return nil
}

// walk calls fn for n and every node below it, parents first.
func (n *ResolvedNode) walk(fn func(*ResolvedNode)) {
	fn(n)
	for i := range n.Children {
		n.Children[i].walk(fn)
	}
}
