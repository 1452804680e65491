package cartridge

import (
	"encoding/json"
	"testing"

	"github.com/curex/curex/exporter/internal/slug"
)

// FuzzBuild builds cartridges of a unit and a lesson whose title, id and
// description come from the fuzzer, as an API could send them: the
// archive must open, its manifest parse and match the tree, every page be
// well-formed, whatever the input.
func FuzzBuild(f *testing.F) {
	f.Add("Unit 1", "u1", "Plain *text* with $x^2$.")
	f.Add(`</title><script>alert(1)</script>`, "../../etc/passwd", "<script>x</script> & ]]> <![CDATA[")
	f.Add("\x00\x1b\uFFFE\u202e", "CON", "![img](https://x.example/a.png) [link](javascript:alert(1))")
	f.Add("", "", "$$\\frac{1}{2}$$ \\begin{x}")
	r := New(Options{SiteURL: testSite})
	f.Fuzz(func(t *testing.T, title, id, desc string) {
		d, err := json.Marshal(desc)
		if err != nil {
			t.Skip()
		}
		lesson := node("lesson-"+slug.ID(id), title, map[string]string{"description": string(d)})
		lesson.ID = id
		unit := node(slug.ID(id), title, map[string]string{"title": string(d)}, lesson)
		unit.ID = id
		tr := tree("ar", unit)
		tr.VariantChain = []string{title, desc}
		check(t, tr, open(t, makeCartridge(t, r, tr)), true)
	})
}
