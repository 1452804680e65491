package markdown

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/model"
	"go.yaml.in/yaml/v3"
	xhtml "golang.org/x/net/html"
)

// mkdocsConfig builds a bundle as a site's docs_dir with the hooks that
// docs/markdown.md gives. Directory URLs are off so that each page is
// NAME.html, which keeps the checks below simple; with the default (on)
// the bundle builds as well.
const mkdocsConfig = `site_name: curex bundle
docs_dir: docs
site_dir: site
use_directory_urls: false
hooks:
  - curex_hooks.py
`

// mkdocsHooks returns the hooks file of docs/markdown.md: its first
// python code block.
func mkdocsHooks(t *testing.T) []byte {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "markdown.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "\n```python\n")
	code, _, closed := strings.Cut(rest, "\n```\n")
	if !ok || !closed {
		t.Fatal("docs/markdown.md has no python code block")
	}
	return []byte(code + "\n")
}

// nextLink finds the "next page" link of the mkdocs theme.
var nextLink = regexp.MustCompile(`<a rel="next" href="([^"]+)"`)

// TestMkDocsBuild builds sample bundles, and one with hostile titles, with
// "mkdocs build --strict", which fails on any warning (a broken link
// among them), and checks that every page was built with the title of its
// front matter, so that MkDocs read the front matter as YAML. It skips
// when mkdocs is not on PATH, unless CUREX_REQUIRE_TOOLS=1, and with
// -short (make check), which runs no external program.
func TestMkDocsBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no mkdocs (make test runs it)")
	}
	mkdocs, err := exec.LookPath("mkdocs")
	if err != nil {
		if os.Getenv("CUREX_REQUIRE_TOOLS") == "1" {
			t.Fatal("mkdocs is not on PATH and CUREX_REQUIRE_TOOLS=1 (Debian: apt-get install mkdocs)")
		}
		t.Skip("mkdocs is not on PATH; set CUREX_REQUIRE_TOOLS=1 to fail instead")
	}
	hooks := mkdocsHooks(t)
	hostileTitles := hostileTree()
	hostileTitles.Nodes = hostileTitles.Nodes[:len(hostileTitles.Nodes)-1] // not the 1 MB one: slow, and proven elsewhere
	for _, tc := range []struct {
		name string
		tree *model.Tree
	}{
		{"texas-es", sample(t, "algebra-1/texas/es")},
		{"houston-isd-ar", sample(t, "algebra-1/houston-isd/ar")},
		{"cs-summer-intensive-en", sample(t, "introduction-to-computer-science/summer-intensive/en")},
		{"hostile", hostileTitles},
		{"hostile-content", hostileContentTree()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, e := write(t, tc.tree, Options{})
			files := w.bundleFiles(e)
			dir := t.TempDir()
			for name, data := range files {
				p := filepath.Join(dir, "docs", filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, "mkdocs.yml"), []byte(mkdocsConfig), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "curex_hooks.py"), hooks, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, mkdocs, "build", "--strict", "--config-file", "mkdocs.yml")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HOME="+dir) // no user configuration or cache
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("mkdocs build --strict: %v\n%s", err, out)
			}

			// Every page was built, with the title of its front matter.
			raw, err := os.ReadFile(filepath.Join(dir, "site", "search", "search_index.json"))
			if err != nil {
				t.Fatal(err)
			}
			var index struct {
				Docs []struct{ Location, Title string }
			}
			if err := json.Unmarshal(raw, &index); err != nil {
				t.Fatal(err)
			}
			titles := map[string]string{}
			for _, d := range index.Docs {
				if !strings.Contains(d.Location, "#") {
					loc, err := url.PathUnescape(d.Location) // 01-%D8%A3... for a name in Arabic
					if err != nil {
						t.Fatal(err)
					}
					titles[loc] = d.Title
				}
			}
			for name, data := range files {
				page := strings.TrimSuffix(name, ".md") + ".html"
				built, err := os.ReadFile(filepath.Join(dir, "site", filepath.FromSlash(page)))
				if err != nil {
					t.Errorf("%s was not built: %v", name, err)
				}
				// Python-Markdown kept hostile titles as text.
				for _, raw := range []string{"<script>alert(1)", "<img src=x", "<!-- open comment"} {
					if strings.Contains(string(built), raw) {
						t.Errorf("%s: the built page holds %q as markup", name, raw)
					}
				}
				if p := activeContent(string(built)); p != "" {
					t.Errorf("%s: the built page runs content: %s", name, p)
				}
				if name == "SUMMARY.md" {
					continue
				}
				yml, _ := splitFrontMatter(t, data)
				var fm struct{ Title string }
				if err := yaml.Unmarshal([]byte(yml), &fm); err != nil {
					t.Fatal(err)
				}
				if got, ok := titles[page]; !ok || html.UnescapeString(got) != fm.Title {
					t.Errorf("%s: MkDocs title %q, want the front matter's %q, escaped", name, got, fm.Title)
				}
			}

			// The hooks order the pages as the curriculum: following the
			// "next" links from the home page visits them in reading order.
			var want []string
			for _, name := range w.order {
				if rest, ok := strings.CutPrefix(name, e.Dir); ok && rest != "SUMMARY.md" {
					want = append(want, strings.TrimSuffix(rest, ".md")+".html")
				}
			}
			var got []string
			for page := "index.html"; page != "" && len(got) <= len(files); {
				got = append(got, page)
				built, err := os.ReadFile(filepath.Join(dir, "site", filepath.FromSlash(page)))
				if err != nil {
					t.Fatal(err)
				}
				m := nextLink.FindSubmatch(built)
				if m == nil {
					break
				}
				next, err := url.PathUnescape(html.UnescapeString(string(m[1])))
				if err != nil {
					t.Fatal(err)
				}
				page = path.Join(path.Dir(page), next)
			}
			if len(got) > len(want) {
				got = got[:len(want)] // SUMMARY.md comes last
			}
			if !slices.Equal(got, want) {
				t.Errorf("next links visit\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// evil marks what hostile content would run: a page that carries it in an
// attribute, or in a script, runs content.
const evil = "EVIL"

// hostileContentTree returns a tree whose descriptions, objectives and
// table cells try to run a script in a renderer that trusts its Markdown,
// as Python-Markdown does: raw HTML, refused link schemes, syntax that one
// renderer reads as code, TeX or a footnote and another as a tag or a
// link. Every payload carries evil.
func hostileContentTree() *model.Tree {
	payloads := []string{
		"[x](javascript:EVIL())",
		"<img src=x onerror=EVIL()>",
		"x <img src=x onerror=EVIL`1`>",
		`a \<script>EVIL()</script>`,
		"<script>EVIL()</script>",
		"<a href=\"javascript:EVIL()\">x</a>",
		"- a\n\n  ```\n  <img src=x onerror=EVIL()>\n  ```",
		"<details><summary>s</summary><img src=x onerror=EVIL()></details>",
		"> <div onclick=EVIL()>q</div>",
		"$<img src=x onerror=EVIL()>$",
		"$$\n<img src=x onerror=EVIL()>\n$$",
		"[^1]\n\n[^1]: javascript:EVIL()",
		"<javascript:EVIL()>",
		"[<](javascript:a)javascript:EVIL()>",
		"[r]\n\n[r]: <javascript:EVIL()>",
	}
	var nodes []*model.Node
	for i, p := range payloads {
		n := testNode(fmt.Sprintf("n%d", i), fmt.Sprintf("Payload %d", i))
		raw, _ := json.Marshal(p)
		n.Attributes["description"] = raw
		n.Attributes["learning_objectives"] = json.RawMessage(`[` + string(raw) + `, "ok"]`)
		n.Attributes["rubric"] = json.RawMessage(`[{"criterion": ` + string(raw) + `, "points": 1}]`)
		nodes = append(nodes, n)
	}
	return testTree(nodes...)
}

// activeContent returns what in a built page would run hostile content:
// evil in an attribute (an event handler, a URL) or in a script, or a
// link to a refused scheme; "" when there is none.
func activeContent(page string) string {
	z := xhtml.NewTokenizer(strings.NewReader(page))
	inScript := false
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return ""
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			tok := z.Token()
			inScript = tok.Data == "script"
			for _, a := range tok.Attr {
				v := strings.ToLower(strings.TrimSpace(a.Val))
				if strings.Contains(a.Val, evil) || (a.Key == "href" || a.Key == "src") &&
					(strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "vbscript:") || strings.HasPrefix(v, "data:")) {
					return fmt.Sprintf("<%s %s=%q>", tok.Data, a.Key, a.Val)
				}
			}
		case xhtml.EndTagToken:
			inScript = false
		case xhtml.TextToken:
			if inScript && strings.Contains(string(z.Text()), evil) {
				return "a script with " + evil
			}
		}
	}
}
