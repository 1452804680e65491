package api

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"

	"golang.org/x/sync/errgroup"
)

// A resolved curriculum is one body of megabytes, nearly all of it the
// list of its top nodes. encoding/json reads it on one goroutine, and
// every member read through an UnmarshalJSON method is scanned again
// (once to find its end, once more to check it): the tree's bytes pass
// through the scanner about eight times before its nodes are read side by
// side. decodeSplit finds that list with a scan of its own and reads each
// top node on its own goroutine, and the rest of the body, with the list
// left empty, as decodeBody would. It gives decodeBody's result or none:
// any body it does not read exactly so (an error, a surprise in the
// path to the list) is left to decodeBody, which then reads it whole.

// splitMinNodes is the fewest top nodes worth reading side by side.
const splitMinNodes = 2

// decodeSplit reads body as decodeBody does, its top nodes side by side,
// and reports whether it did; false leaves r as it was.
func (r *ResolvedCurriculum) decodeSplit(body []byte) bool {
	sc, ok := newScan(body)
	if !ok {
		return false
	}
	list, ok := sc.topNodeList()
	if !ok {
		return false
	}
	items, ok := sc.arrayItems(list)
	if !ok || len(items) < splitMinNodes {
		return false
	}
	rest := make([]byte, 0, len(body)-(list.hi-list.lo)+2)
	rest = append(append(append(rest, body[:list.lo]...), "[]"...), body[list.hi:]...)
	out, roots, meta, err := decodeResolvedHead(rest)
	if err != nil || roots == nil || len(roots) != 0 {
		return false
	}
	nodes := make([]ResolvedNode, len(items))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, it := range items {
		g.Go(func() error {
			// The records refer to body (attrsMember), as when the list
			// is read whole: body outlives them.
			var w resolvedNodeWire
			if err := json.Unmarshal(body[it.lo:it.hi], &w); err != nil {
				return err
			}
			var err error
			nodes[i], err = resolvedNodeOf(&w, 0)
			return err
		})
	}
	if g.Wait() != nil {
		return false
	}
	out.Nodes = nodes
	*r = out.counted(meta)
	return true
}

// span is where a JSON value is in a body: body[lo:hi].
type span struct{ lo, hi int }

// scan reads the structure of a JSON body without decoding it: where the
// members of its outer objects are, and their values. It checks the
// punctuation it reads, not the values (encoding/json does, when it reads
// them).
type scan struct {
	b []byte
	// closes maps where each object or array at most indexDepth deep
	// opens to where it ends (just past its bracket).
	closes map[int]int
}

// indexDepth is how deep scan indexes brackets: the path to the top
// nodes' items (top object, data, relationships, content_nodes, its
// data, an item) is six deep.
const indexDepth = 6

// newScan indexes the brackets of b in one pass, strings skipped (the
// kinds of brackets are not matched); false when they do not balance.
func newScan(b []byte) (*scan, bool) {
	sc := &scan{b: b, closes: make(map[int]int)}
	var open []int
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			end, ok := skipString(b, i)
			if !ok {
				return nil, false
			}
			i = end - 1
		case '{', '[':
			open = append(open, i)
		case '}', ']':
			if len(open) == 0 {
				return nil, false
			}
			o := open[len(open)-1]
			open = open[:len(open)-1]
			if len(open) < indexDepth {
				sc.closes[o] = i + 1
			}
		}
	}
	return sc, len(open) == 0
}

// topNodeList returns where the list of a resolved curriculum's top nodes
// is (brackets included), when the path to it is plain: data, then
// relationships, then content_nodes (the list, or an object whose data is
// the list), each present once under any name encoding/json would read it
// by, and no name on the way written with an escape or outside ASCII
// (encoding/json folds some of those to the names above).
func (sc *scan) topNodeList() (span, bool) {
	top, ok := sc.object(skipSpace(sc.b, 0))
	if !ok || skipSpace(sc.b, top.end) != len(sc.b) {
		return span{}, false
	}
	data, ok := sc.only(top, "data", true, '{')
	if !ok {
		return span{}, false
	}
	rels, ok := sc.memberOf(data, "relationships", '{')
	if !ok {
		return span{}, false
	}
	o, ok := sc.object(rels.lo)
	if !ok {
		return span{}, false
	}
	// relationships is a map: its keys are matched exactly. The first
	// of rootRelations present wins.
	nodes, ok := sc.only(o, rootRelations[0], false, 0)
	if !ok {
		return span{}, false
	}
	switch sc.b[nodes.lo] {
	case '[':
		return nodes, true
	case '{':
		return sc.memberOf(nodes, "data", '[')
	}
	return span{}, false
}

// memberOf returns the value of the member name (any case) of the object
// v, which must open with opens (see only).
func (sc *scan) memberOf(v span, name string, opens byte) (span, bool) {
	o, ok := sc.object(v.lo)
	if !ok {
		return span{}, false
	}
	return sc.only(o, name, true, opens)
}

// member is a member of a JSON object: its name as written (between the
// quotes) and where its value is.
type member struct {
	name  []byte
	value span
}

// object is a JSON object's members, in order, and the end of its text.
type object struct {
	members []member
	end     int
	plain   bool // every name is ASCII without an escape
}

// only returns the value of the one member of o called name (any case,
// when fold, as encoding/json matches a struct's fields), which must open
// with opens (0: anything); false when there is none, more than one, or
// a name that is not plain.
func (sc *scan) only(o object, name string, fold bool, opens byte) (span, bool) {
	if !o.plain {
		return span{}, false
	}
	var found []span
	for _, m := range o.members {
		if string(m.name) == name || fold && strings.EqualFold(string(m.name), name) {
			found = append(found, m.value)
		}
	}
	if len(found) != 1 || opens != 0 && sc.b[found[0].lo] != opens {
		return span{}, false
	}
	return found[0], true
}

// object reads the object that opens at b[i]: its members' names and
// where their values are, without reading the values.
func (sc *scan) object(i int) (object, bool) {
	b := sc.b
	if i >= len(b) || b[i] != '{' {
		return object{}, false
	}
	o := object{plain: true}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		o.end = i + 1
		return o, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return object{}, false
		}
		end, ok := skipString(b, i)
		if !ok {
			return object{}, false
		}
		name := b[i+1 : end-1]
		if bytes.IndexByte(name, '\\') >= 0 || !isASCII(name) {
			o.plain = false
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return object{}, false
		}
		i = skipSpace(b, i+1)
		vend, ok := sc.value(i)
		if !ok {
			return object{}, false
		}
		o.members = append(o.members, member{name: name, value: span{i, vend}})
		i = skipSpace(b, vend)
		if i >= len(b) {
			return object{}, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			o.end = i + 1
			return o, true
		default:
			return object{}, false
		}
	}
}

// arrayItems returns where the items of the array v are.
func (sc *scan) arrayItems(v span) ([]span, bool) {
	b := sc.b
	if b[v.lo] != '[' || b[v.hi-1] != ']' {
		return nil, false
	}
	var items []span
	i := skipSpace(b, v.lo+1)
	if i == v.hi-1 {
		return items, true
	}
	for {
		end, ok := sc.value(i)
		if !ok || end > v.hi-1 {
			return nil, false
		}
		items = append(items, span{i, end})
		i = skipSpace(b, end)
		switch {
		case i == v.hi-1:
			return items, true
		case i < v.hi-1 && b[i] == ',':
			i = skipSpace(b, i+1)
		default:
			return nil, false
		}
	}
}

// value returns the end of the JSON value that starts at b[i]: a string,
// an object or an array (from the index), or a literal (up to the next
// punctuation or space).
func (sc *scan) value(i int) (int, bool) {
	b := sc.b
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		end, ok := sc.closes[i]
		return end, ok
	}
	start := i
	for i < len(b) && !isPunct(b[i]) {
		i++
	}
	return i, i > start
}

// isPunct reports whether c is JSON punctuation or white space.
func isPunct(c byte) bool {
	switch c {
	case ',', ':', '{', '}', '[', ']', '"', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// skipString returns the end (just past its closing quote) of the string
// whose opening quote is at b[i]: the first quote after it that an odd
// number of backslashes does not escape.
func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, false
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, true
		}
		j = q + 1
	}
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// isASCII reports whether b has only ASCII bytes.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
