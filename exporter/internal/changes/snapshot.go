package changes

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
)

// Node is what a comparison needs of one node.
type Node struct {
	ID     string `json:"id"`
	Parent string `json:"parent,omitempty"`
	Title  string `json:"title"`
	// Path is the node's page, relative to the output root.
	Path string `json:"path,omitempty"`
	// Content sums up everything shown of the node but its title and
	// place: type, numbering, status and attributes.
	Content string `json:"content"`
	// Translated reports text in the tree's locale (always true in the
	// primary locale).
	Translated bool `json:"translated,omitempty"`
}

// Snapshot is a tree's nodes in reading order, with the tree's ETag.
type Snapshot struct {
	ETag  string `json:"etag"`
	Nodes []Node `json:"nodes"`
}

// Of returns the snapshot of t as it is published (the caller filters).
func Of(t *model.Tree) Snapshot {
	s := Snapshot{ETag: t.ETag}
	primary := t.Locale == t.PrimaryLocale
	var walk func(ns []*model.Node, parent string)
	walk = func(ns []*model.Node, parent string) {
		for _, n := range ns {
			s.Nodes = append(s.Nodes, Node{
				ID: n.ID, Parent: parent, Title: n.Title, Path: layout.NodePage(t.Export, n.Segment),
				Content: contentHash(n), Translated: primary || n.Translation.IsTranslated,
			})
			walk(n.Children, n.ID)
		}
	}
	walk(t.Nodes, "")
	return s
}

// contentHash sums up a node's type, numbering, status and attributes
// (members in sorted order, values as received).
func contentHash(n *model.Node) string {
	h := sha256.New()
	fmt.Fprintf(h, "%q %q %q %q %q\n", n.NodeType.Name, n.NodeType.DisplayName, n.OrdinalLabel, n.TypeDisplay, n.WorkflowStatus)
	keys := make([]string, 0, len(n.Attributes))
	for k := range n.Attributes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(h, "%q=", k)
		h.Write(compact(n.Attributes[k]))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// compact drops insignificant white space, so a value re-indented upstream
// is not a change; a value that is not JSON is summed as it is. A value
// already as encoding/json writes it (canonical) is summed as it is too.
func compact(raw json.RawMessage) []byte {
	if canonical(raw) {
		return raw
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	b, err := json.Marshal(v) // object members in sorted order
	if err != nil {
		return raw
	}
	return b
}
