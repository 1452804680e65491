package sandbox

import (
	"encoding/json"
	"time"

	"github.com/curex/curex/exporter/sandbox/dataset"
)

// The wire records of spec section 2. Struct fields keep the key order
// stable; free-form attributes are maps, which encoding/json sorts.

type ref struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

type relation struct {
	Data any `json:"data"`
}

type resource struct {
	ID            string              `json:"id"`
	Type          string              `json:"type"`
	Attributes    any                 `json:"attributes"`
	Relationships map[string]relation `json:"relationships,omitempty"`
}

type curriculumAttrs struct {
	Name          string  `json:"name"`
	Description   string  `json:"description"`
	StructureName string  `json:"structure_name"`
	NodeCount     int     `json:"node_count"`
	IsVariant     bool    `json:"is_variant"`
	ParentID      *string `json:"parent_id"`
	CreatedAt     string  `json:"created_at"`
	UpdatedAt     string  `json:"updated_at"`
}

type curriculumAltAttrs struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	Status      string `json:"status"`
}

type nodeTypeJSON struct {
	Name        string `json:"name"`
	DisplayName string `json:"display_name"`
	Icon        string `json:"icon"`
}

type nodeAttrs struct {
	Title          string                     `json:"title"`
	NodeType       nodeTypeJSON               `json:"node_type"`
	OrdinalLabel   string                     `json:"ordinal_label"`
	TypeDisplay    string                     `json:"type_display"`
	WorkflowStatus string                     `json:"workflow_status"`
	Position       int                        `json:"position"`
	Depth          int                        `json:"depth"`
	HasChildren    bool                       `json:"has_children"`
	Attributes     map[string]json.RawMessage `json:"attributes"`
}

// childAttrs is the reduced record of a child in a node response.
type childAttrs struct {
	Title          string       `json:"title"`
	NodeType       nodeTypeJSON `json:"node_type"`
	OrdinalLabel   string       `json:"ordinal_label"`
	TypeDisplay    string       `json:"type_display"`
	WorkflowStatus string       `json:"workflow_status"`
	Position       int          `json:"position"`
	HasChildren    bool         `json:"has_children"`
}

type variantAttrs struct {
	Name          string `json:"name"`
	Description   string `json:"description"`
	ParentID      string `json:"parent_id"`
	Depth         int    `json:"depth"`
	NodeCount     int    `json:"node_count"`
	OverrideCount int    `json:"override_count"`
	AddedCount    int    `json:"added_count"`
}

type localeAttrs struct {
	Code                string `json:"code"`
	Name                string `json:"name"`
	IsPrimary           bool   `json:"is_primary"`
	TranslationProgress int    `json:"translation_progress"`
	PublishedProgress   int    `json:"published_progress"`
}

type resolvedCurriculumAttrs struct {
	Name       string `json:"name"`
	Variant    string `json:"variant"`
	Locale     string `json:"locale"`
	ResolvedAt string `json:"resolved_at"`
}

type resolvedNode struct {
	ID         string              `json:"id"`
	Type       string              `json:"type"`
	Attributes resolvedNodeAttrs   `json:"attributes"`
	Children   []resolvedNode      `json:"children"`
	Relations  map[string]relation `json:"relationships,omitempty"`
}

type resolvedNodeAttrs struct {
	Title               string                     `json:"title"`
	Position            int                        `json:"position"`
	Depth               int                        `json:"depth"`
	NodeType            nodeTypeJSON               `json:"node_type"`
	OrdinalLabel        string                     `json:"ordinal_label"`
	TypeDisplay         string                     `json:"type_display"`
	WorkflowStatus      string                     `json:"workflow_status"`
	Attributes          map[string]json.RawMessage `json:"attributes"`
	InheritanceMetadata inheritanceJSON            `json:"inheritance_metadata"`
	TranslationMetadata translationJSON            `json:"translation_metadata"`
}

type inheritanceJSON struct {
	IsInherited      bool   `json:"is_inherited"`
	SourceCurriculum string `json:"source_curriculum"`
	OverrideLevel    int    `json:"override_level"`
}

type translationJSON struct {
	IsTranslated      bool   `json:"is_translated"`
	TranslationStatus string `json:"translation_status"`
	SourceLocale      string `json:"source_locale"`
}

type userAttrs struct {
	Email string `json:"email"`
	Name  string `json:"name"`
}

func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func shapeOf(c *dataset.Curriculum) string {
	if c.Shape == "" {
		return dataset.ShapeFull
	}
	return c.Shape
}

func curriculumRecord(ix *dataset.Index, c *dataset.Curriculum, published bool) resource {
	if shapeOf(c) == dataset.ShapeAlternate {
		status := dataset.StatusPublished
		if !published {
			status = dataset.StatusDraft
		}
		return resource{ID: c.ID, Type: "curriculum", Attributes: curriculumAltAttrs{
			Title: c.Name, Description: c.Description, Status: status,
		}}
	}
	var parent *string
	if c.Parent != "" {
		parent = &c.Parent
	}
	return resource{ID: c.ID, Type: "curriculum", Attributes: curriculumAttrs{
		Name:          c.Name,
		Description:   c.Description,
		StructureName: c.StructureName,
		NodeCount:     ix.NodeCount(c.ID),
		IsVariant:     c.Parent != "",
		ParentID:      parent,
		CreatedAt:     timestamp(c.CreatedAt),
		UpdatedAt:     timestamp(c.UpdatedAt),
	}}
}

func typeJSON(t dataset.ResolvedType) nodeTypeJSON {
	return nodeTypeJSON{Name: t.Name, DisplayName: t.DisplayName, Icon: t.Icon}
}

func nodeRecord(n *dataset.ResolvedNode) resource {
	return resource{ID: n.ID, Type: "content_node", Attributes: nodeAttrs{
		Title:          n.Title,
		NodeType:       typeJSON(n.NodeType),
		OrdinalLabel:   n.OrdinalLabel,
		TypeDisplay:    n.TypeDisplay,
		WorkflowStatus: n.WorkflowStatus,
		Position:       n.Position,
		Depth:          n.Depth,
		HasChildren:    len(n.Children) > 0,
		Attributes:     n.Attributes,
	}}
}

func childRecord(n *dataset.ResolvedNode) resource {
	return resource{ID: n.ID, Type: "content_node", Attributes: childAttrs{
		Title:          n.Title,
		NodeType:       typeJSON(n.NodeType),
		OrdinalLabel:   n.OrdinalLabel,
		TypeDisplay:    n.TypeDisplay,
		WorkflowStatus: n.WorkflowStatus,
		Position:       n.Position,
		HasChildren:    len(n.Children) > 0,
	}}
}

func resolvedRecord(n *dataset.ResolvedNode) resolvedNode {
	r := resolvedNode{
		ID:   n.ID,
		Type: "resolved_content_node",
		Attributes: resolvedNodeAttrs{
			Title:          n.Title,
			Position:       n.Position,
			Depth:          n.Depth,
			NodeType:       typeJSON(n.NodeType),
			OrdinalLabel:   n.OrdinalLabel,
			TypeDisplay:    n.TypeDisplay,
			WorkflowStatus: n.WorkflowStatus,
			Attributes:     n.Attributes,
			InheritanceMetadata: inheritanceJSON{
				IsInherited:      n.Inheritance.IsInherited,
				SourceCurriculum: n.Inheritance.SourceCurriculum,
				OverrideLevel:    n.Inheritance.OverrideLevel,
			},
			TranslationMetadata: translationJSON{
				IsTranslated:      n.Translation.IsTranslated,
				TranslationStatus: n.Translation.Status,
				SourceLocale:      n.Translation.SourceLocale,
			},
		},
		Children: make([]resolvedNode, 0, len(n.Children)),
	}
	for _, c := range n.Children {
		r.Children = append(r.Children, resolvedRecord(c))
	}
	return r
}
