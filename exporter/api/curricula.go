package api

import (
	"context"
	"net/url"
	"strconv"
	"time"
)

// Record shapes of a curriculum (spec section 2.1), as Curriculum.Shape
// reports them.
const (
	// ShapeFull is the fuller record: name, structure_name, node_count,
	// is_variant, parent_id and timestamps.
	ShapeFull = "full"
	// ShapeAlternate is the short record: title, description and status.
	ShapeAlternate = "alternate"
)

// Curriculum is a curriculum record (spec section 2.1), read from either
// shape. Fields the received shape does not carry are zero.
type Curriculum struct {
	// ID is the identifier as served (alternate-shape ids carry a type
	// prefix such as "curriculum_201"); use it as it is in requests.
	ID string
	// Name is name in the full shape and title in the alternate one.
	Name string
	// Description and StructureName describe the curriculum.
	Description, StructureName string
	// Status is the alternate shape's status ("published", "draft" or
	// any other value, kept as it is).
	Status string
	// NodeCount is the total number of nodes (full shape).
	NodeCount int
	// IsVariant reports a variant (full shape: is_variant, or a
	// parent_id). The alternate shape does not tell.
	IsVariant bool
	// ParentID is the curriculum a variant derives from; empty for a base
	// curriculum or the alternate shape.
	ParentID string
	// CreatedAt and UpdatedAt are zero when absent (alternate shape) or
	// unreadable.
	CreatedAt, UpdatedAt time.Time
	// Shape is ShapeFull or ShapeAlternate: which record shape was
	// received.
	Shape string
}

// ListOptions selects a page of ListCurricula. Zero values are left out of
// the query, so the server's defaults apply.
type ListOptions struct {
	// Page is the page number, from 1.
	Page int
	// PerPage is the page size.
	PerPage int
	// RootOnly asks for base curricula only, without variants.
	RootOnly bool
	// Status filters by content status, such as "published".
	Status string
}

// CurriculumPage is one page of the curricula available to the token's
// organization.
type CurriculumPage struct {
	// Curricula are the records of this page, in the server's order.
	Curricula []Curriculum
	// TotalCount is meta.total_count, the number of curricula on all
	// pages; when the server does not send it, the number on this page.
	TotalCount int
	// Page and PerPage are the page served; when the server does not
	// say, the ones asked for (Page 1 when not asked).
	Page, PerPage int
}

// CurriculumDetail is one curriculum with its root nodes.
type CurriculumDetail struct {
	// Curriculum is the record.
	Curriculum Curriculum
	// RootNodes are the root-level nodes (relationships.content_nodes,
	// or root_nodes in the alternate shape).
	RootNodes []Node
	// RootCount and TotalNodeCount come from meta; when absent, the
	// number of root nodes and Curriculum.NodeCount.
	RootCount, TotalNodeCount int
}

// Variant is an entry of a curriculum's variant list (spec section 2.3).
type Variant struct {
	// ID, Name and Description describe the variant; ParentID is the
	// curriculum it derives from.
	ID, Name, Description, ParentID string
	// Depth is 1 for a direct variant of the curriculum asked about, 2
	// for a variant of one, and so on.
	Depth int
	// NodeCount, OverrideCount and AddedCount count its nodes, its
	// overrides and the nodes it adds.
	NodeCount, OverrideCount, AddedCount int
}

// VariantList is the list of a curriculum's variants, direct and nested.
type VariantList struct {
	// Variants are the entries, in the server's order.
	Variants []Variant
	// TotalCount is meta.total_count, or the number of entries when
	// absent.
	TotalCount int
	// CurriculumID and CurriculumName name the curriculum asked about.
	CurriculumID, CurriculumName string
}

// Locale is a locale progress entry (spec section 2.4).
type Locale struct {
	// Code is the locale code, such as "es"; Name its display name.
	Code, Name string
	// IsPrimary reports the locale content is written in.
	IsPrimary bool
	// TranslationProgress and PublishedProgress are the progress figures
	// as served (whole numbers, 0 to 100 in the examples).
	TranslationProgress, PublishedProgress int
}

// LocaleList is the list of a curriculum's enabled locales.
type LocaleList struct {
	// Locales are the entries, in the server's order.
	Locales []Locale
	// PrimaryLocale is meta.primary_locale, or the code of the entry
	// marked primary when absent.
	PrimaryLocale string
	// TotalLocales is meta.total_locales, or the number of entries when
	// absent.
	TotalLocales int
	// CurriculumID and CurriculumName name the curriculum asked about.
	CurriculumID, CurriculumName string
}

// ListCurricula returns a page of the curricula available to the token's
// organization (GET /api/v1/curricula).
func (c *Client) ListCurricula(ctx context.Context, opts ListOptions) (*CurriculumPage, *Response, error) {
	q := url.Values{}
	if opts.Page > 0 {
		q["page"] = []string{strconv.Itoa(opts.Page)}
	}
	if opts.PerPage > 0 {
		q["per_page"] = []string{strconv.Itoa(opts.PerPage)}
	}
	if opts.RootOnly {
		q["root_only"] = []string{"true"}
	}
	if opts.Status != "" {
		q["status"] = []string{opts.Status}
	}
	p := new(CurriculumPage)
	resp, err := c.get(ctx, "curricula", q, p)
	if err != nil {
		return nil, resp, err
	}
	if p.Page == 0 {
		p.Page = max(opts.Page, 1)
	}
	if p.PerPage == 0 && opts.PerPage > 0 {
		p.PerPage = opts.PerPage
	}
	return p, resp, nil
}

// Curriculum returns a curriculum and its root nodes
// (GET /api/v1/curricula/:id).
func (c *Client) Curriculum(ctx context.Context, id string) (*CurriculumDetail, *Response, error) {
	seg, err := escapeID("curriculum", id)
	if err != nil {
		return nil, nil, err
	}
	d := new(CurriculumDetail)
	resp, err := c.get(ctx, "curricula/"+seg, nil, d)
	if err != nil {
		return nil, resp, err
	}
	return d, resp, nil
}

// Variants returns all variants of a curriculum, direct and nested
// (GET /api/v1/curricula/:id/variants).
func (c *Client) Variants(ctx context.Context, id string) (*VariantList, *Response, error) {
	seg, err := escapeID("curriculum", id)
	if err != nil {
		return nil, nil, err
	}
	l := new(VariantList)
	resp, err := c.get(ctx, "curricula/"+seg+"/variants", nil, l)
	if err != nil {
		return nil, resp, err
	}
	return l, resp, nil
}

// Locales returns the enabled locales of a curriculum with their
// translation progress (GET /api/v1/curricula/:id/locales).
func (c *Client) Locales(ctx context.Context, id string) (*LocaleList, *Response, error) {
	seg, err := escapeID("curriculum", id)
	if err != nil {
		return nil, nil, err
	}
	l := new(LocaleList)
	resp, err := c.get(ctx, "curricula/"+seg+"/locales", nil, l)
	if err != nil {
		return nil, resp, err
	}
	return l, resp, nil
}

// curriculumAttrs holds the members of both shapes; pointers tell absent
// members from empty ones.
type curriculumAttrs struct {
	Name          *string    `json:"name"`
	Title         *string    `json:"title"`
	Description   string     `json:"description"`
	StructureName string     `json:"structure_name"`
	Status        *string    `json:"status"`
	NodeCount     flexInt    `json:"node_count"`
	IsVariant     flexBool   `json:"is_variant"`
	ParentID      flexString `json:"parent_id"`
	CreatedAt     flexTime   `json:"created_at"`
	UpdatedAt     flexTime   `json:"updated_at"`
}

// curriculumOf converts a curriculum record. The alternate shape is the one
// without name but with title or status.
func curriculumOf(r *resource[curriculumAttrs]) Curriculum {
	a := &r.Attributes
	c := Curriculum{
		ID:            string(r.ID),
		Description:   a.Description,
		StructureName: a.StructureName,
		NodeCount:     int(a.NodeCount),
		IsVariant:     bool(a.IsVariant) || a.ParentID != "",
		ParentID:      string(a.ParentID),
		CreatedAt:     a.CreatedAt.Time,
		UpdatedAt:     a.UpdatedAt.Time,
		Shape:         ShapeFull,
	}
	if a.Name != nil {
		c.Name = *a.Name
	}
	if c.Name == "" && a.Title != nil {
		c.Name = *a.Title
	}
	if a.Status != nil {
		c.Status = *a.Status
	}
	if a.Name == nil && (a.Title != nil || a.Status != nil) {
		c.Shape = ShapeAlternate
	}
	return c
}

type pageMeta struct {
	TotalCount *flexInt `json:"total_count"`
	Page       flexInt  `json:"page"`
	PerPage    flexInt  `json:"per_page"`
}

// decodeBody reads the envelope of GET /api/v1/curricula.
func (p *CurriculumPage) decodeBody(body []byte) error {
	data, meta, err := decodeEnvelope[[]resource[curriculumAttrs], pageMeta](body, "curriculum list")
	if err != nil {
		return err
	}
	out := CurriculumPage{Page: int(meta.Page), PerPage: int(meta.PerPage)}
	for i := range *data {
		out.Curricula = append(out.Curricula, curriculumOf(&(*data)[i]))
	}
	out.TotalCount = len(out.Curricula)
	if meta.TotalCount != nil {
		out.TotalCount = int(*meta.TotalCount)
	}
	*p = out
	return nil
}

type detailMeta struct {
	RootCount      *flexInt `json:"root_count"`
	TotalNodeCount *flexInt `json:"total_node_count"`
}

// decodeBody reads the envelope of GET /api/v1/curricula/:id.
func (d *CurriculumDetail) decodeBody(body []byte) error {
	data, meta, err := decodeEnvelope[resource[curriculumAttrs], detailMeta](body, "curriculum")
	if err != nil {
		return err
	}
	out := CurriculumDetail{Curriculum: curriculumOf(data)}
	roots, err := relationList[resource[nodeAttrs]](data.Relationships, "content_nodes", "root_nodes")
	if err != nil {
		return errorIn("curriculum", "root nodes", err)
	}
	for i := range roots {
		out.RootNodes = append(out.RootNodes, nodeOf(&roots[i], 0))
	}
	out.RootCount = len(out.RootNodes)
	if meta.RootCount != nil {
		out.RootCount = int(*meta.RootCount)
	}
	out.TotalNodeCount = out.Curriculum.NodeCount
	if meta.TotalNodeCount != nil {
		out.TotalNodeCount = int(*meta.TotalNodeCount)
	}
	*d = out
	return nil
}

type variantAttrs struct {
	Name          string     `json:"name"`
	Title         string     `json:"title"`
	Description   string     `json:"description"`
	ParentID      flexString `json:"parent_id"`
	Depth         flexInt    `json:"depth"`
	NodeCount     flexInt    `json:"node_count"`
	OverrideCount flexInt    `json:"override_count"`
	AddedCount    flexInt    `json:"added_count"`
}

type listMeta struct {
	TotalCount     *flexInt   `json:"total_count"`
	CurriculumID   flexString `json:"curriculum_id"`
	CurriculumName string     `json:"curriculum_name"`
}

// decodeBody reads the envelope of GET /api/v1/curricula/:id/variants.
func (l *VariantList) decodeBody(body []byte) error {
	data, meta, err := decodeEnvelope[[]resource[variantAttrs], listMeta](body, "variant list")
	if err != nil {
		return err
	}
	out := VariantList{CurriculumID: string(meta.CurriculumID), CurriculumName: meta.CurriculumName}
	for _, r := range *data {
		a := r.Attributes
		name := a.Name
		if name == "" {
			name = a.Title
		}
		out.Variants = append(out.Variants, Variant{
			ID: string(r.ID), Name: name, Description: a.Description, ParentID: string(a.ParentID),
			Depth: int(a.Depth), NodeCount: int(a.NodeCount), OverrideCount: int(a.OverrideCount), AddedCount: int(a.AddedCount),
		})
	}
	out.TotalCount = len(out.Variants)
	if meta.TotalCount != nil {
		out.TotalCount = int(*meta.TotalCount)
	}
	*l = out
	return nil
}

type localeAttrs struct {
	Code                string   `json:"code"`
	Name                string   `json:"name"`
	IsPrimary           flexBool `json:"is_primary"`
	TranslationProgress flexInt  `json:"translation_progress"`
	PublishedProgress   flexInt  `json:"published_progress"`
}

type localeMeta struct {
	PrimaryLocale  string     `json:"primary_locale"`
	TotalLocales   *flexInt   `json:"total_locales"`
	CurriculumID   flexString `json:"curriculum_id"`
	CurriculumName string     `json:"curriculum_name"`
}

// decodeBody reads the envelope of GET /api/v1/curricula/:id/locales.
func (l *LocaleList) decodeBody(body []byte) error {
	data, meta, err := decodeEnvelope[[]resource[localeAttrs], localeMeta](body, "locale list")
	if err != nil {
		return err
	}
	out := LocaleList{PrimaryLocale: meta.PrimaryLocale, CurriculumID: string(meta.CurriculumID), CurriculumName: meta.CurriculumName}
	for _, r := range *data {
		a := r.Attributes
		out.Locales = append(out.Locales, Locale{
			Code: a.Code, Name: a.Name, IsPrimary: bool(a.IsPrimary),
			TranslationProgress: int(a.TranslationProgress), PublishedProgress: int(a.PublishedProgress),
		})
		if out.PrimaryLocale == "" && a.IsPrimary {
			out.PrimaryLocale = a.Code
		}
	}
	out.TotalLocales = len(out.Locales)
	if meta.TotalLocales != nil {
		out.TotalLocales = int(*meta.TotalLocales)
	}
	*l = out
	return nil
}
