package content

import (
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/mathml"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestDisplayMathOnOneLine renders every display and inline form of math,
// alone and in sequence with paragraphs, lists, images and other display
// blocks, and checks the structure of the result: a display formula that
// opens and closes on one line ("$$y = mx + b$$", "\[y = mx + b\]") is one
// block that ends on that line, and what follows is a block of its own.
// The cases named "issue 25" are the reproductions of the issue: before
// the fix the formula took the following lines as its TeX (the paragraph,
// the image drawn as letters, the next formula, with "Can't use function
// '$' in math mode").
//
// The outline (see outline) writes a display block as "$$", inline math
// as "$", text as "t", a math error as "!", and other elements as their
// tag and children.
func TestDisplayMathOnOneLine(t *testing.T) {
	r := New()
	const img = "![A rising line, through (0, 1) with slope 2](https://img.example/line.png)"
	tests := []struct {
		name, src, want string
	}{
		// Every form alone.
		{"dollars alone", "$$y = mx + b$$", "$$"},
		{"brackets alone", `\[y = mx + b\]`, "$$"},
		{"dollars with spaces", "   $$ y = mx + b $$  ", "$$"},
		{"brackets with spaces", `  \[ y = mx + b \]	`, "$$"},
		{"dollars alone, line ending", "$$y = mx + b$$\n", "$$"},
		{"multi-line dollars", "$$\ny = mx + b\n$$", "$$"},
		{"multi-line brackets", "\\[\ny = mx + b\n\\]", "$$"},
		{"math fence", "```math\ny = mx + b\n```", "$$"},
		{"inline dollar", "$y = mx + b$", "p($)"},
		{"inline paren", `\(y = mx + b\)`, "p($)"},
		{"inline dollars in text", "so $$y = mx + b$$ here", "p(t $ t)"},
		{"inline brackets in text", `so \[y = mx + b\] here`, "p(t $ t)"},

		// The reproductions.
		{"issue 25: paragraph on the next line", "$$y = mx + b$$\nThe slope is m.", "$$ p(t)"},
		{"issue 25: paragraph after a blank line", "$$y = mx + b$$\n\nThe slope is m.", "$$ p(t)"},
		{"issue 25: image on the next line", "$$y = mx + b$$\n" + img, "$$ p(img)"},
		{"issue 25: brackets, paragraph on the next line", "\\[y = mx + b\\]\nThe slope is m.", "$$ p(t)"},
		{"issue 25: brackets, image after a blank line", "\\[y = mx + b\\]\n\n" + img, "$$ p(img)"},
		{"issue 25: two blocks and a paragraph between", "$$y = mx + b$$\nThe slope is m.\n$$m = 2$$\n\nAfter.", "$$ p(t) $$ p(t)"},
		{"issue 25: two blocks in a row", "$$y = mx + b$$\n$$m = 2$$", "$$ $$"},

		// In sequence with other blocks.
		{"after a paragraph", "Before.\n$$y = mx + b$$\nAfter.", "p(t) $$ p(t)"},
		{"before a list", "$$y = mx + b$$\n- one\n- two", "$$ ul(li(t) li(t))"},
		{"in a list", "- $$y = mx + b$$\n- two\n\nAfter.", "ul(li($$) li(t)) p(t)"},
		{"in a list item with text after", "- $$y = mx + b$$\n  more\n- two", "ul(li($$ t) li(t))"},
		{"in a quote", "> $$y = mx + b$$\n> after", "blockquote($$ p(t))"},
		{"before indented code", "$$y = mx + b$$\n\n    code", "$$ pre(code(t))"},
		{"a fence whose language reads as math", "```Math!\nc\n```\n~~~~ {math} x\nd\n~~~~\nAfter.", "$$ $$ p(t)"},
		{"every display form in a row", "$$a$$\n\\[b\\]\n```math\nc\n```\n$$\nd\n$$\n\\[\ne\n\\]\nText $f$ and \\(g\\).", "$$ $$ $$ $$ $$ p(t $ t $ t)"},
		{"multi-line then one-line", "$$\na\n$$\n$$b$$\nAfter.", "$$ $$ p(t)"},
		{"one-line then multi-line", "$$a$$\n$$\nb\n$$\nAfter.", "$$ $$ p(t)"},
		{"image then block", img + "\n\n$$y = mx + b$$\nAfter.", "p(img) $$ p(t)"},

		// Lines that are not a display block.
		{"two displays and text on one line", "$$a$$ b $$c$$", "p($ t $)"},
		{"two displays on one line", "$$a$$ $$c$$\nnext", "p($ $ t)"},
		{"display then text", "$$a$$ is the line\nnext", "p($ t)"},
		{"in a code span", "`$$y = mx + b$$`\nnext", "p(code(t) t)"},
		{"escaped opener", "\\$$y = mx + b$$\nnext", "p(t $ t)"},
		{"escaped closer", "$$y = mx + b\\$$\nnext", "p(t)"},
		{"empty dollars", "$$ $$\nnext", "p(t)"},
		{"prose dollars", "$$5 off\nnext", "p(t)"},

		// A block that never closes is text: TeX allows no blank line in
		// display math, so what follows a blank line stays what it is
		// (before, the rest of the description became the formula).
		{"unclosed dollars, then paragraph and image", "$$\ny = mx + b\n\nNext.\n\n" + img, "p(t) p(t) p(img)"},
		{"unclosed brackets, then a list", "\\[\ny = mx + b\n\n- one\n- two", "p(t) ul(li(t) li(t))"},
		{"unclosed at the end", "Before.\n\n$$\ny = mx + b", "p(t) p(t)"},
		{"closed after an unclosed one", "$$\na\n\n$$\nb\n$$\nAfter.", "p(t) $$ p(t)"},
		{"multi-line with a closer on its last line", "$$\na +\nb $$\nAfter.", "$$ p(t)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tally Tally
			got, err := r.Tallied(&tally).Markdown(tt.src, "m-")
			if err != nil {
				t.Fatal(err)
			}
			checkHTML(t, string(got))
			if o := outline(t, string(got)); o != tt.want {
				t.Errorf("Markdown(%q) =\n%s\noutline %q, want %q", tt.src, got, o, tt.want)
			}
			if n := tally.MathErrors(); n != 0 {
				t.Errorf("Markdown(%q): %d math errors, want none:\n%s", tt.src, n, got)
			}
			// The other formats find math with mathml.Scan: one reading.
			// (it sees no list or quote, so count expressions, not blocks).
			want := strings.Count(tt.want, "$$") + strings.Count(strings.ReplaceAll(tt.want, "$$", ""), "$")
			if n := len(mathml.Scan(tt.src)); n != want {
				t.Errorf("mathml.Scan(%q) finds %d expressions, the website %d", tt.src, n, want)
			}
		})
	}
}

// outline writes the structure of the HTML fragment s: a display block
// (a div of class math-display) as "$$", any other math element as "$",
// a math error as "!", an image as "img", a run of text as "t", and any
// other element as its tag, with its children in parentheses.
func outline(t *testing.T, s string) string {
	t.Helper()
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(s), ctx)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, n := range nodes {
		if p := outlineNode(n); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

func outlineNode(n *html.Node) string {
	switch n.Type {
	case html.TextNode:
		if strings.TrimSpace(n.Data) == "" {
			return ""
		}
		return "t"
	case html.ElementNode:
	default:
		return ""
	}
	class := ""
	for _, a := range n.Attr {
		if a.Key == "class" {
			class = a.Val
		}
	}
	switch {
	case class == "math-display":
		return "$$"
	case class == "math-error":
		return "!"
	case n.Data == "math":
		return "$"
	case n.Data == "img":
		return "img"
	}
	var parts []string
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if p := outlineNode(c); p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return n.Data
	}
	return n.Data + "(" + strings.Join(parts, " ") + ")"
}

// FuzzDisplayMathOnOneLine renders an arbitrary formula as a display
// block on one line, "$$...$$" or "\[...\]", followed on the next line by
// a paragraph: the paragraph must stay a paragraph of its own, whatever
// the formula (issue 25).
func FuzzDisplayMathOnOneLine(f *testing.F) {
	for _, s := range []string{"y = mx + b", `\frac{a}{b}`, " x ", "a$b", `\]`, "`x`", "![i](u)", `\foo`} {
		f.Add(s, false)
		f.Add(s, true)
	}
	r := New()
	onPanic = func(v any) { panic(v) }
	f.Fuzz(func(t *testing.T, tex string, brackets bool) {
		if strings.TrimSpace(tex) == "" || strings.ContainsAny(tex, "$\\\r\n") {
			return // not a block on one line, or its closer may come early
		}
		src := "$$" + tex + "$$"
		if brackets {
			src = `\[` + tex + `\]`
		}
		got, err := r.Markdown(src+"\nAfterword.", "f-")
		if err != nil {
			t.Fatal(err)
		}
		checkHTML(t, string(got))
		if !strings.HasSuffix(string(got), "<p>Afterword.</p>\n") {
			t.Fatalf("Markdown(%q) =\n%s\nthe paragraph after the formula is not its own", src+"\nAfterword.", got)
		}
	})
}
