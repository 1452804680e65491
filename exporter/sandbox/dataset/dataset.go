package dataset

import (
	"encoding/json"
	"time"
)

// Dataset is the whole content of a sandbox, in the JSON format documented in
// docs/sandbox.md.
type Dataset struct {
	// Organizations own curricula; users belong to one.
	Organizations []Organization `json:"organizations"`
	// Users are the people tokens belong to.
	Users []User `json:"users"`
	// Tokens are the bearer tokens the sandbox accepts.
	Tokens []Token `json:"tokens"`
	// NodeTypes names the kinds of content node, with display names.
	NodeTypes []NodeType `json:"node_types"`
	// Curricula holds base curricula and variants, in any order.
	Curricula []Curriculum `json:"curricula"`
}

// Organization is a tenant: its tokens see only its curricula.
type Organization struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// User is the person a token belongs to.
type User struct {
	ID           string `json:"id"`
	Email        string `json:"email"`
	Name         string `json:"name"`
	Organization string `json:"organization"`
}

// Token is a bearer token. A token past ExpiresAt is answered with 401.
type Token struct {
	Token     string     `json:"token"`
	User      string     `json:"user"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

// NodeType is a kind of content node such as a unit or a lesson.
type NodeType struct {
	Name        string `json:"name"`
	DisplayName string `json:"display_name"`
	Icon        string `json:"icon,omitempty"`
	// Translations maps a locale code to the display name in that locale.
	Translations map[string]string `json:"translations,omitempty"`
}

// Record shapes of a curriculum, as the API serves them (spec section 2.1).
const (
	// ShapeFull is the fuller record: name, structure_name, node_count,
	// is_variant, parent_id, timestamps; root nodes under content_nodes.
	ShapeFull = "full"
	// ShapeAlternate is the short record: title, description, status; root
	// nodes under root_nodes.
	ShapeAlternate = "alternate"
)

// Curriculum is a base curriculum (Parent empty) or a variant of another
// curriculum. A base curriculum carries its tree in Nodes; a variant changes
// what it inherits with Overrides and Additions.
type Curriculum struct {
	ID            string `json:"id"`
	Organization  string `json:"organization,omitempty"` // base only; variants share their base's
	Shape         string `json:"shape,omitempty"`        // "full" (default) or "alternate"
	Name          string `json:"name"`
	Description   string `json:"description,omitempty"`
	StructureName string `json:"structure_name,omitempty"`
	Parent        string `json:"parent,omitempty"`
	// PrimaryLocale is the language content is written in; base only.
	PrimaryLocale string `json:"primary_locale,omitempty"`
	// Locales are the enabled locales, the primary one included. A variant
	// that lists none has its parent's.
	Locales   []Locale  `json:"locales,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`

	// Nodes is the tree of a base curriculum; variants leave it empty.
	Nodes []Node `json:"nodes,omitempty"`
	// Overrides change fields of inherited nodes.
	Overrides []Override `json:"overrides,omitempty"`
	// Additions insert new subtrees into the inherited tree.
	Additions []Addition `json:"additions,omitempty"`
	// Translations maps a locale code to translations of nodes whose shown
	// content this curriculum authored (its own nodes, additions and
	// overrides) or that it translates for its own readers.
	Translations map[string]map[string]Translation `json:"translations,omitempty"`
}

// Locale is an enabled locale of a curriculum.
type Locale struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// Workflow states of a node. Other values are kept and served as they are.
const (
	StatusPublished = "published"
	StatusDraft     = "draft"
	StatusInReview  = "in_review"
	StatusArchived  = "archived"
)

// Node is a content node with its subtree.
type Node struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	NodeType string `json:"node_type"`
	// OrdinalLabel numbers the node among its siblings ("1", "A", "3.2").
	// When empty, the sandbox counts siblings of the same type from 1.
	OrdinalLabel string `json:"ordinal_label,omitempty"`
	// WorkflowStatus defaults to "published".
	WorkflowStatus string `json:"workflow_status,omitempty"`
	// Attributes is the free-form content: description, learning_objectives
	// and anything else, served exactly as stored.
	Attributes map[string]json.RawMessage `json:"attributes,omitempty"`
	Children   []Node                     `json:"children,omitempty"`
}

// Override changes fields of an inherited node. Only the fields given change;
// an attribute member set to null is removed.
type Override struct {
	Node           string                     `json:"node"`
	Title          string                     `json:"title,omitempty"`
	NodeType       string                     `json:"node_type,omitempty"`
	OrdinalLabel   string                     `json:"ordinal_label,omitempty"`
	WorkflowStatus string                     `json:"workflow_status,omitempty"`
	Attributes     map[string]json.RawMessage `json:"attributes,omitempty"`
}

// Addition inserts Node (with its subtree) under Parent, or among the root
// nodes when Parent is empty, at zero-based Position among the siblings as
// they are after inheritance; a Position past the end appends.
type Addition struct {
	Parent   string `json:"parent,omitempty"`
	Position int    `json:"position"`
	Node     Node   `json:"node"`
}

// Translation of one node into one locale. Members of Attributes replace the
// members of the same name; the rest stay in the primary locale.
type Translation struct {
	Title      string                     `json:"title,omitempty"`
	Attributes map[string]json.RawMessage `json:"attributes,omitempty"`
	// Status is "published" (default) or "draft"; draft translations count
	// toward translation_progress but are not served.
	Status string `json:"status,omitempty"`
}
