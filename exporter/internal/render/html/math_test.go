package html

import (
	"bytes"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/render/mathstyle"
)

// TestMathStyleOnMathPages is issue 25's reproduction of the website's
// math: columns of aligned, cases and array were left-aligned in Chromium
// and formulas were set in whatever font the browser had. Every page that
// holds math links math.css (package mathstyle: the -webkit- alignment
// rules, the columns' spacing, formulas at 1.21em and the @font-face of
// Latin Modern Math), whose font is an asset
// with its content hash in its name; no page without math links it, so
// only pages with math load the font.
func TestMathStyleOnMathPages(t *testing.T) {
	_, w := rendered(t)
	link := regexp.MustCompile(`<link rel="stylesheet" href="([^"]*assets/math\.[0-9a-f]{8}\.css)">`)
	withMath, aligned := 0, 0
	var sheet string
	for _, name := range w.names() {
		if path.Ext(name) != ".html" {
			continue
		}
		page := string(w.files[name])
		holds := strings.Contains(page, "<math")
		m := link.FindStringSubmatch(page)
		switch {
		case holds && m == nil:
			t.Errorf("%s holds math but does not link math.css", name)
		case !holds && m != nil:
			t.Errorf("%s links math.css without math", name)
		case holds:
			withMath++
			sheet = path.Clean(path.Join(path.Dir(name), m[1]))
			if strings.Contains(page, `<mtd columnalign="right" class="tml-pl-0 tml-pr-0">`) {
				aligned++
			}
		}
	}
	if withMath == 0 {
		t.Fatal("no page of the sample holds math")
	}
	if aligned == 0 {
		t.Error("no page keeps the spacing of aligned's columns (class tml-pl-0 tml-pr-0)")
	}
	css := string(w.files[sheet])
	for _, want := range []string{
		`mtd[columnalign="right"] { text-align: right; text-align: -webkit-right; }`,
		`mtd[columnalign="left"] { text-align: left; text-align: -webkit-left; }`,
		`math { font-family: "Latin Modern Math", math; }`,
		`mtd.tml-pl-0 { padding-left: 0; }`, `mtd.tml-pl-array { padding-left: 5.9776pt; }`,
		`math { font-size: 1.21em; }`,
	} {
		if !strings.Contains(css, want) {
			t.Errorf("%s lacks %s", sheet, want)
		}
	}
	font := regexp.MustCompile(`url\("(latinmodern-math\.[0-9a-f]{8}\.woff2)"\)`).FindStringSubmatch(css)
	if font == nil {
		t.Fatalf("%s loads no hashed font:\n%s", sheet, css)
	}
	if got := w.files[layout.Asset(font[1])]; !bytes.Equal(got, mathstyle.Font()) {
		t.Errorf("asset %s: %d bytes, want the font's %d", font[1], len(got), len(mathstyle.Font()))
	}
	if site := string(w.files[layout.Asset(path.Base(regexp.MustCompile(`assets/(site\.[0-9a-f]{8}\.css)`).FindString(string(w.files["index.html"]))))]); strings.Contains(site, "columnalign") || strings.Contains(site, "@font-face") {
		t.Error("site.css holds math's rules: they have one home, math.css")
	}
}
