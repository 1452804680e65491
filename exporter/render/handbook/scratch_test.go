package handbook

import (
	"fmt"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/testtrees"
	"github.com/curex/curex/exporter/model"
)

func TestScratchDump(t *testing.T) {
	set := testtrees.Sample(t)
	for _, tr := range set.Trees {
		fmt.Println(tr.Dir(), tr.CurriculumName, tr.Variant, tr.Locale, tr.PrimaryLocale, tr.VariantChain, tr.ResolvedAt, tr.Count())
	}
	for _, d := range []string{"algebra-1/texas/es", "algebra-1/houston-isd/ar"} {
		tr := set.Find(t, d).PublishedOnly()
		fmt.Printf("== %s %+v\n", d, tr.Export)
		var walk func(ns []*model.Node, ind string)
		walk = func(ns []*model.Node, ind string) {
			for _, n := range ns {
				keys := []string{}
				for k := range n.Attributes {
					keys = append(keys, k)
				}
				fmt.Printf("%s%q type=%+v ord=%q td=%q depth=%d pos=%d tr=%+v inh=%+v path=%s keys=%s\n", ind, n.Title, n.NodeType, n.OrdinalLabel, n.TypeDisplay, n.Depth, n.Position, n.Translation, n.Inheritance, n.Path, strings.Join(keys, ","))
				walk(n.Children, ind+"  ")
			}
		}
		walk(tr.Nodes, "")
	}
}
