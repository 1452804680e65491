package mathml

import (
	"errors"
	"strings"
	"testing"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", `<math><mi>x</mi></math>`, `<math><mi>x</mi></math>`},
		{"display kept", `<math display="block" class="tml-display" style="display:block math;"><mn>1</mn></math>`, `<math display="block"><mn>1</mn></math>`},
		{"bad display", `<math display="flex"><mn>1</mn></math>`, `<math><mn>1</mn></math>`},
		{"operator attrs", `<math><mo form="prefix" stretchy="false" lspace="0em" rspace="0.2222em">−</mo></math>`, `<math><mo form="prefix" stretchy="false" lspace="0em" rspace="0.2222em">−</mo></math>`},
		{"annotation tex", `<math><semantics><mi>x</mi><annotation encoding="application/x-tex">x&lt;1</annotation></semantics></math>`, `<math><semantics><mi>x</mi><annotation encoding="application/x-tex">x&lt;1</annotation></semantics></math>`},
		{"annotation other", `<math><semantics><mi>x</mi><annotation encoding="text/html">&lt;b&gt;</annotation></semantics></math>`, `<math><semantics><mi>x</mi></semantics></math>`},
		{"annotation-xml dropped", `<math><semantics><mi>x</mi><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml></semantics></math>`, `<math><semantics><mi>x</mi></semantics></math>`},
		{"href", `<math><mi href="javascript:alert(1)">x</mi></math>`, `<math><mi>x</mi></math>`},
		{"xlink", `<math><mi xlink:href="javascript:alert(1)">x</mi></math>`, `<math><mi>x</mi></math>`},
		{"events", `<math onload="alert(1)"><mi onclick="alert(1)" onmouseover=x>x</mi></math>`, `<math><mi>x</mi></math>`},
		{"style class id", `<math><mi style="color:red" class="a" id="b" mathcolor="red" mathbackground="blue">x</mi></math>`, `<math><mi>x</mi></math>`},
		{"svg dropped", `<math><mrow><svg><script>alert(1)</script></svg><mi>x</mi></mrow></math>`, `<math><mrow><mi>x</mi></mrow></math>`},
		{"html in mtext dropped", `<math><mtext><img src=x onerror=alert(1)>a</mtext></math>`, `<math><mtext>a</mtext></math>`},
		{"script", `<math><script>alert(1)</script><mi>x</mi></math>`, `<math><mi>x</mi></math>`},
		{"maction dropped", `<math><maction actiontype="statusline"><mi>x</mi><mtext>y</mtext></maction></math>`, `<math></math>`},
		{"nested math", `<math><mrow><math><mi>x</mi></math></mrow></math>`, `<math><mrow></mrow></math>`},
		{"length checked", `<math><mspace width="1em;background:url(x)"/><mspace width="0.5em"/></math>`, `<math><mspace></mspace><mspace width="0.5em"></mspace></math>`},
		{"notation words", `<math><menclose notation="updiagonalstrike box"><mi>x</mi></menclose></math>`, `<math><menclose notation="updiagonalstrike box"><mi>x</mi></menclose></math>`},
		{"align class", `<math><mtable><mtr><mtd class="tml-left" style="padding:0"><mi>x</mi></mtd></mtr></mtable></math>`, `<math><mtable><mtr><mtd columnalign="left"><mi>x</mi></mtd></mtr></mtable></math>`},
		{"align explicit wins", `<math><mtable><mtr><mtd columnalign="right" class="tml-left"><mi>x</mi></mtd></mtr></mtable></math>`, `<math><mtable><mtr><mtd columnalign="right"><mi>x</mi></mtd></mtr></mtable></math>`},
		{"text escaped", `<math><mtext>&lt;script&gt;&amp;"</mtext></math>`, `<math><mtext>&lt;script&gt;&amp;&#34;</mtext></math>`},
		{"prefix junk", `<p>hi</p><math><mi>x</mi></math><b>after</b>`, `<math><mi>x</mi></math>`},
		{"scripts", `<math><mmultiscripts><mi>X</mi><none/><mi>a</mi><mprescripts/><mi>b</mi><none/></mmultiscripts></math>`, `<math><mmultiscripts><mi>X</mi><none></none><mi>a</mi><mprescripts></mprescripts><mi>b</mi><none></none></mmultiscripts></math>`},
		{"comment", `<math><!-- x --><mi>x</mi></math>`, `<math><mi>x</mi></math>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Sanitize(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Sanitize(%q)\n got %s\nwant %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestSanitizeNoMath(t *testing.T) {
	for _, in := range []string{"", "x", "<p>x</p>", "<svg><math></math></svg>"} {
		if _, err := Sanitize(in); !errors.Is(err, ErrNoMath) {
			t.Errorf("Sanitize(%q): err %v, want ErrNoMath", in, err)
		}
	}
}

// checkSafe fails t when out holds anything Sanitize must never let
// through: an element outside the list, an attribute outside the list,
// a second math element, or text that parses to markup.
func checkSafe(t *testing.T, out string) {
	t.Helper()
	if out == "" {
		return
	}
	if !strings.HasPrefix(out, "<math") || !strings.HasSuffix(out, "</math>") {
		t.Fatalf("not one math element: %q", out)
	}
	nodes, err := nethtml.ParseFragment(strings.NewReader(out), &nethtml.Node{Type: nethtml.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		t.Fatal(err)
	}
	maths := 0
	var walk func(n *nethtml.Node)
	walk = func(n *nethtml.Node) {
		if n.Type == nethtml.ElementNode {
			if n.Namespace != "math" || !elements[n.Data] {
				t.Fatalf("element %s:%s in %q", n.Namespace, n.Data, out)
			}
			if n.Data == "math" {
				maths++
			}
			for _, a := range n.Attr {
				if ok := attributes[a.Key]; a.Namespace != "" || ok == nil || !ok(a.Val) {
					t.Fatalf("attribute %s:%s=%q in %q", a.Namespace, a.Key, a.Val, out)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	if maths != 1 {
		t.Fatalf("%d math elements in %q", maths, out)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		`<math><mi>x</mi></math>`,
		`<math display="block"><semantics><mfrac><mn>1</mn><mn>2</mn></mfrac><annotation encoding="application/x-tex">\frac12</annotation></semantics></math>`,
		`<math><mtext><img src=x onerror=alert(1)></mtext><svg><a xlink:href="javascript:x">y</a></svg></math>`,
		`<math><mtable><mtr><mtd class="tml-left" style="x">1</mtd></mtr></mtable></math>`,
		`<math><annotation-xml encoding="text/html"><p>x</p></annotation-xml></math>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := Sanitize(s)
		if err != nil {
			return
		}
		checkSafe(t, out)
		// Sanitizing is idempotent: its output is already clean.
		again, err := Sanitize(out)
		if err != nil || again != out {
			t.Fatalf("Sanitize not idempotent:\n%q\n%q (%v)", out, again, err)
		}
	})
}
