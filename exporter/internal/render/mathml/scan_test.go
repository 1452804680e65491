package mathml

import (
	"reflect"
	"strings"
	"testing"
)

func TestInline(t *testing.T) {
	tests := []struct {
		in   string
		tex  string
		n    int
		d    Delim
		none bool
	}{
		{in: `$x$ rest`, tex: "x", n: 3, d: Dollar},
		{in: `$a+b = c$.`, tex: "a+b = c", n: 9, d: Dollar},
		{in: `$5 and $10`, none: true},
		{in: `$ x$`, none: true},
		{in: `$x $`, none: true},
		{in: `$x$5`, none: true},
		{in: `$x$5 and $y$`, tex: "x$5 and $y", n: 12, d: Dollar},
		{in: `$\$5$`, tex: `\$5`, n: 5, d: Dollar},
		{in: `$a\\$`, tex: `a\\`, n: 5, d: Dollar},
		{in: "$x\ny$", none: true},
		{in: `$`, none: true},
		{in: `$$x^2$$ and`, tex: "x^2", n: 7, d: DoubleDollar},
		{in: `$$ $$`, none: true},
		{in: `$$x`, none: true},
		{in: `\(x\) y`, tex: "x", n: 5, d: Paren},
		{in: `\[x\] y`, tex: "x", n: 5, d: Bracket},
		{in: "\\(x\n\\)", none: true},
		{in: `\( \)`, none: true},
		{in: `\x`, none: true},
	}
	for _, tt := range tests {
		tex, n, d := Inline(tt.in)
		if tt.none {
			if n != 0 {
				t.Errorf("Inline(%q) = %q, %d; want none", tt.in, tex, n)
			}
			continue
		}
		if tex != tt.tex || n != tt.n || d != tt.d {
			t.Errorf("Inline(%q) = %q, %d, %d; want %q, %d, %d", tt.in, tex, n, d, tt.tex, tt.n, tt.d)
		}
	}
}

func TestScan(t *testing.T) {
	type sp struct {
		TeX   string
		Delim Delim
		Block bool
	}
	tests := []struct {
		name string
		src  string
		want []sp
	}{
		{"prose dollars", "It costs $5 and $10.", nil},
		{"inline", "Solve $2x + 3 = 7$ for $x$.", []sp{{"2x + 3 = 7", Dollar, false}, {"x", Dollar, false}}},
		{"escaped", `Pay \$5 and $x$`, []sp{{"x", Dollar, false}}},
		{"escaped paren", `\\(x\\)`, nil},
		{"code span", "Use `$x$` and ``a $y$ b`` but $z$", []sp{{"z", Dollar, false}}},
		{"display block", "Text\n\n$$\nx = 1\n$$\n\nafter $y$", []sp{{"\nx = 1\n", DoubleDollar, true}, {"y", Dollar, false}}},
		{"one-line block", "$$x^2$$\n", []sp{{"x^2", DoubleDollar, true}}},
		{"one-line blocks and a paragraph", "$$a$$\nnext $x$\n\\[b\\]\n", []sp{{"a", DoubleDollar, true}, {"x", Dollar, false}, {"b", Bracket, true}}},
		{"two displays on one line", "$$a$$ b $$c$$", []sp{{"a", DoubleDollar, false}, {"c", DoubleDollar, false}}},
		{"bracket block", "\\[\na \\\\ b\n\\]", []sp{{"\na \\\\ b\n", Bracket, true}}},
		{"math fence", "```math\n\\frac12\n```\n", []sp{{"\\frac12\n", Fence, true}}},
		{"code fence", "```\n$x$\n```\n$y$", []sp{{"y", Dollar, false}}},
		{"tilde fence", "~~~ python\n$x$\n~~~", nil},
		{"indented code", "Text\n\n    $x$\n\n$y$", []sp{{"y", Dollar, false}}},
		{"inline display", "so $$x$$ here", []sp{{"x", DoubleDollar, false}}},
		{"parens", `\(a\) and \[b\]`, []sp{{"a", Paren, false}, {"b", Bracket, false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []sp
			for _, s := range Scan(tt.src) {
				got = append(got, sp{s.TeX, s.Delim, s.Block})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Scan(%q)\n got %+v\nwant %+v", tt.src, got, tt.want)
			}
		})
	}
}

// TestBlockOpen checks which lines open a display block, and which of
// those are a whole block on one line (issue 25: "$$y = mx + b$$" alone
// on a line is one block; "$$a$$ b $$c$$" is a paragraph of two
// expressions, as Pandoc, KaTeX's auto-render and MathJax read it).
func TestBlockOpen(t *testing.T) {
	tests := []struct {
		line, opener, tex string
		one, ok           bool
	}{
		{"$$", "$$", "", false, true},
		{`\[`, `\[`, "", false, true},
		{"   $$  ", "$$", "", false, true},
		{"    $$", "", "", false, false}, // indented code
		{"$$y = mx + b$$", "$$", "y = mx + b", true, true},
		{`\[y = mx + b\]`, `\[`, "y = mx + b", true, true},
		{"  $$ y = mx + b $$ \t", "$$", " y = mx + b ", true, true},
		{`\[ \frac{1}{2} \]`, `\[`, ` \frac{1}{2} `, true, true},
		{"$$a$$ b $$c$$", "", "", false, false},
		{"$$a$$ $$c$$", "", "", false, false},
		{`\[a\] and \[b\]`, "", "", false, false},
		{"$$a$$ b", "", "", false, false},
		{"$$5 off", "", "", false, false},
		{"$$ $$", "", "", false, false},
		{`$$y = mx + b\$$`, "", "", false, false}, // the closer is escaped
		{`\$$y$$`, "", "", false, false},
		{"`$$y$$`", "", "", false, false},
		{"text $$y$$", "", "", false, false},
	}
	for _, tt := range tests {
		opener, tex, one, ok := BlockOpen(tt.line)
		if opener != tt.opener || tex != tt.tex || one != tt.one || ok != tt.ok {
			t.Errorf("BlockOpen(%q) = %q, %q, %v, %v; want %q, %q, %v, %v", tt.line, opener, tex, one, ok, tt.opener, tt.tex, tt.one, tt.ok)
		}
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{"$x$ and $5 and $10", "```math\nx\n```", "$$\na\n$$", "\\[x\\]", "`$x$` $y$", "    $x$", "\\$x$",
		"$$y = mx + b$$\nnext\n$$m$$", "\\[a\\]\n![i](u)", "$$a$$ b $$c$$", "$$a\\$$\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		end := 0
		for _, s := range Scan(src) {
			if s.Start < end || s.End > len(src) || s.Start > s.End {
				t.Fatalf("span %+v out of order or range (after %d, len %d)", s, end, len(src))
			}
			if !strings.Contains(src[s.Start:s.End], s.TeX) && s.Block == false {
				t.Fatalf("span %+v: TeX not inside %q", s, src[s.Start:s.End])
			}
			if !s.Block && strings.ContainsAny(s.TeX, "\r\n") {
				t.Fatalf("inline span %+v spans lines", s)
			}
			end = s.End
		}
	})
}
