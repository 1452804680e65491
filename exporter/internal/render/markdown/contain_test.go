package markdown

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestContainment gives a node descriptions and attributes that leave a
// block open, and checks that the headings and child links written after
// them still render, and that a closed fence renders as the open one did.
func TestContainment(t *testing.T) {
	cases := []struct {
		name, md string
		// same: block(md) renders exactly as md does on its own (raw
		// HTML does not: content.Defang shows it as text).
		same bool
	}{
		{"backtick fence", "Intro\n\n```go\nfunc main() {}", true},
		{"tilde fence", "~~~~\ncode\n~~~", true},
		{"long fence", "`````\n```\nstill code\n````", true},
		{"indented fence", "   ```\ncode", true},
		{"empty fence", "```", true},
		{"fence with blank lines", "```\n\n\n", true},
		{"comment", "<!-- open comment\n\nstill comment", false},
		{"script", "<script>\nalert(1)\n\nmore", false},
		{"pre", "<PRE>\nkeep\n\nspaces", false},
		{"style", "<style>\np { }", false},
		{"textarea", "<textarea>\ntext", false},
		{"processing instruction", "<?php\necho 1;", false},
		{"declaration", "<!DOCTYPE html\n", false},
		{"cdata", "<![CDATA[\ndata", false},
		{"fence then comment", "```\n<!--", true},
		{"comment then fence", "<!--\n```", false},
		{"fence in quote", "> ```\n> code", true},
		{"fence in list", "- ```\n  code", true},
		{"closed", "```\ncode\n```\n\n<!-- c -->", false},
		{"html block 6", "<div>\n*x*", false},
		{"CR line endings", "```\rcode\r", true},
		{"NUL", "a\x00b\n```", true},
	}
	c := newContainment()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := c.block(tc.md)
			if c.leak(got) != nil {
				t.Fatalf("block(%q) = %q still leaks", tc.md, got)
			}
			if tc.same {
				want := normalize(tc.md)
				if a, b := renderHTML(t, got), renderHTML(t, want); a != b {
					t.Errorf("block(%q) = %q renders\n%s\nwant\n%s", tc.md, got, a, b)
				}
			}

			n := testNode("n1", "Node", testNode("c1", "Child"))
			raw, _ := json.Marshal(tc.md)
			n.Attributes = map[string]json.RawMessage{"description": raw, "notes": raw, "zzz": json.RawMessage(`"last"`)}
			tr := testTree(n)
			tr.Locale = "en"
			w, e := write(t, tr, Options{})
			_, body := splitFrontMatter(t, w.bundleFiles(e)["01-node/index.md"])
			info := inspect(t, renderHTML(t, body))
			if got, want := strings.Join(info.headings[2], "|"), "Notes|Zzz|In this section"; got != want {
				t.Errorf("h2 headings %q, want %q\n%s", got, want, body)
			}
			if len(info.items) == 0 || len(info.items[len(info.items)-1]) != 1 || info.items[len(info.items)-1][0].href != "01-child.md" {
				t.Errorf("no link to the child at the end:\n%s", body)
			}
		})
	}
}

// TestNormalize covers line endings, NUL, invalid UTF-8 and trimming.
func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"a\r\nb\rc\n":       "a\nb\nc",
		"\n\n  \n  x\n\n  ": "  x",
		"a\x00b":            "a\uFFFDb",
		"a\xffb":            "a\uFFFDb",
		"   ":               "",
		"x  \t\n":           "x",
	} {
		if got := normalize(in); got != want {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestInline checks the escaping of generated text.
func TestInline(t *testing.T) {
	for in, want := range map[string]string{
		"Plain title":                "Plain title",
		"  spaced  ":                 "spaced",
		"Unit (1): x.y!":             "Unit (1): x.y!",
		"](javascript:alert(1))":     `\](javascript:alert(1))`,
		"<script>":                   "&lt;script&gt;",
		"a & b":                      "a &amp; b",
		"*a* _b_ `c` #d [e] {f} \\g": `\*a\* \_b\_ \` + "`" + `c\` + "`" + ` \#d \[e\] \{f\} \\g`,
		"- x":                        `\- x`,
		"+ x":                        `\+ x`,
		"1. x":                       `1\. x`,
		"12) x":                      `12\) x`,
		"1.5 x":                      `1\.5 x`,
		"x - y":                      "x - y",
		"a|b ~c~":                    "a&#124;b &#126;c&#126;",
		"a\nb\tc\x00d":               "a b c d",
		"\u202eRLO":                  "&#x202E;RLO",
		"\xff":                       "\uFFFD",
		"日本語":                        "日本語",
	} {
		if got := inline(in); got != want {
			t.Errorf("inline(%q) = %q, want %q", in, got, want)
		}
	}
}
