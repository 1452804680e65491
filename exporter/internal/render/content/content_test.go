package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/golden"
	"github.com/curex/curex/exporter/internal/render/attrs"
)

// TestNodeGolden renders real nodes of the sample dataset.
func TestNodeGolden(t *testing.T) {
	// The images of the sample: kept ones, as a run gives them to the
	// renderer of a node page, and the broken one failed.
	images := func(url string) (Image, bool) {
		switch url {
		case "https://sandbox.invalid/images/broken.png":
			return Image{Failed: true}, true
		case "https://sandbox.invalid/images/binary-bits.png":
			return Image{Path: "assets/content/0b1d.png", Width: 256, Height: 64}, true
		}
		return Image{}, false
	}
	for _, tc := range []struct {
		name, cur, id, locale string
		// page, when set, shows images through images, from that page.
		page string
	}{
		{"table-vocabulary", "101", "alg-u1-l1", "", ""},
		{"footnotes", "101", "alg-u4-l3", "", ""},
		{"python", "curriculum_201", "cs-m2-l2", "", ""},
		{"bash", "curriculum_201", "cs-m2-l1", "", ""},
		{"html-code", "curriculum_201", "cs-m3-l1", "", ""},
		{"rubric", "curriculum_201", "cs-m4-project", "", ""},
		{"arabic", "curriculum_201", "cs-m1-l1", "ar", ""},
		{"japanese", "curriculum_201", "cs-m2-l2", "ja", ""},
		{"variant-addition", "111", "alg-tx-l1", "", ""},
		{"image-local", "curriculum_201", "cs-m1-l3", "ja", "c/v/ja/binary/index.html"},
		{"image-failed", "curriculum_201", "cs-m1-l1", "es", "c/v/es/decomposition/index.html"},
		{"math-aligned", "101", "alg-u2-l1", "", ""},
		{"math-quadratic", "101", "alg-app-a", "", ""},
		{"math-system-ja", "101", "alg-u4-l2", "ja", ""},
		{"math-inline-ar", "101", "alg-u1-l1", "ar", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := New()
			if tc.page != "" {
				r = r.WithImages(images, tc.page)
			}
			title, members := sampleAttrs(t, tc.cur, tc.id, tc.locale)
			got, err := r.Node(members, title, nil, "n-"+tc.id+"-")
			if err != nil {
				t.Fatal(err)
			}
			checkHTML(t, string(got))
			if strings.HasPrefix(tc.name, "math-") && (!strings.Contains(string(got), "<math") || strings.Contains(string(got), "math-error")) {
				t.Error("the sample's math does not all convert")
			}
			// Deterministic: a second run gives the same bytes.
			again, _ := r.Node(members, title, nil, "n-"+tc.id+"-")
			if again != got {
				t.Fatal("second rendering differs")
			}
			// Nothing silently dropped: every member shows up.
			for k := range members {
				if k == attrs.KeyDescription || k == attrs.KeyTitle {
					continue
				}
				if !strings.Contains(string(got), ">"+escape(label(wordsOr(nil), k))+"</h2>") {
					t.Errorf("member %q has no section", k)
				}
			}
			golden.Check(t, filepath.Join("testdata", tc.name+".html"), []byte(got))
		})
	}
}

// TestHostileMarkdown feeds attacks to Markdown and checks the output as a
// browser would see it.
func TestHostileMarkdown(t *testing.T) {
	r := New()
	for _, tc := range []struct {
		name, src string
		want      []string // substrings the output must contain
		not       []string // substrings it must not contain
	}{
		{"script", `<script>alert(1)</script>`, []string{"&lt;script&gt;alert(1)&lt;/script&gt;"}, nil},
		{"script block", "<script>\nalert(1)\n</script>\n", []string{`<pre class="raw-html"><code>&lt;script&gt;`}, nil},
		{"img onerror", `<img src=x onerror=alert(1)>`, []string{"&lt;img src=x onerror=alert(1)&gt;"}, []string{"<img"}},
		{"inline img onerror", `a <img src=x onerror=alert(1)> b`, []string{"a &lt;img"}, []string{"<img"}},
		{"javascript link", `[x](javascript:alert(1))`, []string{"<p>x</p>"}, []string{"<a"}},
		{"mixed case", `[x](JaVaScRiPt:alert(1))`, []string{"<p>x</p>"}, []string{"<a"}},
		{"tab in scheme", "[x](java\tscript:alert(1))", nil, []string{"<a "}},
		{"angle tab", "[x](<java\tscript:alert(1)>)", nil, []string{"<a "}},
		{"leading space ctl", "[x](<\x01 javascript:alert(1)>)", nil, []string{"<a "}},
		{"newline in scheme", "[x](<java\nscript:alert(1)>)", nil, []string{"<a "}},
		{"entity", `[x](&#106;avascript:alert(1))`, []string{"<p>x</p>"}, []string{"<a"}},
		{"hex entity", `[x](&#x6A;avascript&#x3A;alert(1))`, []string{"<p>x</p>"}, []string{"<a"}},
		{"named entity colon", `[x](javascript&colon;alert(1))`, []string{"<p>x</p>"}, []string{"<a"}},
		{"double entity", `[x](javascript&amp;#58;alert(1))`, nil, []string{"javascript:", "javascript&#58;"}},
		{"backslash escape", `[x](javascript\:alert(1))`, []string{"<p>x</p>"}, []string{"<a"}},
		{"reference link", "[x][1]\n\n[1]: javascript:alert(1)", []string{"<p>x</p>"}, []string{"<a"}},
		{"data image", `![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)`, []string{"<p>x</p>"}, []string{"<img"}},
		{"data png", `![x](data:image/png;base64,AAAA)`, []string{"<p>x</p>"}, []string{"<img"}},
		{"data link", `[x](data:text/html,<script>alert(1)</script>)`, nil, []string{"<a "}},
		{"raw a", `<a href="javascript:alert(1)">x</a>`, []string{"&lt;a href="}, []string{"<a "}},
		{"vbscript", `[x](vbscript:msgbox(1))`, []string{"<p>x</p>"}, []string{"<a"}},
		{"file", `[x](file:///etc/passwd)`, []string{"<p>x</p>"}, []string{"<a"}},
		{"image javascript", `![alt](javascript:alert(1))`, []string{"<p>alt</p>"}, []string{"<img"}},
		{"image mailto", `![alt](mailto:a@b.c)`, []string{"<p>alt</p>"}, []string{"<img"}},
		{"autolink javascript", `<javascript:alert(1)>`, []string{"<p>javascript:alert(1)</p>"}, []string{"<a"}},
		{"autolink vbscript", `<VBSCRIPT:msgbox(1)>`, nil, []string{"<a"}},
		{"autolink https", `<https://example.org/a?b=1&c=2>`, []string{`<a href="https://example.org/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">`}, nil},
		{"autolink email", `<ada@example.org>`, []string{`<a href="mailto:ada@example.org">ada@example.org</a>`}, nil},
		{"linkify www", `see www.example.org now`, []string{`<a href="http://www.example.org" rel="noopener noreferrer nofollow">www.example.org</a>`}, nil},
		{"https link", `[x](https://example.org "T")`, []string{`<a href="https://example.org" rel="noopener noreferrer nofollow" title="T">x</a>`}, nil},
		{"relative link", `[x](../other/page.html#top)`, []string{`<a href="../other/page.html#top">x</a>`}, nil},
		{"protocol relative", `[x](//evil.example/)`, []string{`rel="noopener noreferrer nofollow"`}, nil},
		{"backslash before colon", `[x](\0:)`, []string{"<p>x</p>"}, []string{"<a"}},
		{"percent before colon", `[x](%5c0:)`, []string{"<p>x</p>"}, []string{"<a"}},
		{"backslash host image", `![alt](\\\\evil.example/i.png)`, []string{"<p>alt</p>"}, []string{"<img"}},
		{"colon in path", `[x](a/b:c)`, []string{`<a href="a/b:c">x</a>`}, nil},
		{"image https", `![a "b"](https://example.org/i.png "t")`, []string{`<img src="https://example.org/i.png" alt="a “b”" title="t" loading="lazy">`}, nil},
		{"comment", "a <!-- secret --> b", []string{"<p>a  b</p>"}, []string{"secret", "<!--"}},
		{"comment block", "<!-- secret -->\n\ntext", []string{"<p>text</p>"}, []string{"secret", "<!--"}},
		{"comment then tag", "<!-- x --><b>y</b>", []string{"&lt;b&gt;"}, []string{"<!--", "<b>"}},
		{"style", "<style>body{display:none}</style>", []string{"&lt;style&gt;"}, []string{"<style"}},
		{"iframe", `<iframe src="https://evil.example"></iframe>`, []string{"&lt;iframe"}, []string{"<iframe"}},
		{"title quotes", `[x](https://example.org "a\" onmouseover=\"alert(1)")`, []string{`title="a&quot; onmouseover=&quot;alert(1)"`}, nil},
		{"title single quotes", `[x](https://example.org 'a'' onmouseover='alert(1)')`, nil, nil},
		{"title entity", `[x](/p "&quot; onclick=&quot;x")`, []string{`title="&quot; onclick=&quot;x"`}, nil},
		{"href quote", `[x](https://example.org/"onmouseover="alert(1))`, []string{`%22onmouseover=%22`}, nil},
		{"attribute syntax", "# Head {onclick=alert(1) style=x}", []string{">Head {onclick=alert(1) style=x}</h1>"}, nil},
		{"bidi", "a\u202Eevil\u202C b", []string{"\u202Eevil"}, nil},
		{"nul", "a\x00b", []string{"a\uFFFDb"}, nil},
		{"fenced lang injection", "```\"><script>alert(1)</script>\ncode\n```", nil, []string{"<script"}},
		{"fenced html", "```html\n<script>alert(1)</script>\n```", []string{"&lt;", "script"}, nil},
		{"svg", `<svg onload=alert(1)>`, []string{"&lt;svg onload=alert(1)&gt;"}, nil},
		{"cdata", `<![CDATA[<script>alert(1)</script>]]>`, nil, nil},
		{"processing instruction", `<?php echo 1; ?>`, []string{"&lt;?php"}, nil},
		{"nested link", `[a [b](javascript:x) c](https://ok.example)`, nil, []string{"javascript"}},
		{"task list", "- [x] done\n- [ ] todo", []string{`<input checked="" disabled="" type="checkbox">`}, nil},
		{"table align", "| a | b |\n|:-|-:|\n| 1 | 2 |", []string{`<th align="left">`}, []string{"style="}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.Markdown(tc.src, "p-")
			if err != nil {
				t.Fatal(err)
			}
			s := string(got)
			checkHTML(t, s)
			for _, w := range tc.want {
				if !strings.Contains(s, w) {
					t.Errorf("output lacks %q:\n%s", w, s)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(s, n) {
					t.Errorf("output contains %q:\n%s", n, s)
				}
			}
		})
	}
}

// TestHostileNode checks hostile keys, labels and values in Node.
func TestHostileNode(t *testing.T) {
	r := New()
	attrs := map[string]json.RawMessage{
		`<b>key"`:             json.RawMessage(`"value"`),
		`x" onclick="y`:       json.RawMessage(`{"<i>k</i>": "<script>alert(1)</script>", "n": 1}`),
		"list":                json.RawMessage(`["[x](javascript:alert(1))", "<img src=x onerror=alert(1)>"]`),
		"terms":               json.RawMessage(`[{"term":"<b>t</b>","definition":"[d](JAVASCRIPT:x)"}]`),
		"bidi\u202Ekey":       json.RawMessage(`"\u202Etxet"`),
		"":                    json.RawMessage(`"empty key"`),
		"broken":              json.RawMessage(`{"a": <script>}`),
		"title":               json.RawMessage(`"Different title"`),
		"learning_objectives": json.RawMessage(`["<script>x</script>", "**bold** and [ok](https://ok.example)"]`),
	}
	labels := func(key string) string {
		if key == "list" {
			return `<script>alert("label")</script>`
		}
		return ""
	}
	got, err := r.Node(attrs, "Node title", labelWords(labels), `n"1<`)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	checkHTML(t, s)
	for _, want := range []string{
		`<section class="attr attr-b-key">`,
		`<h2 id="n-1--b-key">&lt;b&gt;key&#34;</h2>`,
		`<section class="attr attr-x-onclick-y">`,
		`<dt>&lt;i&gt;k&lt;/i&gt;</dt>`,
		`<h2 id="n-1--list">&lt;script&gt;alert(&#34;label&#34;)&lt;/script&gt;</h2>`,
		`<section class="attr attr-bidi-key">`,
		"<h2 id=\"n-1--bidi-key\">Bidi\u202Ekey</h2>",
		`<section class="attr">`,
		`<h2 id="n-1--attr">&#34;&#34;</h2>`,
		`<pre class="value raw"><code>{&#34;a&#34;: &lt;script&gt;}</code></pre>`,
		`<p>Different title</p>`,
		`<section class="objectives">`,
		`<strong>bold</strong>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(s, `n"1<`) {
		t.Error("id prefix not sanitized")
	}
}

func TestNodeShapes(t *testing.T) {
	r := New()
	for _, tc := range []struct {
		name, raw string
		want      []string
		not       []string
	}{
		{"number", `55`, []string{`<p class="value">55</p>`}, nil},
		{"big number", `12345678901234567890.50`, []string{`<p class="value">12345678901234567890.50</p>`}, nil},
		{"bool", `true`, []string{`<p class="value">Yes</p>`}, nil},
		{"null", `null`, nil, []string{"<section"}},
		{"empty", ``, nil, []string{"<section"}},
		{"empty array", `[]`, []string{`<code class="json">[]</code>`}, nil},
		{"empty object", `{}`, []string{`<code class="json">{}</code>`}, nil},
		{"strings", `["a","*b*"]`, []string{"<ul>\n<li>a</li>\n<li><em>b</em></li>\n</ul>"}, nil},
		{"mixed", `["a",1,null,true,{"k":"v"},[]]`, []string{"<li>1</li>", `<li><code class="json">null</code></li>`, `<dl class="fields">`}, nil},
		{"terms", `[{"term":"T","definition":"D"},{"word":"W","meaning":"M"}]`, []string{"<dl class=\"terms\">\n<dt>T</dt>\n<dd>D</dd>\n<dt>W</dt>\n<dd>M</dd>\n</dl>"}, nil},
		{"not terms", `[{"term":"T","definition":"D","extra":1}]`, []string{`<table class="records">`, "<th>Extra</th>"}, nil},
		{"term on two lines", `[{"term":"T\nU","definition":"D"}]`, []string{`<ul class="records">`, "<dt>Term</dt>"}, []string{`<dl class="terms">`}},
		{"blank term", `[{"term":" ","definition":"D"}]`, []string{`<table class="records">`}, []string{`<dl class="terms">`}},
		{"flat records", `[{"criterion":"C","points":30}]`, []string{"<table class=\"records\">\n<thead>\n<tr>\n<th>Criterion</th>\n<th>Points</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>C</td>\n<td>30</td>\n</tr>\n</tbody>\n</table>"}, []string{"<ul"}},
		{"flat records, null and missing", `[{"a":"*x*","b":null},{"c":true}]`, []string{"<th>A</th>\n<th>B</th>\n<th>C</th>", "<tr>\n<td><em>x</em></td>\n<td></td>\n<td></td>\n</tr>", "<tr>\n<td></td>\n<td></td>\n<td>Yes</td>\n</tr>"}, nil},
		{"hostile cells", `[{"<b>k":"<script>x</script>","l":"[a](javascript:b)"}]`, []string{"<th>&lt;b&gt;k</th>", "&lt;script&gt;"}, []string{"<script", "javascript:"}},
		{"records with a list", `[{"criterion":"C","levels":["a","b"]}]`, []string{"<ul class=\"records\">\n<li><dl class=\"fields\">\n<dt>Criterion</dt>\n<dd>C</dd>\n<dt>Levels</dt>\n<dd><ul>"}, []string{"<table"}},
		{"records with a paragraph", `[{"criterion":"C\n\nmore"}]`, []string{`<ul class="records">`}, []string{"<table"}},
		{"nine columns", `[{"a":1,"b":2,"c":3,"d":4,"e":5},{"f":6,"g":7,"h":8,"i":9}]`, []string{`<ul class="records">`}, []string{"<table"}},
		{"eight columns", `[{"a":1,"b":2,"c":3,"d":4,"e":5},{"f":6,"g":7,"h":8,"a":9}]`, []string{`<table class="records">`, "<th>H</th>"}, nil},
		{"nested table", `{"rubric":[{"c":"C","p":1}]}`, []string{"<dt>Rubric</dt>\n<dd><table class=\"records\">"}, nil},
		{"object", `{"b":{"c":[1]},"a":"x","z":null}`, []string{"<dt>A</dt>\n<dd>x</dd>\n<dt>B</dt>"}, []string{"<dt>Z</dt>"}},
		{"multiline in object", `{"a":"para 1\n\npara 2"}`, []string{"<dd><p>para 1</p>\n<p>para 2</p>\n</dd>"}, nil},
		{"invalid", `{"a":`, []string{`<pre class="value raw"><code>{&#34;a&#34;:</code></pre>`}, nil},
		{"trailing", `1 2`, []string{`<pre class="value raw">`}, nil},
		{"deep object", strings.Repeat(`{"a":`, 12) + `1` + strings.Repeat(`}`, 12), []string{`<code class="json">{&#34;a&#34;:{&#34;a&#34;:{&#34;a&#34;:{&#34;a&#34;:1}}}}</code>`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.Node(map[string]json.RawMessage{"k": json.RawMessage(tc.raw)}, "", nil, "")
			if err != nil {
				t.Fatal(err)
			}
			s := string(got)
			checkHTML(t, s)
			for _, w := range tc.want {
				if !strings.Contains(s, w) {
					t.Errorf("output lacks %q:\n%s", w, s)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(s, n) {
					t.Errorf("output contains %q:\n%s", n, s)
				}
			}
		})
	}
}

func TestNodeOrderAndTitle(t *testing.T) {
	r := New()
	attrs := map[string]json.RawMessage{
		"zeta":                json.RawMessage(`1`),
		"alpha":               json.RawMessage(`2`),
		"learning_objectives": json.RawMessage(`["o"]`),
		"description":         json.RawMessage(`"# Big\n\nd"`),
		"title":               json.RawMessage(`" Same "`),
	}
	got, err := r.Node(attrs, "Same", labelWords(func(k string) string {
		if k == "learning_objectives" {
			return "Objetivos"
		}
		return ""
	}), "n1-")
	if err != nil {
		t.Fatal(err)
	}
	want := `<div class="description">
<h2 id="n1-description-big">Big</h2>
<p>d</p>
</div>
<section class="objectives">
<h2 id="n1--learning-objectives">Objetivos</h2>
<ul>
<li>o</li>
</ul>
</section>
<section class="attr attr-alpha">
<h2 id="n1--alpha">Alpha</h2>
<p class="value">2</p>
</section>
<section class="attr attr-zeta">
<h2 id="n1--zeta">Zeta</h2>
<p class="value">1</p>
</section>
`
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	got, _ = r.NodeLevel(map[string]json.RawMessage{"notes": json.RawMessage(`"# H"`)}, "", nil, "", 3)
	if !strings.Contains(string(got), `<h3 id="-notes">Notes</h3>`) || !strings.Contains(string(got), `<h4 id="notes-h">H</h4>`) {
		t.Errorf("heading level 3:\n%s", got)
	}
}

var idAttr = regexp.MustCompile(`\bid="([^"]*)"`)

// TestIDsUniqueOnPage renders two Markdown blocks with footnotes and equal
// headings onto one page and checks that no id repeats and every fragment
// link has a target.
func TestIDsUniqueOnPage(t *testing.T) {
	r := New()
	src := "## Notes\n\nA claim.[^1] Another.[^2]\n\n## Notes\n\n[^1]: One.\n[^2]: Two."
	a, err := r.Markdown(src, "n3-description-")
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Markdown(src, "n3-teacher-notes-")
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Node(map[string]json.RawMessage{
		"description":   json.RawMessage(`"x[^1]\n\n[^1]: y"`),
		"teacher_notes": json.RawMessage(`"x[^1]\n\n[^1]: y"`),
		"extra":         json.RawMessage(`{"a":"x[^1]\n\n[^1]: y","b":"x[^1]\n\n[^1]: y"}`),
	}, "", nil, "n4-")
	if err != nil {
		t.Fatal(err)
	}
	page := string(a) + string(b) + string(c)
	checkHTML(t, page)
	seen := map[string]bool{}
	for _, m := range idAttr.FindAllStringSubmatch(page, -1) {
		if seen[m[1]] {
			t.Errorf("duplicate id %q", m[1])
		}
		seen[m[1]] = true
	}
	if len(seen) < 12 {
		t.Errorf("only %d ids: %v", len(seen), seen)
	}
	for _, m := range regexp.MustCompile(`href="#([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if !seen[m[1]] {
			t.Errorf("link to missing id %q", m[1])
		}
	}
	for _, want := range []string{`id="n3-description-notes"`, `id="n3-description-notes-1"`, `id="n3-description-fn:1"`, `id="n3-teacher-notes-fn:1"`} {
		if !seen[strings.TrimSuffix(strings.TrimPrefix(want, `id="`), `"`)] {
			t.Errorf("missing %s", want)
		}
	}
}

func TestChromaClasses(t *testing.T) {
	r := New()
	for _, lang := range []string{"python", "javascript", "html", "css", "sql", "bash", "text", "nosuchlang", ""} {
		t.Run(lang, func(t *testing.T) {
			got, err := r.Markdown("```"+lang+"\nif x < 1:\n    print(\"<b>&\")  # c\n```\n", "")
			if err != nil {
				t.Fatal(err)
			}
			s := string(got)
			checkHTML(t, s)
			if strings.Contains(s, "style=") {
				t.Fatal("inline style")
			}
			if !strings.Contains(s, "&lt;b&gt;&amp;") && !strings.Contains(s, "&lt;</span>") && !strings.Contains(s, "&amp;") {
				t.Errorf("code not escaped:\n%s", s)
			}
			switch lang {
			case "nosuchlang", "":
				if strings.Contains(s, "chroma") {
					t.Errorf("highlighted unknown language:\n%s", s)
				}
			default:
				if !strings.Contains(s, `<pre class="chroma" tabindex="0"><code class="language-`+lang+`" data-lang="`+lang+`">`) {
					t.Errorf("no chroma wrapper:\n%s", s)
				}
			}
			if lang == "python" && !strings.Contains(s, `<span class="k">if</span>`) {
				t.Errorf("python keyword not classed:\n%s", s)
			}
		})
	}
}

func TestStyleCSS(t *testing.T) {
	css := string(StyleCSS())
	if !strings.Contains(css, "@media (prefers-color-scheme: dark) {") {
		t.Error("no dark block")
	}
	for _, line := range strings.Split(css, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "@media") || line == "}" || strings.HasPrefix(line, "/* Code highlighting") {
			continue
		}
		sel := line
		if i := strings.Index(sel, "*/"); i >= 0 {
			sel = strings.TrimSpace(sel[i+2:])
		}
		for _, scope := range []string{chosenDark, systemDark} {
			sel = strings.TrimPrefix(sel, scope)
		}
		if !strings.HasPrefix(sel, ".chroma") {
			t.Errorf("rule not under .chroma: %s", line)
		}
	}
	// Every token class the light style colours has a colour in the dark
	// theme too, both ways it is chosen, never the light one on a dark
	// background.
	for _, m := range tokenRule.FindAllStringSubmatch(rawCSS(lightStyle), -1) {
		for _, scope := range []string{chosenDark, systemDark} {
			if !strings.Contains(css, scope+".chroma ."+m[1]+" {") {
				t.Errorf("no dark rule for .%s under %s", m[1], scope)
			}
		}
	}
	// The theme toggle's choice wins over the system setting both ways.
	for _, want := range []string{`:root:not([data-theme="light"]) .chroma .k {`, `:root[data-theme="dark"] .chroma .k {`} {
		if !strings.Contains(css, want) {
			t.Errorf("no rule %s", want)
		}
	}
	if !strings.Contains(css, ".chroma .k {") {
		t.Error("no keyword rule")
	}
	a := StyleCSS()
	a[0] = 'X'
	if StyleCSS()[0] == 'X' {
		t.Error("StyleCSS shares its slice")
	}
}

func TestDefaultLabel(t *testing.T) {
	for in, want := range map[string]string{
		"estimated_minutes":   "Estimated minutes",
		"learning_objectives": "Learning objectives",
		"ap-big_idea":         "Ap big idea",
		"éte":                 "Éte",
		"__x__":               "X",
		"":                    "",
		"_":                   "_",
		"Already":             "Already",
	} {
		if got := DefaultLabel(in); got != want {
			t.Errorf("DefaultLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClassName(t *testing.T) {
	for in, want := range map[string]string{
		"estimated_minutes": "estimated-minutes",
		`<b>key"`:           "b-key",
		"ÄÖ":                "",
		"a--b":              "a-b",
		"CamelCase9":        "camelcase9",
	} {
		if got := className(in); got != want {
			t.Errorf("className(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClassifyURL(t *testing.T) {
	for in, want := range map[string]urlKind{
		"https://x":               urlExternal,
		"HTTP://x":                urlExternal,
		"mailto:a@b":              urlMailto,
		"//x/y":                   urlExternal,
		"\\\\x/y":                 urlExternal,
		"/\\x":                    urlExternal,
		"page.html":               urlRelative,
		"../a/b?c=d:e":            urlRelative,
		"#frag":                   urlRelative,
		"":                        urlRelative,
		"javascript:x":            urlUnsafe,
		" \x00\x1fjavascript:x":   urlUnsafe,
		"java\tscript:x":          urlUnsafe,
		"java\nscript:x":          urlUnsafe,
		"jAvAsCrIpT:x":            urlUnsafe,
		"data:image/png;base64,x": urlUnsafe,
		"vbscript:x":              urlUnsafe,
		"file:///etc":             urlUnsafe,
		"ftp://x":                 urlUnsafe,
		"a b:c":                   urlUnsafe,
		"1http:x":                 urlUnsafe,
		"%6Aavascript:x":          urlUnsafe,
		"\u00a0javascript:x":      urlUnsafe,
	} {
		if got := classifyURL(in); got != want {
			t.Errorf("classifyURL(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestPlainText(t *testing.T) {
	for _, tc := range []struct {
		src  string
		n    int
		want string
	}{
		{"# Title\n\nSome **bold** and [a link](https://x) &amp; `code`.", 0, "Title Some bold and a link & code."},
		{"Text[^1]\n\n[^1]: note", 0, "Text"},
		{"a\n\n```python\nx = 1\n```\n\nb", 0, "a b"},
		{"| h1 | h2 |\n|---|---|\n| c1 | c2 |", 0, "h1 h2 c1 c2"},
		{"<b>raw</b> text <!-- c -->", 0, "raw text"},
		{"![alt text](i.png) \"quotes\"", 0, "alt text \"quotes\""},
		{"héllo wörld", 7, "héllo w"},
		{"one two", 4, "one"},
		{"مرحبا بالعالم", 5, "مرحبا"},
		{"  ", 0, ""},
		{`\*not em\*`, 0, "*not em*"},
	} {
		if got := PlainText(tc.src, tc.n); got != tc.want {
			t.Errorf("PlainText(%q, %d) = %q, want %q", tc.src, tc.n, got, tc.want)
		}
	}
}

// TestNoMarkup lists which strings PlainText takes as text without
// parsing them (FuzzPlainTextFastPath checks that the parse agrees).
func TestNoMarkup(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"", true},
		{"Slope and intercept", true},
		{"HSA.REI.D.11", true},
		{"Lesson 1. Solve x > 3 (50%), C# or $5!", true},
		{"One.\n\nTwo,\nthree", true},
		{"¿Qué es?", true},
		{"方程式", true},
		{"1. a list", false},
		{"- a list", false},
		{"# heading", false},
		{"> quote", false},
		{"    code", false},
		{" a", false},
		{"a\n---", false},
		{"a **b**", false},
		{"a_b", false},
		{"a `b`", false},
		{"[a](b)", false},
		{"a <b>", false},
		{"a &amp; b", false},
		{`a \* b`, false},
		{"a ~~b~~", false},
		{"a | b", false},
		{"a\tb", false},
		{"a\r\nb", false},
		{"a\x00b", false},
		{"\u00a0a", false},
	} {
		if got := noMarkup(tc.src); got != tc.want {
			t.Errorf("noMarkup(%q) = %v, want %v", tc.src, got, tc.want)
		}
		if tc.want {
			if fast, parsed := PlainText(tc.src, 0), parsedText(tc.src, 0); fast != parsed {
				t.Errorf("PlainText(%q) = %q, the parse gives %q", tc.src, fast, parsed)
			}
		}
	}
}

// TestLargeInputs checks that huge and deeply nested inputs neither crash
// nor take long.
func TestLargeInputs(t *testing.T) {
	r := New()
	mb := 1 << 20
	if raceFactor == 1 || testing.Short() {
		// The race detector slows goldmark some twentyfold, and -short
		// (make check) wants seconds: check the same shapes at 1/8 of
		// the size, which still shows a blowup.
		mb >>= 3
	}
	deepArray := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	deeper := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	deepObject := strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000)
	str := func(s string) json.RawMessage { b, _ := json.Marshal(s); return b }
	for _, tc := range []struct {
		name string
		raw  json.RawMessage
		want string
	}{
		{"deep array", json.RawMessage(deepArray), `<code class="json">[[[[`},
		{"deeper array", json.RawMessage(deeper), `<pre class="value raw"><code>[[[[`},
		{"deep object", json.RawMessage(deepObject), `<code class="json">{&#34;a&#34;:{`},
		{"1MB text", str(strings.Repeat("word *emphasis* [link](https://x.example) ", mb/42)), "<em>emphasis</em>"},
		{"1MB one line", str(strings.Repeat("a", mb)), "aaaa"},
		{"1MB stars", str(strings.Repeat("*", mb)), "<hr>"},
		{"1MB brackets", str(strings.Repeat("[", mb)), "[[["},
		{"1MB link openers", str(strings.Repeat("[a](", mb/4)), "[a]("},
		{"1MB backticks", str(strings.Repeat("`a", mb/2)), "<code>"},
		{"1MB underscores", str(strings.Repeat("_a", mb/2)), "_a_a"},
		{"1MB emphasis", str(strings.Repeat("_a ", mb/3)), "_a _a"},
		{"1MB image openers", str(strings.Repeat("![a](", mb/5)), "![a]("},
		{"1MB angle destinations", str(strings.Repeat("[a](<", mb/5)), "[a](&lt;"},
		{"1MB link emphasis", str(strings.Repeat("*[a*](", mb/6)), "[a"},
		{"1MB footnote definitions", str(strings.Repeat("[^a]: ", mb/6)), `<h2 id="-k">K</h2>`},
		{"1MB reference definitions", str(strings.Repeat("[x]:\n", mb/5)), "[x]:"},
		{"1MB setext headings", str(strings.Repeat("a\n===\n", mb/6)), "<h3 id=\"k-a-100\">a</h3>"},
		{"1MB lt", str(strings.Repeat("<a", mb/2)), "&lt;a"},
		{"1MB quotes", str(strings.Repeat(`"a' `, mb/4)), "&ldquo;"},
		{"1MB table", str("|a|b|\n|-|-|\n" + strings.Repeat("|1|2|\n", mb/6)), "<td>1</td>"},
		{"1MB code", str("```python\n" + strings.Repeat("x = 1 # c\n", mb/10) + "```"), "<pre tabindex=\"0\"><code class=\"language-python\">"},
		{"1MB blockquotes", str(strings.Repeat("> ", mb/2) + "x"), "<blockquote>"},
		{"1MB lists", str(strings.Repeat("- ", mb/2) + "x"), "<ul>"},
		{"1MB ordered lists", str(strings.Repeat("1) ", mb/3) + "x"), "<ol>"},
		{"1MB CR blockquotes", str("x\r" + strings.Repeat("> ", mb/2)), "&gt;"},
		{"1MB indented lists", str(indentedLists(mb)), "<ul>"},
		{"1MB footnotes", str(strings.Repeat("x[^1]", mb/5) + "\n\n[^1]: n"), "fnref"},
		{"1MB emails", str(strings.Repeat("a@b.co ", mb/7)), "mailto:"},
		{"1MB strings array", json.RawMessage("[" + strings.Repeat(`"a",`, mb/4) + `"a"]`), "<li>a</li>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			got, err := r.Node(map[string]json.RawMessage{"k": tc.raw}, "", nil, "")
			if err != nil {
				t.Fatal(err)
			}
			elapsed := time.Since(start)
			s := string(got)
			if !strings.Contains(s, tc.want) {
				t.Errorf("output lacks %q: %.300s", tc.want, s)
			}
			if len(s) < 200000 {
				checkHTML(t, s)
			} else if p := htmlProblem(s); p != "" {
				t.Error(p)
			}
			// No time limit: a loaded CI machine makes any bound flaky.
			// Speed is the business of BenchmarkNode; this logs it.
			t.Logf("%v, %d bytes out", elapsed, len(s))
		})
	}
	if got := PlainText(strings.Repeat("word ", mb/5), 10); got != "word word" {
		t.Errorf("PlainText of 1MB: %q", got)
	}
}

// TestConcurrent renders from many goroutines at once (run with -race).
func TestConcurrent(t *testing.T) {
	r := New()
	title, attrs := sampleAttrs(t, "curriculum_201", "cs-m2-l2", "")
	want, err := r.Node(attrs, title, nil, "c-")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				got, err := r.Node(attrs, title, nil, "c-")
				if err != nil || got != want {
					t.Errorf("goroutine %d: different output (err %v)", i, err)
					return
				}
				_, _ = r.Markdown(fmt.Sprintf("```sql\nSELECT %d;\n```", i), "")
			}
		}()
	}
	wg.Wait()
}

// indentedLists returns about n bytes of list items, each indented two
// columns more than the one before.
func indentedLists(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(strings.Repeat(" ", 2*i) + "- x\n")
	}
	return b.String()
}

func TestDefuse(t *testing.T) {
	deep := strings.Repeat("> ", 40) + "x"
	for _, tc := range []struct{ in, want string }{
		{"plain text\n- list\n> quote", "plain text\n- list\n> quote"},
		{"---------------", "---------------"},
		{deep, strings.Repeat("> ", 32) + "\\" + strings.Repeat("> ", 8) + "x"},
		{strings.Repeat("1. ", 33) + "x", strings.Repeat("1. ", 32) + "1\\. x"},
		{strings.Repeat(" ", 200) + "code", strings.Repeat(" ", 128) + "code"},
		{"a\r" + strings.Repeat("- ", 33), "a\r" + strings.Repeat("- ", 32) + "\\- "},
		{"[a](" + strings.Repeat("x", 3000), `[a\](` + strings.Repeat("x", 3000)},
		{"[a](<" + strings.Repeat("x ", 1500) + ">", `[a\](<` + strings.Repeat("x ", 1500) + ">"},
		{`[a\](` + strings.Repeat("x", 3000), `[a\](` + strings.Repeat("x", 3000)},
		{`[a\\](` + strings.Repeat("x", 3000), `[a\\\](` + strings.Repeat("x", 3000)},
		{"[a](" + strings.Repeat("x", 2000) + " [b](" + strings.Repeat("y", 2000), "[a](" + strings.Repeat("x", 2000) + " [b](" + strings.Repeat("y", 2000)},
		{strings.Repeat("[^a]: ", 33), strings.Repeat("[^a]: ", 32) + `\[^a]: `},
		{"```\n[a](" + strings.Repeat("x", 3000) + "\n```\n", "```\n[a](" + strings.Repeat("x", 3000) + "\n```\n"},
		{strings.Repeat("[x]:\n", 513) + "\n[", strings.Repeat("[x]:\n", 512) + "\\[x]:\n\n["},
	} {
		if got := defuse(tc.in); got != tc.want {
			t.Errorf("defuse(%.40q) = %.80q, want %.80q", tc.in, got, tc.want)
		}
	}
}

// TestIsPlain checks the fast path against goldmark itself.
func TestIsPlain(t *testing.T) {
	r := New()
	for _, s := range []string{
		"CCSS.MATH.CONTENT.HSA.REI.C.5", "Solve equations, quickly", "a", "3 apples", "Ünïcödé 日本語",
		"1. list", "1.5 cups", "a..b", "www.example.org", "Www.x.org", "a  b", " a", "a ", "# h", "- a",
		"a*b", "a_b", "<b>", "a & b", "\"q\"", "it's", "a--b", "a@b.c", "http://x", "",
		"a\tb", "a\u00a0b", "= x", "100%", "a/b", "why?", "x;y",
	} {
		var b strings.Builder
		var buf = &bytes.Buffer{}
		if err := r.markdown(buf, s, "", 0, true); err != nil {
			t.Fatal(err)
		}
		b.WriteString(strings.TrimSuffix(buf.String(), "\n"))
		if isPlain(s) && b.String() != s {
			t.Errorf("isPlain(%q) but goldmark gives %q", s, b.String())
		}
	}
}

// TestRecoverGoldmarkPanic checks that a panic inside goldmark becomes an
// escaped fallback, not a crash.
func TestRecoverGoldmarkPanic(t *testing.T) {
	r := New()
	got, err := r.Markdown("\x80\n0 <b>", "")
	if err != nil {
		t.Fatal(err)
	}
	checkHTML(t, string(got))
	var buf bytes.Buffer
	buf.WriteString("kept")
	saved := r.md
	defer func() { r.md = saved }()
	r.md = nil // any call on it panics
	if err := r.markdown(&buf, "a <b>", "", 0, false); err != nil {
		t.Fatal(err)
	}
	if want := "kept<pre class=\"markdown-error\"><code>a &lt;b&gt;</code></pre>\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

func TestControlCharactersBecomeVisible(t *testing.T) {
	r := New()
	for _, src := range []string{"red \x1b[31malert\x1b[0m", "bell\x07 del\x7f c1\u0085 nul\x00"} {
		got, err := r.Markdown(src, "t-")
		if err != nil {
			t.Fatal(err)
		}
		control := func(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r >= 0x7f && r <= 0x9f }
		if strings.IndexFunc(string(got), control) >= 0 {
			t.Errorf("Markdown(%q) = %q keeps a control character", src, got)
		}
		if !strings.Contains(string(got), "\uFFFD") {
			t.Errorf("Markdown(%q) = %q hides what was replaced", src, got)
		}
	}
	if got := escape("a\x1bb\tc\n"); got != "a\uFFFDb\tc\n" {
		t.Errorf("escape = %q", got)
	}
}

// TestSectionIDs: every section heading has an id of its own, which no
// Markdown heading of the node can take, even with keys of one class name.
func TestSectionIDs(t *testing.T) {
	t.Parallel()
	attrs := map[string]json.RawMessage{
		"Notes":       json.RawMessage(`"# x"`),
		"notes":       json.RawMessage(`"# Notes 2"`),
		"notes-2":     json.RawMessage(`"text"`),
		"description": json.RawMessage(`"# Notes"`),
	}
	got, err := New().Node(attrs, "", nil, "c-")
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	for _, want := range []string{`<h2 id="c--notes">`, `<h2 id="c--notes-2">`, `<h2 id="c--notes-2-2">`} {
		if !strings.Contains(s, want) {
			t.Errorf("no %s in\n%s", want, s)
		}
	}
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]*)"`).FindAllStringSubmatch(s, -1) {
		if seen[m[1]] {
			t.Errorf("id %s twice", m[1])
		}
		seen[m[1]] = true
	}
}

// labelWords are English words with the member labels of label.
type labelWords func(key string) string

func (l labelWords) AttributeLabel(key string) string { return l(key) }
func (labelWords) Duration(minutes int) string        { return i18n.For("en").Duration(minutes) }
func (labelWords) YesNo(b bool) string                { return i18n.For("en").YesNo(b) }
func (labelWords) Number(literal string) string       { return i18n.For("en").Number(literal) }
func (labelWords) Date(d time.Time) string            { return i18n.For("en").Date(d) }

// TestValuesWithUnits: a number of minutes reads as a duration and a
// boolean as yes or no, in the page's language, wherever the value sits
// (issue 25, item 6: every lesson said "Estimated time 50").
func TestValuesWithUnits(t *testing.T) {
	r := New()
	attrs := map[string]json.RawMessage{
		"estimated_minutes": json.RawMessage(`50`),
		"lab_required":      json.RawMessage(`true`),
		"points":            json.RawMessage(`50`),
		"schedule":          json.RawMessage(`[{"part":"a","duration_minutes":90},{"part":"b","duration_minutes":15}]`),
		"session":           json.RawMessage(`{"minutes":120,"graded":false}`),
	}
	for _, tc := range []struct {
		lang      string
		want, not []string
	}{
		{"en", []string{`<p class="value">50 min</p>`, `<p class="value">Yes</p>`, `<p class="value">50</p>`, "<td>1 hr 30 min</td>", "<td>15 min</td>", "<dd>2 hr</dd>", "<dd>No</dd>"}, []string{">true<", ">false<", ">90<"}},
		{"es", []string{`<p class="value">50 min</p>`, `<p class="value">Sí</p>`, "<td>1 h 30 min</td>", "<dd>No</dd>"}, nil},
		{"ja", []string{`<p class="value">50 分</p>`, `<p class="value">はい</p>`, "<dd>2 時間</dd>", "<dd>いいえ</dd>"}, nil},
	} {
		got, err := r.Node(attrs, "T", i18n.For(tc.lang), "n-")
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(got), w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.lang, w, got)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(string(got), n) {
				t.Errorf("%s: output has %q:\n%s", tc.lang, n, got)
			}
		}
	}
}

// TestValuesOfAKind: issue 25, item 6. Counts, dates and links read
// naturally in the page's language wherever the value sits: a count with
// its digits grouped (never a year or an identifier), a date as the
// language writes it (as written, whatever the machine's time zone), an
// http or https URL as a link through the gate of links.
func TestValuesOfAKind(t *testing.T) {
	r := New()
	attrs := map[string]json.RawMessage{
		"item_count":  json.RawMessage(`12500`),
		"year":        json.RawMessage(`12500`),
		"due":         json.RawMessage(`"2026-03-03"`),
		"published":   json.RawMessage(`"2026-03-03T23:30:00-08:00"`),
		"resource":    json.RawMessage(`"https://example.org/a?b=1&c=2"`),
		"unsafe":      json.RawMessage(`"javascript:alert(1)"`),
		"assignments": json.RawMessage(`[{"name":"Essay","points_possible":1500,"due":"2026-12-01"}]`),
	}
	link := `<a href="https://example.org/a?b=1&amp;c=2" rel="` + externalRel + `">https://example.org/a?b=1&amp;c=2</a>`
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"en", []string{`<p class="value">12,500</p>`, `<p class="value">12500</p>`, `<time datetime="2026-03-03">March 3, 2026</time>`, "<td>1,500</td>", `<time datetime="2026-12-01">December 1, 2026</time>`, link}},
		{"es", []string{`<p class="value">12.500</p>`, "<td>1500</td>", `<time datetime="2026-03-03">3 de marzo de 2026</time>`, link}},
		{"fr", []string{"<p class=\"value\">12\u202f500</p>", `3 mars 2026`}},
		{"de", []string{`<p class="value">12.500</p>`, `3. März 2026`}},
		{"ar", []string{`<p class="value">12,500</p>`, `<time datetime="2026-03-03">3 مارس 2026</time>`, link}},
		{"ja", []string{`<p class="value">12,500</p>`, `<time datetime="2026-03-03">2026年3月3日</time>`, link}},
	} {
		got, err := r.Node(attrs, "T", i18n.For(tc.lang), "n-")
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(got), w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.lang, w, got)
			}
		}
		if strings.Contains(string(got), `href="javascript`) || strings.Count(string(got), "<time") != 3 {
			t.Errorf("%s: a script link, or not three dates:\n%s", tc.lang, got)
		}
	}
}

// TestBlankHeaderCellIsData: the corner cell of "| | CSV | JSON |" is a
// data cell in every format, not an empty header (axe-core and DAISY Ace
// report empty-table-header); a header with text, a formula or an image
// stays a header, and alignment is kept.
func TestBlankHeaderCellIsData(t *testing.T) {
	r := New()
	cases := []struct {
		name, md string
		want     []string
	}{
		{"corner", "| | CSV | JSON |\n|---|:--|--:|\n| a | b | c |", []string{"<tr>\n<td></td>\n<th align=\"left\">CSV</th>\n<th align=\"right\">JSON</th>\n</tr>"}},
		{"spaces", "|   | A |\n|:-:|---|\n| x | y |", []string{"<td align=\"center\"></td>\n<th>A</th>"}},
		{"formula", "| $x$ | A |\n|---|---|\n| x | y |", []string{"<th><math>"}},
		{"image", "| ![i](https://e.org/i.png) | A |\n|---|---|\n| x | y |", []string{"<th><img "}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, err := r.Markdown(tc.md, "p-")
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(h), w) {
					t.Errorf("Markdown(%q) =\n%s\nlacks %q", tc.md, h, w)
				}
			}
			if strings.Contains(string(h), "<th></th>") || strings.Contains(string(h), "<th align=\"center\"></th>") {
				t.Errorf("an empty header cell is left:\n%s", h)
			}
		})
	}
}
