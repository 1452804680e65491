package content

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzMarkdown renders arbitrary Markdown and checks the output as a
// browser would parse it: balanced, no script, no event handler or style
// attribute, no URL outside the allowlist. PlainText must not panic and
// must respect its limit.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{
		"# Title\n\nSome *text* with [a link](https://example.org) and `code`.",
		"<script>alert(1)</script>",
		"<img src=x onerror=alert(1)>",
		"[x](javascript:alert(1)) [y](JaVaScRiPt:alert(1)) [z](&#106;avascript:x)",
		"![i](data:image/svg+xml;base64,PHN2Zz4=) <javascript:alert(1)> <a@b.c>",
		"| a | b |\n|:-|-:|\n| 1 | <b>2</b> |",
		"Text[^1]\n\n[^1]: Note with [link](vbscript:x).",
		"```python\nprint(\"<b>\")\n```\n\n```\"><script>\nx\n```",
		"<!-- c --> <style>x</style> <iframe src=//e></iframe>",
		"[x](https://e.org \"a\\\" onclick=\\\"b\")",
		"> - 1. [^a]: [x]: <y> 'z'\n***\n* * *",
		"a\u202Eb\x00c\r\nd  \ne\\\nf",
		"www.example.org/path?q=<x> https://x.y/\"z",
		"<div>\n*md*\n</div>\n\n<?php x ?>\n<![CDATA[y]]>",
	} {
		f.Add(s)
	}
	r := New()
	onPanic = func(v any) { panic(v) } // find goldmark panics, do not hide them
	f.Fuzz(func(t *testing.T, src string) {
		got, err := r.Markdown(src, "f-")
		if err != nil {
			t.Fatal(err)
		}
		checkHTML(t, string(got))
		p := PlainText(src, 20)
		if utf8.RuneCountInString(p) > 20 {
			t.Fatalf("PlainText(_, 20) has %d runes", utf8.RuneCountInString(p))
		}
	})
}

// FuzzPlainTextFastPath checks PlainText's shortcut: wherever noMarkup
// lets a string skip the parse, the parse gives the same text.
func FuzzPlainTextFastPath(f *testing.F) {
	for _, s := range []string{
		"Slope and intercept",
		"Estimated time 50",
		"HSA.REI.D.11",
		"Lesson 1. Solving equations (part 2): x > 3, y = 2x + 1; 50% done!",
		"First paragraph.\n\nSecond one, with C# and $5.\nA third line",
		"www.example.org and http://example.org/a?b=c, mail a@b.co",
		"¿Qué es una función? «Una regla» — sí…",
		"方程式を解く。\n二次関数",
		"معادلة من الدرجة الأولى",
		"a  \nb\u00a0c\u2028d\fe\vf",
		"Foo\n===",
		"x\n    code",
		"1. one",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		src = strings.ToValidUTF8(src, "\uFFFD")
		if !noMarkup(src) {
			return
		}
		for _, n := range []int{0, 7} {
			if fast, parsed := collapse(src, n), parsedText(src, n); fast != parsed {
				t.Fatalf("PlainText(%q, %d): shortcut %q, parse %q", src, n, fast, parsed)
			}
		}
	})
}

// FuzzCollapse checks collapse's shortcut: wherever collapsed says a
// string stays as it is, recollapse gives it back unchanged.
func FuzzCollapse(f *testing.F) {
	for _, s := range []string{
		"Slope and intercept", "", " a", "a ", "a  b", "a\tb", "a\nb", "a\u00a0b", "a\u2028b",
		"¿Qué es? 方程式", "bad \xff utf-8", "\ufffd", "a\x00b\x7f", "x\u0085y",
	} {
		f.Add(s, 0)
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if collapsed(s, n) {
			if got := recollapse(s, n); got != s {
				t.Fatalf("collapsed(%q, %d) but recollapse gives %q", s, n, got)
			}
		}
	})
}

// FuzzNode renders arbitrary bytes as one attribute member, under an
// arbitrary key, beside a description and objectives.
func FuzzNode(f *testing.F) {
	for _, s := range []struct{ key, raw string }{
		{"notes", `"Some *markdown*"`},
		{"vocabulary", `[{"term":"<b>t</b>","definition":"[d](javascript:x)"}]`},
		{"rubric", `[{"criterion":"c","points":3},{"criterion":null}]`},
		{`<b>key"`, `{"a":{"b":[1,2.5e3,true,null,"x"]}}`},
		{"deep", strings.Repeat("[", 50) + strings.Repeat("]", 50)},
		{"broken", `{"a": <script>}`},
		{"title", `"Title"`},
		{"description", `{"not":"a string"}`},
		{"learning_objectives", `"one string"`},
		{"", `""`},
		{"n", `-0.0e-0`},
	} {
		f.Add(s.key, []byte(s.raw))
	}
	r := New()
	onPanic = func(v any) { panic(v) }
	f.Fuzz(func(t *testing.T, key string, raw []byte) {
		attrs := map[string]json.RawMessage{
			key:                   raw,
			"description":         json.RawMessage(`"Intro[^1]\n\n[^1]: note"`),
			"learning_objectives": json.RawMessage(`["Learn *this*"]`),
		}
		got, err := r.Node(attrs, "Title", nil, "n1-")
		if err != nil {
			t.Fatal(err)
		}
		checkHTML(t, string(got))
		again, _ := r.Node(attrs, "Title", nil, "n1-")
		if again != got {
			t.Fatal("not deterministic")
		}
	})
}
