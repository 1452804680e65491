package a11y_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// EnvAxe names the environment variable that gives the path of axe.min.js.
const EnvAxe = "CUREX_AXE_JS"

// tags are the axe-core rule sets checked: WCAG 2.0, 2.1 and 2.2 at levels A
// and AA, and axe-core's best practices.
var tags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"}

// pages are the website pages checked, relative to the output folder;
// query, when set, is the page's query string (?q= runs a search as the
// page loads, so its results are checked too).
var pages = []struct{ name, path, query string }{
	{"catalog", "index.html", ""},
	{"catalog-search", "index.html", "q=variable"},
	{"node-search", "algebra-1/houston-isd/ar/alg-u1-l1/index.html", "q=%D8%A7"},
	{"toc", "algebra-1/texas/es/index.html", ""},
	{"node", "algebra-1/texas/es/alg-u1-l1/index.html", ""},
	{"code-node", "introduction-to-computer-science/base/en/cs-m2-l3/index.html", ""},
	{"rtl-node", "algebra-1/houston-isd/ar/alg-u1-l1/index.html", ""},
	{"rtl-fallback-node", "algebra-1/houston-isd/ar/alg-hou-l1/index.html", ""},
	{"math-node", "algebra-1/texas/es/alg-app-a/index.html", ""},
	{"landing", "algebra-1/index.html", ""},
	{"whats-new", "algebra-1/texas/es/whats-new.html", ""},
	{"handbook", "algebra-1/houston-isd/ja/handbook.html", ""},
	{"rtl-handbook", "algebra-1/houston-isd/ar/handbook.html", ""},
	{"image-node", "introduction-to-computer-science/base/ja/cs-m1-l3/index.html", ""},
	{"failed-image-node", "introduction-to-computer-science/base/es/cs-m1-l1/index.html", ""},
}

// devices are the screens each page is loaded on, once per page and
// device: a desktop for every page, and a phone for the pages of its only
// field. Each load is checked in the light scheme, then in the dark one for
// the pages of dark (nil: every page), switched on the loaded page as a
// reader's system switches it (chromium.ColorScheme): loading a page anew
// per scheme doubled the test's time for the same checks.
var devices = []struct {
	name       string
	o          chromium.ScreenshotOptions
	only, dark []string
}{
	{name: "desktop"},
	{name: "phone", o: phone, only: []string{"catalog", "node", "code-node", "math-node", "rtl-node", "landing", "toc"}, dark: []string{"rtl-node", "landing"}},
}

// drawerPages are the pages checked once more on a phone with the
// navigation's drawer open (site.js), light and dark, on the same load.
var drawerPages = []string{"node", "rtl-node", "landing"}

func requireTools() bool { return os.Getenv("CUREX_REQUIRE_TOOLS") == "1" }

// axeSource reads axe.min.js from CUREX_AXE_JS or the repository's .tools
// folder, or skips the test.
func axeSource(t *testing.T) []byte {
	t.Helper()
	path := os.Getenv(EnvAxe)
	if path == "" {
		root, err := repoRoot()
		if err != nil {
			t.Fatal(err)
		}
		path = filepath.Join(root, ".tools", "node_modules", "axe-core", "axe.min.js")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		msg := fmt.Sprintf("axe-core: %v: run `make tools` (npm install axe-core into .tools) or set %s to axe.min.js", err, EnvAxe)
		if requireTools() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return src
}

// repoRoot is the folder of go.mod above the test's folder.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the test folder")
		}
		dir = parent
	}
}

// launch starts Chromium for the test, or skips it.
func launch(t *testing.T) *chromium.Browser {
	t.Helper()
	b, err := chromium.Launch(context.Background(), chromium.Options{})
	if err != nil {
		if errors.Is(err, chromium.ErrNoBrowser) && !requireTools() {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	})
	return b
}

// exportSample returns the folder of the sample dataset's richest
// organization exported in the formats given with the real exporter,
// against the sandbox in process. The export is made once per test binary
// and list of formats, by the first test that asks, and shared by every
// test asking for the same list: the tests only read it (a browser loads
// its pages from file://), so none may write into it. An export of the
// whole sample costs seconds of CPU under the race detector, and most
// tests here ask for the website alone.
func exportSample(t *testing.T, formats ...string) string {
	t.Helper()
	build, _ := sharedSites.LoadOrStore(strings.Join(formats, ","), sync.OnceValues(func() (string, error) {
		if err := os.MkdirAll(sharedRoot(), 0o755); err != nil {
			return "", err
		}
		dir, err := os.MkdirTemp(sharedRoot(), "site-")
		if err != nil {
			return "", err
		}
		out := filepath.Join(dir, "site")
		return out, exportInto(context.Background(), out, render.Identity{}, formats)
	}))
	out, err := build.(func() (string, error))()
	if err != nil {
		t.Fatalf("exporting the sample (%s): %v", strings.Join(formats, ","), err)
	}
	return out
}

// sharedSites maps a comma-joined list of formats to the function that
// exports the sample in them once (sync.OnceValues) and returns its
// folder, under sharedRoot.
var sharedSites sync.Map

// sharedRoot is the folder of the shared exports, named by the test
// binary's process so that TestMain removes it whether a test made it or
// not.
func sharedRoot() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("curex-a11y-%d", os.Getpid()))
}

// TestMain runs the tests, then removes the shared exports.
func TestMain(m *testing.M) {
	code := m.Run()
	if err := os.RemoveAll(sharedRoot()); err != nil {
		fmt.Fprintln(os.Stderr, "removing the shared exports:", err)
	}
	os.Exit(code)
}

// exportSampleAs exports the sample with the publisher's identity id into
// a folder of the test's own, and returns it.
func exportSampleAs(t *testing.T, id render.Identity, formats ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "site")
	if err := exportInto(t.Context(), out, id, formats); err != nil {
		t.Fatal(err)
	}
	return out
}

// exportInto exports the sample dataset's richest organization into out
// in formats, with the publisher's identity id; a partial export is an
// error.
func exportInto(ctx context.Context, out string, id render.Identity, formats []string) error {
	ds, err := dataset.Sample()
	if err != nil {
		return err
	}
	h, err := sandbox.New(ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	sum, err := exporter.Run(ctx, exporter.Config{
		BaseURL: "http://sandbox", AllowHTTP: true, Token: "sandbox-riverbend-token",
		Transport: &sandboxtest.Transport{Handler: h}, AssetTransport: &sandboxtest.Transport{Handler: h}, Limits: ratelimit.Limits{},
		Output: out, Formats: formats, Concurrency: 2, Generator: "curex a11y test", Site: id,
	})
	if err != nil {
		return err
	}
	if sum.Partial() {
		return fmt.Errorf("export failures: %+v", sum.Failures)
	}
	return nil
}

// TestWebsiteAccessibility fails on every serious or critical axe-core
// violation of the pages on every device and in every color scheme, and
// logs the moderate and minor ones.
func TestWebsiteAccessibility(t *testing.T) {
	if testing.Short() {
		t.Skip("exports the sample site and runs a browser")
	}
	axe := axeSource(t)
	b := launch(t)
	site := exportSample(t, "html", "json", "handbook")
	for _, p := range pages {
		file := filepath.Join(site, filepath.FromSlash(p.path))
		if _, err := os.Stat(file); err != nil {
			t.Errorf("%s: %v", p.name, err)
			continue
		}
		u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(file), RawQuery: p.query}).String()
		for _, d := range devices {
			if d.only != nil && !slices.Contains(d.only, p.name) {
				continue
			}
			states := []axeState{{name: "light"}}
			if d.dark == nil || slices.Contains(d.dark, p.name) {
				states = append(states, axeState{name: "dark", dark: true})
			}
			if d.o.Mobile && slices.Contains(drawerPages, p.name) {
				states = append(states, axeState{name: "drawer-open", act: openDrawer}, axeState{name: "drawer-open-dark", dark: true})
			}
			t.Run(p.name+"/"+d.name, func(t *testing.T) { checkAxeStates(t, b, axe, u, p.path, d.o, states) })
		}
	}
}

// axeState is one check of a loaded page: the color scheme to show, after
// act (when set) has acted on the page, for example opened the drawer.
// The page stays as act left it for the states after.
type axeState struct {
	name string
	dark bool
	act  func(tab context.Context) error
}

// checkAxeStates loads the page at u (named page in messages) once on the
// device o and runs axe-core with the rules of tags in each state, in
// order: a serious or critical violation fails the state's subtest, a
// lesser one is logged.
func checkAxeStates(t *testing.T, b *chromium.Browser, axe []byte, u, page string, o chromium.ScreenshotOptions, states []axeState) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := b.Visit(ctx, u, o, func(tab context.Context) error {
		for _, st := range states {
			if st.act != nil {
				if err := st.act(tab); err != nil {
					return fmt.Errorf("%s: %w", st.name, err)
				}
			}
			if err := chromium.ColorScheme(tab, st.dark); err != nil {
				return fmt.Errorf("%s: %w", st.name, err)
			}
			vs, err := chromium.AxeTab(tab, axe, chromium.AxeOptions{Tags: tags})
			if err != nil {
				return fmt.Errorf("%s: %w", st.name, err)
			}
			t.Run(st.name, func(t *testing.T) { report(t, page+" ("+st.name+")", vs) })
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// report fails the test on the serious and critical violations vs of page
// and logs the others.
func report(t *testing.T, page string, vs []chromium.Violation) {
	t.Helper()
	for _, x := range vs {
		switch x.Impact {
		case "serious", "critical":
			t.Errorf("%s: %s", page, x)
		default:
			t.Logf("%s: %s", page, x)
		}
	}
}

// TestWebsiteIdentityAccessibility checks the pages a publisher's identity
// changes (logo, accent colour, footer text and links, a Spanish catalog
// and per-locale overrides) in light and dark mode, as
// TestWebsiteAccessibility does the default site. (404.html links its
// style sheet from the site's root, so it is not checked from file://.)
func TestWebsiteIdentityAccessibility(t *testing.T) {
	if testing.Short() {
		t.Skip("exports the sample site and runs a browser")
	}
	axe := axeSource(t)
	b := launch(t)
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	logo := filepath.Join(root, "exporter", "cli", "testdata", "site-identity", "logo.svg")
	site := exportSampleAs(t, render.Identity{
		Title: "Riverbend Schools Curricula", Language: "es", Logo: logo, Favicon: logo, Accent: "#1d4e89",
		Footer: "© Riverbend Unified School District", Links: []render.Link{{Label: "About", URL: "https://example.org/about"}, {Label: "Legal", URL: "legal/"}},
		Locales: map[string]render.LocaleIdentity{"ar": {Title: "مناهج ريفربند", Footer: "© ريفربند"}},
	}, "html")
	for _, p := range []string{"index.html", "algebra-1/index.html", "algebra-1/texas/es/alg-u1-l1/index.html", "algebra-1/houston-isd/ar/alg-u1-l1/index.html"} {
		u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(site, filepath.FromSlash(p)))}).String()
		t.Run(p, func(t *testing.T) {
			checkAxeStates(t, b, axe, u, p, chromium.ScreenshotOptions{}, []axeState{{name: "light"}, {name: "dark", dark: true}})
		})
	}
}
