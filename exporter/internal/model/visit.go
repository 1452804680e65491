package model

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Errors of a Tree whose nodes do not form a tree, in a *ShapeError.
var (
	// ErrNilNode is a nil entry in a list of nodes.
	ErrNilNode = errors.New("nil node")
	// ErrCycle is a node that is its own ancestor.
	ErrCycle = errors.New("is its own ancestor")
)

// ShapeError is a node where a Tree's nodes stop forming a tree.
type ShapeError struct {
	// Place holds the 0-based indexes of the node and of its ancestors
	// among their siblings, from the root: {2, 0} is the first child of
	// the third root node.
	Place []int
	// ID is the node's id ("" for a nil node).
	ID string
	// Err is ErrNilNode or ErrCycle.
	Err error
}

// Error names the node by its 1-based place ("3.1") and its id.
func (e *ShapeError) Error() string {
	parts := make([]string, len(e.Place))
	for i, p := range e.Place {
		parts[i] = strconv.Itoa(p + 1)
	}
	at := strings.Join(parts, ".")
	if errors.Is(e.Err, ErrNilNode) {
		return fmt.Sprintf("%v at %s", e.Err, at)
	}
	return fmt.Sprintf("node %q at %s %v", e.ID, at, e.Err)
}

// Unwrap returns Err.
func (e *ShapeError) Unwrap() error { return e.Err }

// cycleDepth is the nesting depth from which Visit watches for a node that
// is its own ancestor. Only nodes this deep are tracked, so ordinary trees
// pay nothing; a cycle anywhere still makes the walk descend forever, and
// so meets a tracked node again.
const cycleDepth = 64

// Visit walks t in reading order (depth first, pre-order) without
// recursion, for trees that may come from anywhere: it calls fn with every
// node and its place (the indexes of the node and of its ancestors among
// their siblings, from the root; fn must not keep the slice, which Visit
// reuses). It stops at the first error fn returns and returns it; at a nil
// node, or a node that is its own ancestor, it returns a *ShapeError
// (ErrNilNode, ErrCycle). A node's subtree is walked after fn returns for
// it.
func (t *Tree) Visit(fn func(n *Node, place []int) error) error {
	type frame struct {
		nodes []*Node
		next  int
	}
	var onPath map[*Node]bool
	stack := []frame{{nodes: t.Nodes}}
	// place[i] is stack[i].next-1, kept beside the stack.
	place := make([]int, 1, 16)
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.nodes) {
			if k := len(stack) - 1; k >= cycleDepth {
				p := stack[k-1]
				delete(onPath, p.nodes[p.next-1])
			}
			stack = stack[:len(stack)-1]
			place = place[:len(stack)]
			continue
		}
		n := f.nodes[f.next]
		place[len(place)-1] = f.next
		f.next++
		if n == nil {
			return &ShapeError{Place: slices.Clone(place), Err: ErrNilNode}
		}
		if err := fn(n, place); err != nil {
			return err
		}
		if len(n.Children) == 0 {
			continue
		}
		if len(stack) >= cycleDepth {
			if onPath == nil {
				onPath = make(map[*Node]bool)
			}
			if onPath[n] {
				return &ShapeError{Place: slices.Clone(place), ID: n.ID, Err: ErrCycle}
			}
			onPath[n] = true
		}
		stack = append(stack, frame{nodes: n.Children})
		place = append(place, 0)
	}
	return nil
}
