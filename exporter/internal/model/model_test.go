package model

import (
	"strings"
	"testing"
)

func tree() *Tree {
	leaf := func(id, status string, kids ...*Node) *Node {
		return &Node{ID: id, WorkflowStatus: status, Children: kids}
	}
	return &Tree{Nodes: []*Node{
		leaf("u1", "published", leaf("l1", "published"), leaf("l2", "draft", leaf("a1", "published"))),
		leaf("u2", "in_review", leaf("l3", "published")),
		leaf("u3", "published"),
	}}
}

func ids(t *Tree) string {
	var out []string
	t.Walk(func(n *Node) bool { out = append(out, n.ID); return true })
	return strings.Join(out, " ")
}

func TestWalkOrderAndSkip(t *testing.T) {
	tr := tree()
	if got := ids(tr); got != "u1 l1 l2 a1 u2 l3 u3" {
		t.Fatalf("reading order %q", got)
	}
	var seen []string
	tr.Walk(func(n *Node) bool { seen = append(seen, n.ID); return n.ID != "u1" })
	if got := strings.Join(seen, " "); got != "u1 u2 l3 u3" {
		t.Fatalf("skipping u1's subtree visited %q", got)
	}
	if tr.Count() != 7 {
		t.Fatalf("Count = %d", tr.Count())
	}
}

func TestPublishedOnly(t *testing.T) {
	tr := tree()
	pub := tr.PublishedOnly()
	if got := ids(pub); got != "u1 l1 u3" {
		t.Fatalf("published tree %q, want drafts and their subtrees gone", got)
	}
	if got := ids(tr); got != "u1 l1 l2 a1 u2 l3 u3" {
		t.Fatalf("PublishedOnly changed the original: %q", got)
	}
}

func TestExportDirAndKey(t *testing.T) {
	e := Export{CurriculumID: "101", Variant: "Texas", Locale: "es", CurriculumSlug: "algebra-1", VariantSlug: "texas", LocaleSlug: "es"}
	if e.Dir() != "algebra-1/texas/es" {
		t.Fatalf("Dir = %q", e.Dir())
	}
	other := e
	other.Variant = ""
	if e.Key() == other.Key() {
		t.Fatal("keys of different variants collide")
	}
}
