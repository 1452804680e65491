package api

import (
	"context"
	"encoding/json"
	"reflect"
)

// NodeType is the kind of a content node, such as a unit or a lesson.
type NodeType struct {
	// Name is the machine name ("unit"); DisplayName the label shown
	// ("Unit", localized in resolved content); Icon an icon name.
	Name, DisplayName, Icon string
}

// Node is a content node (spec section 2.2). Workflow statuses the spec
// does not list are kept as they are.
type Node struct {
	// ID and Title identify and name the node.
	ID, Title string
	// NodeType is the node's kind.
	NodeType NodeType
	// OrdinalLabel labels the node among its siblings ("1", "A");
	// TypeDisplay combines it with the type ("Unit 1").
	OrdinalLabel, TypeDisplay string
	// WorkflowStatus is "published", "draft" or any other value, as
	// served.
	WorkflowStatus string
	// Position is the place among siblings (zero-based in the examples);
	// Depth is 0 for a root node.
	Position, Depth int
	// HasChildren reports whether deeper content exists; fetch it with
	// Client.Node.
	HasChildren bool
	// Attributes holds the free-form content fields (description,
	// learning_objectives, ...) exactly as served; nil when absent, as in
	// the reduced records of NodeDetail.Children.
	Attributes map[string]json.RawMessage
}

// NodeDetail is a content node with its direct children.
type NodeDetail struct {
	// Node is the node itself.
	Node Node
	// CurriculumID is the curriculum the node belongs to; ParentID its
	// parent node, empty for a root node.
	CurriculumID, ParentID string
	// Children are the direct children, in reduced records: Attributes
	// is nil unless the server sends it, and Depth, which the reduced
	// record leaves out, is the node's depth plus one.
	Children []Node
	// ChildrenCount and AncestryDepth come from meta; when absent, the
	// number of children and the node's depth.
	ChildrenCount, AncestryDepth int
}

// Node returns a content node with its direct children
// (GET /api/v1/content_nodes/:id).
func (c *Client) Node(ctx context.Context, id string) (*NodeDetail, *Response, error) {
	seg, err := escapeID("content node", id)
	if err != nil {
		return nil, nil, err
	}
	d := new(NodeDetail)
	resp, err := c.get(ctx, "content_nodes/"+seg, nil, d)
	if err != nil {
		return nil, resp, err
	}
	return d, resp, nil
}

// nodeTypeWire is node_type: an object, or a bare name.
type nodeTypeWire struct {
	Name        string `json:"name"`
	DisplayName string `json:"display_name"`
	Icon        string `json:"icon"`
}

// UnmarshalJSON reads an object, a string (the name) or null.
func (t *nodeTypeWire) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		return nil
	case len(b) > 0 && b[0] == '"':
		return json.Unmarshal(b, &t.Name)
	case len(b) > 0 && b[0] == '{':
		type plain nodeTypeWire // without this method
		return json.Unmarshal(b, (*plain)(t))
	}
	return kindError[nodeTypeWire](b)
}

func (t nodeTypeWire) nodeType() NodeType {
	return NodeType(t)
}

// nodeAttrs holds the members of a content node, full or reduced.
type nodeAttrs struct {
	Title          string                     `json:"title"`
	NodeType       nodeTypeWire               `json:"node_type"`
	OrdinalLabel   flexString                 `json:"ordinal_label"`
	TypeDisplay    string                     `json:"type_display"`
	WorkflowStatus string                     `json:"workflow_status"`
	Position       flexInt                    `json:"position"`
	Depth          *flexInt                   `json:"depth"`
	HasChildren    flexBool                   `json:"has_children"`
	Attributes     map[string]json.RawMessage `json:"attributes"`
}

// fieldsAtTop reports whether any field but the free-form content is set:
// read from the top of a record, that it is in the plain form (see
// resource.UnmarshalJSON).
func (a *nodeAttrs) fieldsAtTop() bool {
	b := *a
	b.Attributes = nil
	return !reflect.ValueOf(b).IsZero()
}

// title is the node's title, or the free-form title member when the node
// has none.
func (a *nodeAttrs) title() string {
	if a.Title != "" {
		return a.Title
	}
	var s string
	if raw, ok := a.Attributes["title"]; ok && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// depthOr is the node's depth, or def when the record leaves it out.
func (a *nodeAttrs) depthOr(def int) int {
	if a.Depth != nil {
		return int(*a.Depth)
	}
	return def
}

// nodeOf converts a node record; depth is used when the record has none.
func nodeOf(r *resource[nodeAttrs], depth int) Node {
	a := &r.Attributes
	return Node{
		ID:             string(r.ID),
		Title:          a.title(),
		NodeType:       a.NodeType.nodeType(),
		OrdinalLabel:   string(a.OrdinalLabel),
		TypeDisplay:    a.TypeDisplay,
		WorkflowStatus: a.WorkflowStatus,
		Position:       int(a.Position),
		Depth:          a.depthOr(depth),
		HasChildren:    bool(a.HasChildren),
		Attributes:     a.Attributes,
	}
}

type nodeMeta struct {
	ChildrenCount *flexInt `json:"children_count"`
	AncestryDepth *flexInt `json:"ancestry_depth"`
}

// decodeBody reads the envelope of GET /api/v1/content_nodes/:id.
func (d *NodeDetail) decodeBody(body []byte) error {
	data, meta, err := decodeEnvelope[resource[nodeAttrs], nodeMeta](body, "content node")
	if err != nil {
		return err
	}
	out := NodeDetail{Node: nodeOf(data, 0)}
	if out.CurriculumID, err = relationID(data.Relationships, "curriculum"); err != nil {
		return errorIn("content node", "curriculum", err)
	}
	if out.ParentID, err = relationID(data.Relationships, "parent"); err != nil {
		return errorIn("content node", "parent", err)
	}
	children, err := relationList[resource[nodeAttrs]](data.Relationships, "children")
	if err != nil {
		return errorIn("content node", "children", err)
	}
	for i := range children {
		out.Children = append(out.Children, nodeOf(&children[i], out.Node.Depth+1))
	}
	out.ChildrenCount = len(out.Children)
	if meta.ChildrenCount != nil {
		out.ChildrenCount = int(*meta.ChildrenCount)
	}
	out.AncestryDepth = out.Node.Depth
	if meta.AncestryDepth != nil {
		out.AncestryDepth = int(*meta.AncestryDepth)
	}
	*d = out
	return nil
}
