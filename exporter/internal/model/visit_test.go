package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// chainTree is a tree of one root and depth-1 nodes below it, each the
// only child of the one before.
func chainTree(depth int) (*Tree, []*Node) {
	nodes := make([]*Node, depth)
	for i := range nodes {
		nodes[i] = &Node{ID: fmt.Sprint("n", i)}
		if i > 0 {
			nodes[i-1].Children = []*Node{nodes[i]}
		}
	}
	return &Tree{Nodes: nodes[:1]}, nodes
}

func TestVisitOrderAndPlaces(t *testing.T) {
	t.Parallel()
	var got []string
	err := tree().Visit(func(n *Node, place []int) error {
		got = append(got, fmt.Sprint(n.ID, place))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "u1[0] l1[0 0] l2[0 1] a1[0 1 0] u2[1] l3[1 0] u3[2]"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("visited %s, want %s", s, want)
	}
}

func TestVisitStopsAtFnError(t *testing.T) {
	t.Parallel()
	stop := errors.New("stop")
	var seen []string
	err := tree().Visit(func(n *Node, _ []int) error {
		seen = append(seen, n.ID)
		if n.ID == "l2" {
			return stop
		}
		return nil
	})
	if err != stop || strings.Join(seen, " ") != "u1 l1 l2" {
		t.Errorf("Visit = %v after %v, want stop after u1 l1 l2", err, seen)
	}
}

func TestVisitShapeErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		tree      func() *Tree
		wantErr   error
		wantID    string
		wantPlace []int
		wantMsg   string
	}{
		{"nil root", func() *Tree { return &Tree{Nodes: []*Node{{ID: "a"}, nil}} }, ErrNilNode, "", []int{1}, "nil node at 2"},
		{"nil child", func() *Tree {
			tr := tree()
			tr.Nodes[0].Children[1].Children = append(tr.Nodes[0].Children[1].Children, nil)
			return tr
		}, ErrNilNode, "", []int{0, 1, 1}, "nil node at 1.2.2"},
		{"node its own child", func() *Tree {
			n := &Node{ID: "self"}
			n.Children = []*Node{n}
			return &Tree{Nodes: []*Node{n}}
		}, ErrCycle, "self", nil, "is its own ancestor"},
		{"short cycle", func() *Tree {
			tr, ns := chainTree(3)
			ns[2].Children = []*Node{ns[0]}
			return tr
		}, ErrCycle, "", nil, "is its own ancestor"},
		{"cycle below the watched depth", func() *Tree {
			tr, ns := chainTree(cycleDepth + 5)
			ns[len(ns)-1].Children = []*Node{ns[0]}
			return tr
		}, ErrCycle, "", nil, "is its own ancestor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.tree().Visit(func(*Node, []int) error { return nil })
			var se *ShapeError
			if !errors.As(err, &se) || !errors.Is(err, tc.wantErr) {
				t.Fatalf("Visit = %v, want a *ShapeError of %v", err, tc.wantErr)
			}
			if tc.wantID != "" && se.ID != tc.wantID {
				t.Errorf("ID = %q, want %q", se.ID, tc.wantID)
			}
			if tc.wantPlace != nil && !slices.Equal(se.Place, tc.wantPlace) {
				t.Errorf("Place = %v, want %v", se.Place, tc.wantPlace)
			}
			if !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("error %q does not say %q", err, tc.wantMsg)
			}
		})
	}
}

// TestVisitDeepChain: a deep tree that is no cycle is walked whole, each
// node at its place.
func TestVisitDeepChain(t *testing.T) {
	t.Parallel()
	tr, ns := chainTree(3 * cycleDepth)
	count := 0
	err := tr.Visit(func(n *Node, place []int) error {
		if n != ns[count] || len(place) != count+1 {
			t.Fatalf("node %d: %s at %v", count, n.ID, place)
		}
		count++
		return nil
	})
	if err != nil || count != len(ns) {
		t.Errorf("Visit = %v after %d nodes, want nil after %d", err, count, len(ns))
	}
}
