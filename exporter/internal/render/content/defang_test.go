package content

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	xhtml "golang.org/x/net/html"
)

// trusting returns the renderers Defang's output must be safe in: goldmark
// with raw HTML and every URL let through, as a site that trusts its
// Markdown renders it, with and without footnotes.
func trusting() []goldmark.Markdown {
	gfm := []goldmark.Extender{extension.GFM}
	return []goldmark.Markdown{
		goldmark.New(goldmark.WithExtensions(append(gfm, extension.Footnote)...), goldmark.WithRendererOptions(html.WithUnsafe())),
		goldmark.New(goldmark.WithExtensions(gfm...), goldmark.WithRendererOptions(html.WithUnsafe())),
	}
}

// markdownMade are the elements a Markdown renderer writes for Markdown
// itself; any other element in the output came from raw HTML.
var markdownMade = map[string]bool{
	"p": true, "a": true, "img": true, "em": true, "strong": true, "code": true, "pre": true,
	"ul": true, "ol": true, "li": true, "blockquote": true, "hr": true, "br": true, "del": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "input": true,
	"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true,
	"sup": true, "section": true, "div": true,
}

// trustedProblem renders md as a trusting site would and returns what in
// the result could run or mislead: a raw element, an event handler, a
// URL with a refused scheme. Raw HTML that Markdown would also write (an
// <em>) is caught by the fixed-point check of TestDefang, not here.
func trustedProblem(md string) string {
	for i, m := range trusting() {
		var buf bytes.Buffer
		if err := m.Convert([]byte(md), &buf); err != nil {
			return err.Error()
		}
		z := xhtml.NewTokenizer(&buf)
		for {
			tt := z.Next()
			if tt == xhtml.ErrorToken {
				break
			}
			if tt == xhtml.CommentToken {
				return "a comment in renderer " + string(rune('A'+i))
			}
			if tt != xhtml.StartTagToken && tt != xhtml.SelfClosingTagToken {
				continue
			}
			tok := z.Token()
			if !markdownMade[tok.Data] {
				return "element <" + tok.Data + "> in renderer " + string(rune('A'+i))
			}
			for _, a := range tok.Attr {
				switch a.Key {
				case "href", "src":
					if !LinkAllowed(a.Val) {
						return a.Key + "=" + a.Val + " in renderer " + string(rune('A'+i))
					}
				case "alt", "title", "id", "class", "type", "checked", "disabled", "align", "start", "role", "style":
				default:
					return "attribute " + a.Key + " in renderer " + string(rune('A'+i))
				}
			}
		}
	}
	return ""
}

func TestDefang(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "Some *text* and [a link](https://example.org).", "Some *text* and [a link](https://example.org)."},
		{"no brackets no parse", "x > y and a & b", "x > y and a & b"},
		{"javascript link", "a [click](javascript:alert(1)) b", "a click b"},
		{"mixed case and entity", "[x](JaVaScRiPt:a) [y](&#106;avascript:b)", "x y"},
		{"data image", "![pic](data:image/svg+xml;base64,PHN2Zz4=)", "pic"},
		{"allowed image and mailto", "![p](https://e.org/a.png) [m](mailto:a@b.c)", "![p](https://e.org/a.png) [m](mailto:a@b.c)"},
		{"relative link kept", "[next](../b.md)", "[next](../b.md)"},
		{"reference link", "[x][r]\n\n[r]: vbscript:a", "x\n\n[r]: vbscript:a"},
		{"shortcut reference", "[r]\n\n[r]: javascript:a", "r\n\n[r]: javascript:a"},
		{"footnote label as reference", "[^1]\n\n[^1]: javascript:a", "^1\n\n[^1]: javascript:a"},
		{"autolink", "<javascript:alert(1)> <https://ok.org>", "&lt;javascript:alert(1)> <https://ok.org>"},
		{"inline html", "text <b onclick=x>bold</b>", "text &lt;b onclick=x>bold&lt;/b>"},
		{"lax tag", "x <img src=x onerror=alert`1`>", "x &lt;img src=x onerror=alert`1`>"},
		{"backslash lt", `a \<script> b`, "a &lt;script> b"},
		{"comparison", "if x<y then", "if x&lt;y then"},
		{"inline comment", "a <!-- note --> b", "a  b"},
		{"html block", "<script>alert(1)</script>", "```html\n<script>alert(1)</script>\n```"},
		{"html block then text", "<div>\n*x*\n\nafter", "```html\n<div>\n*x*\n```\n\nafter"},
		{"comment block", "<!-- note -->\n\ntext", "\ntext"},
		{"html in list", "- item\n  <div onclick=x>\n  hi", "- item\n  &lt;div onclick=x>\n  hi"},
		{"html in quote", "> <img src=x onerror=y>", "> &lt;img src=x onerror=y>"},
		{"made syntax", "[<](javascript:a)javascript:alert(1)>", "&lt;javascript:alert(1)>"},
		{"image in link", "[![a](javascript:b)](javascript:c)", "a"},
		{"code span kept", "`<b>` and `[x](javascript:y)`", "`<b>` and `[x](javascript:y)`"},
		{"fenced code kept", "```html\n<script>x</script>\n```", "```html\n<script>x</script>\n```"},
		{"math spaced", `$a<b>c$ and \(x<y\) $x < 1$`, `$a< b>c$ and \(x< y\) $x < 1$`},
		{"math link", "$[x](javascript:y)$", "$x$"},
		{"display math", "$$\n<img src=x onerror=y>\n$$", "$$\n< img src=x onerror=y>\n$$"},
		{"backticks in block", "<pre>\n````\n</pre>", "`````html\n<pre>\n````\n</pre>\n`````"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Defang(tc.in)
			if got != tc.want {
				t.Errorf("Defang(%q)\n = %q\nwant %q", tc.in, got, tc.want)
			}
			if p := trustedProblem(got); p != "" {
				t.Errorf("Defang(%q) = %q: %s", tc.in, got, p)
			}
			if again := Defang(got); again != got {
				t.Errorf("Defang is not idempotent on %q: %q", got, again)
			}
		})
	}
}

func TestDefangNested(t *testing.T) {
	cases := []struct{ in, want string }{
		{"<div>x</div>", "&lt;div>x&lt;/div>"},
		{"a [b](javascript:c) d", "a b d"},
		{"plain | cell", "plain | cell"},
	}
	for _, tc := range cases {
		if got := DefangNested(tc.in); got != tc.want {
			t.Errorf("DefangNested(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := DefangNested(tc.in); strings.Contains(got, "\n") {
			t.Errorf("DefangNested(%q) = %q spans lines", tc.in, got)
		}
	}
}

// FuzzDefang checks that Defang's output renders safely in a trusting
// renderer, leaves nothing for another round (a fixed point), and keeps
// every string without '<' or '[' as it is.
func FuzzDefang(f *testing.F) {
	for _, s := range []string{
		"[x](javascript:alert(1)) <script>a</script> <b>",
		"[<](javascript:a)javascript:alert(1)>",
		"- a\n  <div>\n> <img src=x onerror=y>",
		"[x][r]\n\n[r]: javascript:a\n[^1]: vbscript:b",
		"`<b>` $a<b>c$ ```\n<i>\n```",
		"<!-- c --> <?php x ?> <![CDATA[y]]>",
		"| a | <b>c</b> |\n|---|---|\n| [x](data:a) | d |",
		"[a\n> b](javascript:x)",
	} {
		f.Add(s)
	}
	onPanic = func(v any) { panic(v) }
	f.Fuzz(func(t *testing.T, src string) {
		got := Defang(src)
		if !strings.ContainsAny(src, "<[") && got != src {
			t.Fatalf("Defang(%q) = %q changed a string without '<' or '['", src, got)
		}
		if p := trustedProblem(got); p != "" {
			t.Fatalf("Defang(%q) = %q: %s", src, got, p)
		}
		for _, r := range readings() {
			if next, changed := defangOnce(r, got, true); changed {
				t.Fatalf("Defang(%q) = %q is no fixed point: %q", src, got, next)
			}
		}
		line := DefangNested(src)
		if p := trustedProblem(line); p != "" {
			t.Fatalf("DefangNested(%q) = %q: %s", src, line, p)
		}
	})
}

// BenchmarkDefang defangs a lesson description of about 150 words with a
// link, an image, a comparison and inline math (parsed four ways), and one
// without '<' or '[' (not parsed), and reports bytes per second.
func BenchmarkDefang(b *testing.B) {
	rich := strings.Repeat("Students compare $x<3$ with x < 5 and read [the guide](https://example.org/guide). ", 8) +
		"\n\n![A number line](https://example.org/line.png)\n\n- one\n- two\n"
	plain := strings.Repeat("Students compare values on a number line and describe the solution set. ", 12)
	for _, tc := range []struct{ name, src string }{{"rich", rich}, {"plain", plain}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.src)))
			b.ReportAllocs()
			for b.Loop() {
				_ = Defang(tc.src)
			}
		})
	}
}
