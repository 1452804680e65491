package docsite

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// root is the repository's root, from this package's folder.
const root = "../../.."

// mkdocs returns the path of mkdocs. It skips the test with -short (make
// check runs no external program) and when mkdocs is not on PATH, or
// fails it there under CUREX_REQUIRE_TOOLS=1 (make test).
func mkdocs(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no mkdocs (make test runs it)")
	}
	path, err := exec.LookPath("mkdocs")
	if err != nil {
		if os.Getenv("CUREX_REQUIRE_TOOLS") == "1" {
			t.Fatal("mkdocs is not on PATH and CUREX_REQUIRE_TOOLS=1 (Debian: apt-get install mkdocs)")
		}
		t.Skip("mkdocs is not on PATH; set CUREX_REQUIRE_TOOLS=1 to fail instead")
	}
	return path
}

// build runs mkdocs build --strict with the configuration file config
// into a temporary folder and returns its output and whether it passed.
func build(t *testing.T, mkdocs, config string) (string, bool) {
	t.Helper()
	cmd := exec.Command(mkdocs, "build", "--strict", "--config-file", config, "--site-dir", t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("running mkdocs: %v", err)
		}
	}
	return string(out), err == nil
}

// TestDocsSiteBuildsStrictly (issue 26): docs/ had no index and no
// navigation and was never built. mkdocs.yml at the root builds it, and
// --strict fails on a link to a missing page or #anchor, in docs/ and in
// README.md and CONTRIBUTING.md.
func TestDocsSiteBuildsStrictly(t *testing.T) {
	mk := mkdocs(t)
	config := filepath.Join(root, "mkdocs.yml")
	if _, err := os.Stat(config); err != nil {
		t.Fatalf("no docs site: %v", err)
	}
	if out, ok := build(t, mk, config); !ok {
		t.Fatalf("mkdocs build --strict failed:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(root, "docs", "index.md")); err != nil {
		t.Errorf("the docs site has no home page: %v", err)
	}
}

// TestDocsSiteRefusesBrokenLinks builds small sites with the repository's
// hooks: a link to a missing #anchor fails the build, from a page of docs/
// and from a Markdown file at the root, as does a root file's link to a
// missing file, while a page's link to a file outside docs/ passes (it
// points at the repository in the site).
func TestDocsSiteRefusesBrokenLinks(t *testing.T) {
	mk := mkdocs(t)
	hooks, err := filepath.Abs(filepath.Join(root, ".ci", "mkdocs_hooks.py"))
	if err != nil {
		t.Fatal(err)
	}
	const other = "# Other\n\n## A section\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // "" when the build passes, else a piece of its warning
	}{
		{"good", map[string]string{
			"docs/index.md": "# Home\n\n[a](other.md#a-section) [top](#home) [out](../action.yml) `[code](../nowhere.md)`\n",
			"README.md":     "[docs](docs/other.md#a-section)\n", "action.yml": "name: x\n",
		}, ""},
		{"page anchor", map[string]string{
			"docs/index.md": "# Home\n\n[a](other.md#no-such-section)\n",
		}, "has no anchor #no-such-section"},
		{"anchor on the same page", map[string]string{
			"docs/index.md": "# Home\n\n[a](#nowhere)\n",
		}, "has no anchor #nowhere"},
		{"missing page", map[string]string{
			"docs/index.md": "# Home\n\n[a](gone.md)\n",
		}, "gone.md"},
		{"root file anchor", map[string]string{
			"README.md": "[docs](docs/other.md#no-such-section)\n",
		}, "whose page has no anchor #no-such-section"},
		{"root file missing file", map[string]string{
			"CONTRIBUTING.md": "[x](docs/gone.md)\n",
		}, "docs/gone.md, which is not a file of the repository"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"mkdocs.yml":    "site_name: t\nrepo_url: https://example.org/r\nuse_directory_urls: false\nhooks:\n  - " + hooks + "\nmarkdown_extensions:\n  - toc\n",
				"docs/index.md": "# Home\n", "docs/other.md": other,
			}
			for name, body := range tc.files {
				files[name] = body
			}
			for name, body := range files {
				path := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, ok := build(t, mk, filepath.Join(dir, "mkdocs.yml"))
			switch {
			case tc.want == "" && !ok:
				t.Fatalf("the build failed:\n%s", out)
			case tc.want != "" && ok:
				t.Fatalf("the build passed; want a failure naming %q:\n%s", tc.want, out)
			case tc.want != "" && !strings.Contains(out, tc.want):
				t.Fatalf("the build failed without naming %q:\n%s", tc.want, out)
			}
		})
	}
}

// heading matches a second-level heading of Markdown.
var heading = regexp.MustCompile(`(?m)^## (.+)$`)

// TestReadmeStartsFromAToken (issue 26): README.md opened with make demo
// and make test and a long paragraph on the test set-up. It now opens with
// what curex is and a screenshot, then install, a quickstart from a token
// to a published site, a nightly CI job, and where to go next; the two
// commands a new user runs on a fresh machine are still in it; the test
// set-up is in CONTRIBUTING.md.
func TestReadmeStartsFromAToken(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	var got []string
	for _, m := range heading.FindAllStringSubmatch(text, -1) {
		got = append(got, m[1])
	}
	pos := func(prefix string) int {
		return slices.IndexFunc(got, func(h string) bool { return strings.HasPrefix(h, prefix) })
	}
	order := []string{"Install", "Quickstart", "Nightly in CI", "No token yet", "Where to go next"}
	last := -1
	for _, h := range order {
		i := pos(h)
		if i < 0 {
			t.Errorf("README.md has no section %q (its sections: %q)", h, got)
			continue
		}
		if i < last {
			t.Errorf("README.md's section %q comes before %q; want the order %q", h, order[slices.Index(order, h)-1], order)
		}
		last = i
	}
	if len(got) > 0 && got[0] != "Install" {
		t.Errorf("README.md's first section is %q; want Install, after what curex is and a screenshot", got[0])
	}
	intro, _, _ := strings.Cut(text, "\n## ")
	if !strings.Contains(intro, "![") {
		t.Error("README.md shows no screenshot before its first section")
	}
	for _, line := range []string{"make demo ", "make test "} {
		if !strings.Contains(text, "\n"+line) {
			t.Errorf("README.md no longer gives the command %q", strings.TrimSpace(line))
		}
	}
	_, quick, ok := strings.Cut(text, "\n## Quickstart")
	if !ok {
		t.Fatal("README.md has no quickstart")
	}
	quick, _, _ = strings.Cut(quick, "\n## ")
	for _, want := range []string{"CURRICULUM_API_TOKEN", "curex whoami", "curex export", "curex serve", "curex publish"} {
		if !strings.Contains(quick, want) {
			t.Errorf("README.md's quickstart does not use %s", want)
		}
	}
	contributing, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatalf("no CONTRIBUTING.md for the contributor material: %v", err)
	}
	if !strings.Contains(string(contributing), "make test") || strings.Contains(text, "cyclonedx-gomod") {
		t.Error("the test set-up (what make test installs) belongs in CONTRIBUTING.md, not README.md")
	}
}

// TestDocsNameOneTokenVariable (issue 26): the README and the docs' home
// page named CUREX_TOKEN in one place and CURRICULUM_API_TOKEN in another.
// The pages a user starts from name CURRICULUM_API_TOKEN only, as
// --help, the sandbox's banner and the CI action do.
func TestDocsNameOneTokenVariable(t *testing.T) {
	for _, name := range []string{"README.md", "docs/index.md", "CONTRIBUTING.md"} {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "CUREX_TOKEN") {
			t.Errorf("%s names CUREX_TOKEN; the token's variable is CURRICULUM_API_TOKEN everywhere a user starts from", name)
		}
	}
}
