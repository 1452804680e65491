package content

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/curex/curex/exporter/internal/render/mathstyle"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// forbiddenElements may never appear as elements in rendered output.
var forbiddenElements = map[string]bool{
	"script": true, "style": true, "iframe": true, "frame": true, "frameset": true,
	"object": true, "embed": true, "applet": true, "form": true, "button": true,
	"textarea": true, "select": true, "link": true, "meta": true, "base": true,
	"svg": true, "template": true, "noscript": true, "html": true,
	"head": true, "body": true, "title": true, "xmp": true, "plaintext": true,
	"noembed": true, "noframes": true, "audio": true, "video": true, "source": true,
}

// allowedAttrs are the only attributes any element may carry.
var allowedAttrs = map[string]bool{
	"href": true, "src": true, "alt": true, "title": true, "rel": true, "loading": true,
	"id": true, "class": true, "role": true, "align": true, "data-lang": true,
	"start": true, "type": true, "checked": true, "disabled": true, "tabindex": true, "width": true, "height": true,
}

// mathElements and mathAttrs are the MathML the output may hold (package
// mathml's sanitizer keeps these and no more): presentation elements,
// attributes with no URL, style or script.
var mathElements = map[string]bool{
	"math": true, "semantics": true, "annotation": true, "mrow": true, "mi": true, "mn": true,
	"mo": true, "ms": true, "mtext": true, "mspace": true, "msup": true, "msub": true,
	"msubsup": true, "mfrac": true, "msqrt": true, "mroot": true, "mover": true, "munder": true,
	"munderover": true, "mmultiscripts": true, "mprescripts": true, "none": true, "mtable": true,
	"mtr": true, "mtd": true, "mlabeledtr": true, "mstyle": true, "mpadded": true,
	"mphantom": true, "menclose": true, "merror": true,
}

var mathAttrs = map[string]bool{
	"display": true, "mathvariant": true, "stretchy": true, "fence": true, "separator": true,
	"accent": true, "accentunder": true, "displaystyle": true, "movablelimits": true,
	"largeop": true, "symmetric": true, "form": true, "lspace": true, "rspace": true,
	"width": true, "height": true, "depth": true, "voffset": true, "minsize": true,
	"maxsize": true, "mathsize": true, "linethickness": true, "scriptlevel": true,
	"rowspacing": true, "columnspacing": true, "columnalign": true, "rowalign": true,
	"notation": true, "columnlines": true, "rowlines": true, "frame": true, "encoding": true,
}

var voidElements = map[string]bool{
	"area": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true,
}

var scriptTag = regexp.MustCompile(`(?i)<\s*script`)

// checkHTML fails t unless s is balanced HTML with no forbidden element,
// no attribute outside allowedAttrs (so no on*= handler and no style=), no
// URL a browser would run, and no input other than a disabled checkbox.
func checkHTML(t testing.TB, s string) {
	t.Helper()
	if problem := htmlProblem(s); problem != "" {
		t.Fatalf("%s\n--- output (first 2000 bytes):\n%.2000s", problem, s)
	}
}

// htmlProblem returns what is wrong with s, or "".
func htmlProblem(s string) string {
	if scriptTag.MatchString(s) {
		return "output contains <script"
	}
	if p := treeProblem(s); p != "" {
		return p
	}
	z := html.NewTokenizer(strings.NewReader(s))
	var stack []string
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if len(stack) != 0 {
				return "unclosed elements: " + strings.Join(stack, " ")
			}
			return ""
		case html.CommentToken:
			return "output contains a comment: " + string(z.Raw())
		case html.DoctypeToken:
			return "output contains a doctype"
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			if forbiddenElements[tok.Data] {
				return "forbidden element <" + tok.Data + ">"
			}
			attrs := map[string]string{}
			for _, a := range tok.Attr {
				attrs[a.Key] = a.Val
				if mathElements[tok.Data] && mathAttrs[a.Key] && a.Namespace == "" {
					continue
				}
				if !allowedAttrs[a.Key] || a.Namespace != "" {
					return "forbidden attribute " + a.Key + "=" + a.Val + " on <" + tok.Data + ">"
				}
				if a.Key == "href" || a.Key == "src" {
					if msg := badURL(tok.Data, a.Val); msg != "" {
						return msg
					}
				}
			}
			if tok.Data == "input" && (attrs["type"] != "checkbox" || tok.Attr == nil) {
				return "input that is not a checkbox"
			}
			if tok.Data == "input" {
				if _, ok := attrs["disabled"]; !ok {
					return "enabled input"
				}
			}
			if tok.Data == "img" && attrs["loading"] != "lazy" {
				return "img without loading=lazy"
			}
			if h := strings.ToLower(attrs["href"]); tok.Data == "a" && (strings.HasPrefix(h, "http:") || strings.HasPrefix(h, "https:") || strings.HasPrefix(h, "//")) && attrs["rel"] != externalRel {
				return "external link without rel: " + attrs["href"]
			}
			if tt == html.StartTagToken && !voidElements[tok.Data] {
				stack = append(stack, tok.Data)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if len(stack) == 0 || stack[len(stack)-1] != string(name) {
				return "unbalanced </" + string(name) + ">, open: " + strings.Join(stack, " ")
			}
			stack = stack[:len(stack)-1]
		}
	}
}

// treeProblem parses s as the body of a page, as a browser would, and
// walks the tree for forbidden elements and attributes.
func treeProblem(s string) string {
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(s), body)
	if err != nil {
		return "does not parse: " + err.Error()
	}
	var walk func(n *html.Node) string
	walk = func(n *html.Node) string {
		if n.Type == html.ElementNode && n.Namespace == "math" {
			if !mathElements[n.Data] {
				return "tree has forbidden MathML element <" + n.Data + ">"
			}
			if n.Data == "annotation" && (len(n.Attr) != 1 || n.Attr[0].Key != "encoding" || n.Attr[0].Val != "application/x-tex") {
				return "tree has an annotation that is not TeX"
			}
			for _, a := range n.Attr {
				if a.Key == "class" && a.Namespace == "" {
					// Only the classes the math style sheet styles.
					for _, c := range strings.Fields(a.Val) {
						if !mathstyle.Styles(n.Data, c) {
							return "tree has class " + c + " on MathML <" + n.Data + ">"
						}
					}
					continue
				}
				if !mathAttrs[a.Key] || a.Namespace != "" {
					return "tree has forbidden attribute " + a.Key + " on MathML <" + n.Data + ">"
				}
			}
		} else if n.Type == html.ElementNode {
			if forbiddenElements[n.Data] || n.Namespace != "" {
				return "tree has forbidden element <" + n.Data + ">"
			}
			for _, a := range n.Attr {
				if !allowedAttrs[a.Key] {
					return "tree has forbidden attribute " + a.Key + " on <" + n.Data + ">"
				}
			}
		}
		if n.Type == html.CommentNode {
			return "tree has a comment"
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if p := walk(c); p != "" {
				return p
			}
		}
		return ""
	}
	for _, n := range nodes {
		if p := walk(n); p != "" {
			return p
		}
	}
	return ""
}

// badURL judges a URL as the browser sees it (entities already decoded by
// the tokenizer), independently of classifyURL.
func badURL(elem, v string) string {
	clean := strings.Map(func(r rune) rune {
		if r <= ' ' {
			return -1
		}
		return r
	}, strings.ToLower(v))
	for _, bad := range []string{"javascript:", "vbscript:", "data:", "file:", "blob:", "filesystem:"} {
		if strings.HasPrefix(clean, bad) {
			return "dangerous URL on <" + elem + ">: " + v
		}
	}
	if i := strings.IndexByte(clean, ':'); i >= 0 && !strings.ContainsAny(clean[:i], "/?#") {
		scheme := clean[:i]
		if scheme != "http" && scheme != "https" && !(scheme == "mailto" && elem == "a") {
			return "URL scheme " + scheme + " on <" + elem + ">: " + v
		}
	}
	return ""
}

// sampleAttrs returns the attributes of node id in curriculum cur of the
// sample dataset, with the members of its translation into locale (if
// locale is not "") replacing those of the same name.
func sampleAttrs(t testing.TB, cur, id, locale string) (string, map[string]json.RawMessage) {
	t.Helper()
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ds.Curricula {
		if c.ID != cur {
			continue
		}
		var find func([]dataset.Node) *dataset.Node
		find = func(ns []dataset.Node) *dataset.Node {
			for i := range ns {
				if ns[i].ID == id {
					return &ns[i]
				}
				if n := find(ns[i].Children); n != nil {
					return n
				}
			}
			return nil
		}
		n := find(c.Nodes)
		if n == nil {
			for i := range c.Additions {
				if n = find([]dataset.Node{c.Additions[i].Node}); n != nil {
					break
				}
			}
		}
		if n == nil {
			t.Fatalf("node %s not in curriculum %s", id, cur)
		}
		title := n.Title
		attrs := map[string]json.RawMessage{}
		for k, v := range n.Attributes {
			attrs[k] = v
		}
		if locale != "" {
			tr, ok := c.Translations[locale][id]
			if !ok {
				t.Fatalf("no %s translation of %s", locale, id)
			}
			for k, v := range tr.Attributes {
				attrs[k] = v
			}
			if tr.Title != "" {
				title = tr.Title
			}
		}
		return title, attrs
	}
	t.Fatalf("no curriculum %s", cur)
	return "", nil
}
