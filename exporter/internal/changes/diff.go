package changes

import "time"

// Item names a node in an Entry. Path is its page, relative to the output
// root (empty for a removed node).
type Item struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Path  string `json:"path,omitempty"`
}

// Move is a node that has another parent.
type Move struct {
	Item
	// From and To are the titles of the old and new parent ("" for the
	// top level).
	From string `json:"from"`
	To   string `json:"to"`
}

// Retitle is a node with a new title (Item.Title) and its old one.
type Retitle struct {
	Item
	From string `json:"from"`
}

// Entry is what changed in one variant × locale between two exports.
type Entry struct {
	// Date is the content's date (its resolved_at, or SOURCE_DATE_EPOCH).
	Date time.Time `json:"date"`
	// ETag and PreviousETag are the tree's ETags after and before.
	ETag         string `json:"etag"`
	PreviousETag string `json:"previous_etag"`
	// The changes, each in reading order (Removed in the old tree's).
	Added          []Item    `json:"added"`
	Removed        []Item    `json:"removed"`
	Moved          []Move    `json:"moved"`
	Retitled       []Retitle `json:"retitled"`
	ContentChanged []Item    `json:"content_changed"`
	// Translated lists nodes whose translation became available.
	Translated []Item `json:"translated"`
}

// Empty reports an entry with no change.
func (e *Entry) Empty() bool {
	return len(e.Added)+len(e.Removed)+len(e.Moved)+len(e.Retitled)+len(e.ContentChanged)+len(e.Translated) == 0
}

// Count returns the number of changes in the entry.
func (e *Entry) Count() int {
	return len(e.Added) + len(e.Removed) + len(e.Moved) + len(e.Retitled) + len(e.ContentChanged) + len(e.Translated)
}

// Diff compares two snapshots of the same variant × locale. Nodes are
// matched by id (the first of a repeated id); a node's move is a change of
// parent, not of place among its siblings (which any insertion shifts); a
// node newly translated is listed as such only, though its title and text
// changed with the translation.
func Diff(prev, cur Snapshot) Entry {
	e := Entry{ETag: cur.ETag, PreviousETag: prev.ETag,
		Added: []Item{}, Removed: []Item{}, Moved: []Move{}, Retitled: []Retitle{}, ContentChanged: []Item{}, Translated: []Item{}}
	index := func(s Snapshot) map[string]*Node {
		m := make(map[string]*Node, len(s.Nodes))
		for i := range s.Nodes {
			if _, dup := m[s.Nodes[i].ID]; !dup {
				m[s.Nodes[i].ID] = &s.Nodes[i]
			}
		}
		return m
	}
	old, now := index(prev), index(cur)
	title := func(m map[string]*Node, id string) string {
		if n := m[id]; n != nil {
			return n.Title
		}
		return ""
	}
	seen := map[string]bool{}
	for i := range cur.Nodes {
		n := &cur.Nodes[i]
		if seen[n.ID] {
			continue
		}
		seen[n.ID] = true
		it := Item{ID: n.ID, Title: n.Title, Path: n.Path}
		o := old[n.ID]
		if o == nil {
			e.Added = append(e.Added, it)
			continue
		}
		if o.Parent != n.Parent {
			e.Moved = append(e.Moved, Move{Item: it, From: title(old, o.Parent), To: title(now, n.Parent)})
		}
		if n.Translated && !o.Translated {
			// Its title and text are now in the locale: that is the
			// change, not a retitle or a new content.
			e.Translated = append(e.Translated, it)
			continue
		}
		if o.Title != n.Title {
			e.Retitled = append(e.Retitled, Retitle{Item: it, From: o.Title})
		}
		if o.Content != n.Content {
			e.ContentChanged = append(e.ContentChanged, it)
		}
	}
	gone := map[string]bool{}
	for i := range prev.Nodes {
		o := &prev.Nodes[i]
		if now[o.ID] == nil && !gone[o.ID] {
			gone[o.ID] = true
			e.Removed = append(e.Removed, Item{ID: o.ID, Title: o.Title})
		}
	}
	return e
}
