package api

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// splitSeeds are resolved bodies whose top nodes decodeSplit finds, and
// bodies whose path to them it must leave to decodeWhole.
var splitSeeds = []string{
	`{"data":{"id":"c","attributes":{"title":"T"},"relationships":{"content_nodes":{"data":[{"id":"a","attributes":{"title":"A","children":[{"id":"b"}]}},{"id":"z","title":"Z \"q]\\\\"}]}}},"meta":{"node_count":"9"}}`,
	` { "data" : { "relationships" : { "content_nodes" : [ {"id":1} , {"id":2,"attributes":{"attributes":{"k":"}{["}}} ] } } } `,
	`{"DATA":{"relationships":{"content_nodes":[{"id":1},{"id":2}]}}}`,
	`{"data":{"relationships":{"content_nodes":[{"id":1},{"id":2}]}},"data":{"id":"later"}}`,
	`{"data":{"relationships":{"content_nodes":[{"id":1},{"id":2}]},"Relationships":{"content_nodes":[{"id":3},{"id":4}]}}}`,
	`{"data":{"relationships":{"content_nodes":[{"id":1},{"id":2}],"content_nodes":[{"id":3},{"id":4}]}}}`,
	`{"data":{"relationships":{"content\u005fnodes":[{"id":1},{"id":2}]}}}`,
	`{"d\u0061ta":{"relationships":{"content_nodes":[{"id":1},{"id":2}]}}}`,
	`{"data":{"relationſhips":{"content_nodes":[{"id":1},{"id":2}]}}}`,
	`{"data":{"relationships":{"content_nodes":{"data":[{"id":1},{"id":2}],"Data":[]}}}}`,
	`{"data":{"relationships":{"content_nodes":null,"root_nodes":[{"id":1},{"id":2}]}}}`,
	`{"data":{"relationships":{"content_nodes":[{"id":1},{"id":[}]}}}`,
	`{"data":{"relationships":{"content_nodes":[{"id":1},{"id":2},]}}}`,
	`{"data":{"relationships":{"content_nodes":[{"id":1} {"id":2}]}}}`,
	`{"data":{"relationships":{"content_nodes":[{"id":1},{"attributes":{"title":7}}]}}}`,
	`{"data":{"relationships":{"content_nodes":[{"id":1},{"id":2}]}}} x`,
	`{"data":{"relationships":{"content_nodes":[{"id":1},{"id":2}]},"children":[{"id":3}]}}`,
	`{"data":{"id":"c","title":"plain","relationships":{"content_nodes":[{"id":1},{"id":2}]}},"meta":{"max_depth":4}}`,
	`{"data":{"relationships":{"content_nodes":[1,2]}}}`,
	`{"data":{"relationships":{"content_nodes":[{"id":1},{"id":2}]}}`,
}

// checkSplit holds decodeSplit to decodeWhole: a body it reads, the whole
// reading reads too, to the same result.
func checkSplit(t *testing.T, body []byte) {
	t.Helper()
	if nestsDeeper(body, MaxNesting) {
		return // decodeInto refuses it before either
	}
	var split, whole ResolvedCurriculum
	if !split.decodeSplit(body) {
		return
	}
	if err := whole.decodeWhole(body); err != nil {
		t.Fatalf("decodeSplit read a body decodeWhole refuses (%v)", err)
	}
	if !reflect.DeepEqual(split, whole) {
		t.Fatalf("decodeSplit read\n%+v\ndecodeWhole\n%+v", split, whole)
	}
}

// TestDecodeSplit: which bodies decodeSplit reads, and that each it reads
// reads as decodeWhole reads it.
func TestDecodeSplit(t *testing.T) {
	reads := map[int]bool{0: true, 1: true, 2: true, 16: true, 17: true}
	for i, body := range splitSeeds {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			var r ResolvedCurriculum
			if got := r.decodeSplit([]byte(body)); got != reads[i] {
				t.Errorf("decodeSplit(%s) = %v, want %v", body, got, reads[i])
			}
			checkSplit(t, []byte(body))
		})
	}
}

// TestDecodeSplitLargeTree reads a tree of many top nodes, each with a
// subtree, both ways, in both forms of the relationship.
func TestDecodeSplitLargeTree(t *testing.T) {
	var nodes []string
	for i := range 40 {
		var kids []string
		for j := range 5 {
			kids = append(kids, fmt.Sprintf(`{"id":"n%d-%d","attributes":{"title":"T %d.%d","depth":1,"attributes":{"body":"$x_%d$ \"]}\\\\","n":%d}}}`, i, j, i, j, j, j))
		}
		nodes = append(nodes, fmt.Sprintf(`{"id":"n%d","attributes":{"title":"U%d","position":%d,"children":[%s]}}`, i, i, i, strings.Join(kids, ",")))
	}
	list := "[" + strings.Join(nodes, ",\n") + "]"
	for _, rel := range []string{list, `{"data":` + list + `}`} {
		body := []byte(`{"data":{"id":"c","attributes":{"title":"C","locale":"es"},"relationships":{"content_nodes":` + rel + `}},"meta":{"variant_chain":["base"]}}`)
		var r ResolvedCurriculum
		if !r.decodeSplit(body) {
			t.Fatal("decodeSplit did not read the tree")
		}
		if len(r.Nodes) != 40 || r.NodeCount != 240 || r.Nodes[39].Children[4].Title != "T 39.4" {
			t.Fatalf("read %d top nodes, %d in all", len(r.Nodes), r.NodeCount)
		}
		checkSplit(t, body)
		var whole ResolvedCurriculum
		if err := whole.decodeBody(bytes.Clone(body)); err != nil || !reflect.DeepEqual(whole, r) {
			t.Fatalf("decodeBody: %v", err)
		}
	}
}

// resolvedBody is a resolved curriculum of units top nodes, each with
// perUnit lessons of six activities whose content is a few hundred
// bytes of text, math and code: about the bench tree's shape
// (.ci/bench-hugo.sh).
func resolvedBody(units, perUnit int) []byte {
	var b strings.Builder
	b.WriteString(`{"data":{"id":"1000","type":"resolved_curriculum","attributes":{"name":"Algebra 1","variant":"base","locale":"en"},"relationships":{"content_nodes":{"data":[`)
	node := func(id string, depth int, kids func()) {
		fmt.Fprintf(&b, `{"id":%q,"type":"content_node","attributes":{"title":"Node %s","position":1,"depth":%d,"node_type":{"name":"lesson"},"workflow_status":"published",`+
			`"attributes":{"description":"Solve $4x + 2 = 79$ and check the answer.\n\n`+"```python\\nprint(1)\\n```"+`\n\nExplain \"why\".","estimated_minutes":24,"learning_objectives":["Explore.","Reason."]},`+
			`"translation_metadata":{"is_translated":false,"translation_status":"original","source_locale":"en"}},"children":[`, id, id, depth)
		if kids != nil {
			kids()
		}
		b.WriteString(`]}`)
	}
	for u := range units {
		if u > 0 {
			b.WriteByte(',')
		}
		node(fmt.Sprint("u", u), 0, func() {
			for l := range perUnit {
				if l > 0 {
					b.WriteByte(',')
				}
				node(fmt.Sprint("l", u, "-", l), 1, func() {
					for a := range 6 {
						if a > 0 {
							b.WriteByte(',')
						}
						node(fmt.Sprint("a", u, "-", l, "-", a), 2, nil)
					}
				})
			}
		})
	}
	b.WriteString(`]}}},"meta":{"variant_chain":["base"]}}`)
	return []byte(b.String())
}

// BenchmarkDecodeResolved reads a resolved curriculum of about 5,000
// nodes in 17 units, split (decodeBody) and whole (decodeWhole).
func BenchmarkDecodeResolved(b *testing.B) {
	body := resolvedBody(17, 42)
	for _, c := range []struct {
		name   string
		decode func(*ResolvedCurriculum, []byte) error
	}{{"split", (*ResolvedCurriculum).decodeBody}, {"whole", (*ResolvedCurriculum).decodeWhole}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				var r ResolvedCurriculum
				if err := c.decode(&r, body); err != nil {
					b.Fatal(err)
				}
				if r.NodeCount != 17*(1+42*7) {
					b.Fatalf("%d nodes", r.NodeCount)
				}
			}
		})
	}
}
