package xhtml_test

import (
	"testing"

	"github.com/curex/curex/exporter/internal/render/xhtml"
)

// FuzzConvert: whatever the fragment, the output parses as XML inside an
// XHTML body, with every name in a namespace the output may use.
func FuzzConvert(f *testing.F) {
	for _, s := range []string{
		"<p>a<br>b</p>",
		`<math display="block"><mfrac><mi>a</mi><mn>2</mn></mfrac></math>`,
		`<svg><foreignObject><p>x</p></foreignObject></svg>`,
		`<a"b c<d=1 xml:lang=x xlink:href=y>&amp;&nbsp;</a"b>`,
		"<table><td>\x00</table><template><b>x</b></template>",
		`<math><annotation-xml encoding="text/html"><i lang=ar>x</i></annotation-xml></math>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := xhtml.Convert(in)
		if err != nil {
			t.Fatal(err)
		}
		checkWellFormed(t, out)
	})
}
