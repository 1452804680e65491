package xhtml_test

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/xhtml"
)

func TestConvert(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"text", "a & b < c > d", "a &amp; b &lt; c &gt; d"},
		{"entities decoded", "&eacute;&nbsp;&copy;&lt;", "é\u00a0©&lt;"},
		{"void self-closed", `<p>a<br>b<img src="x.png" alt="">c<hr></p>`, `<p>a<br/>b<img src="x.png" alt=""/>c</p><hr/><p></p>`},
		{"unquoted attribute", `<a href=x.html title='say "hi"'>x</a>`, `<a href="x.html" title="say &quot;hi&quot;">x</a>`},
		{"boolean attribute", `<input disabled>`, `<input disabled=""/>`},
		{"empty non-void", `<p></p><span></span>`, `<p></p><span></span>`},
		{"unclosed", `<ul><li>a<li>b</ul><p>c`, `<ul><li>a</li><li>b</li></ul><p>c</p>`},
		{"lang", `<span lang="ar">س</span>`, `<span lang="ar" xml:lang="ar">س</span>`},
		{"lang and xml:lang", `<span lang="fr" xml:lang="fr">x</span>`, `<span lang="fr" xml:lang="fr">x</span>`},
		{"comment dropped", `a<!-- b -->c`, `ac`},
		{"mathml namespace", `<math display="block"><mi>x</mi><mo>=</mo><mn>1</mn></math>`,
			`<math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><mi>x</mi><mo>=</mo><mn>1</mn></math>`},
		{"mathml empty element", `<math><mspace width="1em"></mspace></math>`,
			`<math xmlns="http://www.w3.org/1998/Math/MathML"><mspace width="1em"/></math>`},
		{"mathml camel attribute", `<math><semantics><mi>x</mi><annotation encoding="application/x-tex">x&lt;1</annotation></semantics></math>`,
			`<math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mi>x</mi><annotation encoding="application/x-tex">x&lt;1</annotation></semantics></math>`},
		{"html inside mathml", `<math><mtext><b>x</b></mtext></math>`,
			`<math xmlns="http://www.w3.org/1998/Math/MathML"><mtext><b xmlns="http://www.w3.org/1999/xhtml">x</b></mtext></math>`},
		{"svg", `<svg viewbox="0 0 1 1"><a xlink:href="#x"><circle r="1"/></a></svg>`,
			`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><a xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="#x"><circle r="1"/></a></svg>`},
		{"own xmlns dropped", `<p xmlns="urn:evil" xmlns:x="urn:y">a</p>`, `<p>a</p>`},
		{"bad attribute name dropped", `<p a"b="1" c<d=2 e=3>x</p>`, `<p e="3">x</p>`},
		{"prefixed attribute dropped", `<p x:y="1">x</p>`, `<p>x</p>`},
		{"bad element name unwrapped", `<a"b>x</a"b>`, `x`},
		{"duplicate attribute", `<p class="a" class="b">x</p>`, `<p class="a">x</p>`},
		{"control characters", "a\x01b\x0bc\ufffed", "a\ufffdb\ufffdc\ufffdd"},
		{"invalid utf-8", "a\xffb", "a\ufffdb"},
		{"attribute whitespace kept", "<p title=\"a\tb\nc\">x</p>", `<p title="a&#9;b&#10;c">x</p>`},
		{"style text escaped", `<style>a > b { }</style>`, `<style>a &gt; b { }</style>`},
		{"script kept as text", `<script>if (a < b && c) {}</script>`, `<script>if (a &lt; b &amp;&amp; c) {}</script>`},
		{"cdata end", `]]>`, `]]&gt;`},
		{"table", `<table><tr><td>1</td></tr></table>`, `<table><tbody><tr><td>1</td></tr></tbody></table>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := xhtml.Convert(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Convert(%q)\n got %s\nwant %s", tt.in, got, tt.want)
			}
			checkWellFormed(t, got)
		})
	}
}

// TestWriteError: a reader's error comes back wrapped.
func TestWriteError(t *testing.T) {
	boom := errors.New("boom")
	err := xhtml.Write(io.Discard, io.MultiReader(strings.NewReader("<p>"), errReader{boom}))
	if !errors.Is(err, boom) {
		t.Fatalf("Write = %v, want %v", err, boom)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// checkWellFormed fails t unless out, inside an XHTML body, parses as XML
// and every element and attribute is in a namespace the output may use.
func checkWellFormed(t *testing.T, out string) {
	t.Helper()
	doc := `<body xmlns="` + xhtml.NamespaceXHTML + `">` + out + `</body>`
	d := xml.NewDecoder(strings.NewReader(doc))
	d.Strict = true
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, out)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Space {
		case xhtml.NamespaceXHTML, xhtml.NamespaceMathML, xhtml.NamespaceSVG:
		default:
			t.Fatalf("element %s in namespace %q\n%s", se.Name.Local, se.Name.Space, out)
		}
		for _, a := range se.Attr {
			switch a.Name.Space {
			case "", "xmlns", "http://www.w3.org/XML/1998/namespace", xhtml.NamespaceXLink:
			default:
				t.Fatalf("attribute %s in namespace %q\n%s", a.Name.Local, a.Name.Space, out)
			}
		}
	}
}
