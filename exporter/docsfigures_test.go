package exporter_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fetch"
)

// docText returns docs/name with its lines joined by spaces, so that a
// quoted figure may wrap.
func docText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(b)), " ")
}

// quoted returns the submatches of re in doc, or fails naming what the
// document no longer says.
func quoted(t *testing.T, doc, text string, re *regexp.Regexp) []string {
	t.Helper()
	m := re.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("docs/%s no longer says %s: update this test with the document", doc, re)
	}
	return m[1:]
}

// TestDocsQuoteTheDefaults (issue 25): docs/fetching.md gave the default
// formats as html,json and said whoami's first contact was not retried
// when nothing listens. The figures it quotes are the code's.
func TestDocsQuoteTheDefaults(t *testing.T) {
	t.Parallel()
	text := docText(t, "fetching.md")
	m := quoted(t, "fetching.md", text, regexp.MustCompile("`--formats` chooses the formats: .*? by default `([a-z,]+)`"))
	if want := strings.Join(exporter.DefaultFormats(), ","); m[0] != want {
		t.Errorf("docs/fetching.md gives the default formats as %s; they are %s", m[0], want)
	}
	m = quoted(t, "fetching.md", text, regexp.MustCompile(`retried as \[below\]\(#retries\), but (\d+) attempts at most, (\d+) s each`))
	if n, _ := strconv.Atoi(m[0]); n != fetch.FirstContactAttempts {
		t.Errorf("docs/fetching.md says the first contact makes %s attempts at most; it makes %d", m[0], fetch.FirstContactAttempts)
	}
	if s, _ := strconv.Atoi(m[1]); s != int(fetch.FirstContactTimeout.Seconds()) {
		t.Errorf("docs/fetching.md says each attempt of the first contact has %s s; it has %s", m[1], fetch.FirstContactTimeout)
	}
	if !strings.Contains(text, "(`fetch.Verify`, the same for `export`, `plan` and `whoami`)") {
		t.Error("docs/fetching.md no longer says whoami makes the first contact of export")
	}
}

// TestDocsOnThisPageCount (issue 25): docs/formats.md quoted how many of
// the sample's node pages show an "On this page" box, and the figure had
// gone stale (508 of 732; the sample gives 504 of 716). This counts in
// the sample's website (the shared export, sampleExport).
func TestDocsOnThisPageCount(t *testing.T) {
	t.Parallel()
	m := quoted(t, "formats.md", docText(t, "formats.md"), regexp.MustCompile(`(\d+) of the sample's (\d+) node pages have one`))
	nodes, boxes := 0, 0
	for p, body := range files(t, sampleExport(t).Out) {
		if !strings.HasSuffix(p, ".html") || !strings.Contains(body, `<body class="page-node"`) {
			continue
		}
		nodes++
		if strings.Contains(body, `<nav class="on-this-page"`) {
			boxes++
		}
	}
	if got := []string{strconv.Itoa(boxes), strconv.Itoa(nodes)}; got[0] != m[0] || got[1] != m[1] {
		t.Errorf(`docs/formats.md says %s of the sample's %s node pages have an "On this page" box; the sample gives %s of %s`, m[0], m[1], got[0], got[1])
	}
}
