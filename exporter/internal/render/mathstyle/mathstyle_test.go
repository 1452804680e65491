package mathstyle

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
)

func TestCSS(t *testing.T) {
	tests := []struct {
		name, url string
		want      []string // substrings, in order
		not       []string
	}{
		{"with font", "latinmodern-math.0123abcd.woff2", []string{
			"@font-face {", `font-family: "Latin Modern Math";`, `src: url("latinmodern-math.0123abcd.woff2") format("woff2");`,
			`math { font-family: "Latin Modern Math", math; }`,
			`math { font-size: 1.21em; }`,
			`mtd[columnalign="left"] { text-align: left; text-align: -webkit-left; }`,
			`mtd[columnalign="right"] { text-align: right; text-align: -webkit-right; }`,
			`mtd[columnalign="center"] { text-align: center; text-align: -webkit-center; }`,
			`mtable.tml-jot > mtr > mtd { padding-top: 0.7ex; padding-bottom: 0.7ex; }`,
			`mtd.tml-pl-0 { padding-left: 0; }`, `mtd.tml-pr-0 { padding-right: 0; }`,
			`mtd.tml-pl-array { padding-left: 5.9776pt; }`, `mtd.tml-pr-array { padding-right: 5.9776pt; }`,
		}, nil},
		{"no font", "", []string{`math { font-family: "Latin Modern Math", math; }`, `text-align: -webkit-right;`}, []string{"@font-face", "url("}},
		{"quoted", `a"b.woff2`, []string{`url("a\"b.woff2")`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			css := string(CSS(tt.url))
			rest := css
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("CSS(%q) =\n%s\nmissing %s", tt.url, css, w)
				}
				rest = rest[i+len(w):]
			}
			for _, n := range tt.not {
				if strings.Contains(css, n) {
					t.Errorf("CSS(%q) holds %s", tt.url, n)
				}
			}
		})
	}
}

// TestCellClass: each length Temml writes has a class for each side,
// which Styles accepts on an mtd and the style sheet declares; nothing
// else has one.
func TestCellClass(t *testing.T) {
	css := string(CSS(""))
	for _, tt := range []struct {
		property, length, want string
	}{
		{"padding-left", "0em", "tml-pl-0"}, {"padding-right", "0pt", "tml-pr-0"}, {"padding-left", "0", "tml-pl-0"},
		{"padding-right", "5.9776pt", "tml-pr-array"}, {"padding-left", "1em", "tml-pl-quad"},
		{"padding-left", "0.1389em", "tml-pl-small"}, {"padding-right", "0.25em", "tml-pr-cd"}, {"padding-right", "0.4em", "tml-pr-env"},
		{"padding-left", "2em", ""}, {"padding-left", "0em ", ""}, {"padding-left", "url(x)", ""},
		{"padding", "0", ""}, {"margin-left", "0em", ""}, {"Padding-Left", "0em", ""},
	} {
		got, ok := CellClass(tt.property, tt.length)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("CellClass(%q, %q) = %q, %v, want %q", tt.property, tt.length, got, ok, tt.want)
		}
		if ok && (!Styles("mtd", got) || Styles("mtable", got) || !strings.Contains(css, "mtd."+got+" {")) {
			t.Errorf("%s: not a class of mtd the style sheet declares", got)
		}
	}
	for _, c := range []string{"tml-jot", "tml-small"} {
		if !Styles("mtable", c) || Styles("mtd", c) || Styles("mi", c) {
			t.Errorf("Styles(%q) wrong", c)
		}
	}
	for _, c := range []string{"", "tml-left", "tml-pl-", "tml-pl-x", "math-display"} {
		if Styles("mtd", c) || Styles("mtable", c) {
			t.Errorf("Styles(_, %q) = true", c)
		}
	}
}

func TestFont(t *testing.T) {
	f := Font()
	if !bytes.HasPrefix(f, []byte("wOF2")) || len(f) != 391676 {
		t.Fatalf("font: %d bytes starting %q, want the 391,676 of Latin Modern Math's WOFF2", len(f), f[:4])
	}
	f[0] = 'x'
	if Font()[0] != 'w' {
		t.Error("Font shares its bytes with the caller")
	}
	data, ok := strings.CutPrefix(DataURL(), "data:font/woff2;base64,")
	if !ok {
		t.Fatalf("DataURL starts %.40s", DataURL())
	}
	if b, err := base64.StdEncoding.DecodeString(data); err != nil || !bytes.Equal(b, Font()) {
		t.Errorf("DataURL does not hold the font: %v", err)
	}
}

func TestHolds(t *testing.T) {
	for _, tt := range []struct {
		markup string
		want   bool
	}{
		{`<p><math><mi>x</mi></math></p>`, true},
		{`<div class="math-display"><math display="block"><mn>1</mn></math></div>`, true},
		{`<p>&lt;math&gt; is text</p>`, false},
		{`<code class="math-error">$\frac{1}{$</code>`, false},
		{``, false},
	} {
		if got := Holds([]byte(tt.markup)); got != tt.want {
			t.Errorf("Holds(%q) = %v, want %v", tt.markup, got, tt.want)
		}
	}
}
