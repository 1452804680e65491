package content

import (
	"encoding/json"
	"testing"
)

// BenchmarkNode renders a typical sample lesson: a description with a
// table and Python code, objectives, vocabulary, standards and a number.
func BenchmarkNode(b *testing.B) {
	title, attrs := sampleAttrs(b, "curriculum_201", "cs-m2-l2", "")
	r := New()
	if _, err := r.Node(attrs, title, nil, "n1-"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Node(attrs, title, nil, "n1-"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarkdownTable renders a lesson description with a GFM table.
func BenchmarkMarkdownTable(b *testing.B) {
	_, attrs := sampleAttrs(b, "101", "alg-u1-l1", "")
	var src string
	if err := json.Unmarshal(attrs["description"], &src); err != nil {
		b.Fatal(err)
	}
	r := New()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Markdown(src, "d-"); err != nil {
			b.Fatal(err)
		}
	}
}
