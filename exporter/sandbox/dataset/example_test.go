package dataset_test

import (
	"fmt"

	"github.com/curex/curex/exporter/sandbox/dataset"
)

// Resolve applies a variant chain's overrides and additions and a locale's
// translations, and says where each node's content comes from.
func ExampleIndex_Resolve() {
	ds, err := dataset.Open("testdata/tiny.json")
	if err != nil {
		panic(err)
	}
	ix, err := dataset.NewIndex(ds)
	if err != nil {
		panic(err)
	}
	tree, err := ix.Resolve("v2", "es")
	if err != nil {
		panic(err)
	}
	tree.Walk(func(n *dataset.ResolvedNode) {
		if n.Depth == 0 {
			fmt.Printf("%s: %s (from %s, %s)\n", n.TypeDisplay, n.Title, n.Inheritance.SourceCurriculum, n.Translation.Status)
		}
	})
	// Output:
	// Unidad 1: Welcome (from District, fallback)
	// Unidad 2: Unidad uno (from Base, translated)
	// Unidad 3: Unit two (from District, fallback)
	// Appendix A: Glossary (from Base, fallback)
}
