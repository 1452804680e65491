package cli

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/serve/live"
)

// devSelection keeps the dev tests' builds small: one export, the website.
var devSelection = []string{"--curriculum", "algebra-1", "--variants", "base", "--locales", "en", "--formats", "html", "--progress", "none"}

// devFixture is a cache filled from the sandbox and a theme made by
// curex theme init, for the exports of selection (flags).
type devFixture struct {
	cache, theme, out string
	selection         []string
}

func newDevFixture(t testing.TB) devFixture { return newDevFixtureOf(t, devSelection) }

// newDevFixtureOf is newDevFixture for the exports of selection.
func newDevFixtureOf(t testing.TB, selection []string) devFixture {
	t.Helper()
	url := sandboxURL(t)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	f := devFixture{cache: t.TempDir(), theme: filepath.Join(t.TempDir(), "theme"), out: filepath.Join(t.TempDir(), "site"), selection: selection}
	var out, errOut bytes.Buffer
	args := append([]string{"export", "--base-url", url, "--cache-dir", f.cache, "--output", filepath.Join(t.TempDir(), "exported"), "--config", ""}, selection...)
	if code := run(context.Background(), args, &out, &errOut); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, errOut.String())
	}
	if code := run(context.Background(), []string{"theme", "init", f.theme}, &out, &errOut); code != exitOK {
		t.Fatalf("theme init: exit %d: %s", code, errOut.String())
	}
	return f
}

// args are dev's (or build's) arguments for f, into out.
func (f devFixture) args(out string, extra ...string) []string {
	a := append([]string{"--cache-dir", f.cache, "--theme", f.theme, "--output", out}, f.selection...)
	return append(a, extra...)
}

// devRun is a curex dev running in the test.
type devRun struct {
	t      testing.TB
	base   string
	stop   func() int
	mu     sync.Mutex
	stderr bytes.Buffer
}

func (d *devRun) errText() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stderr.String()
}

// lockedWriter is stderr shared with the test.
type lockedWriter struct{ d *devRun }

func (w lockedWriter) Write(p []byte) (int, error) {
	w.d.mu.Lock()
	defer w.d.mu.Unlock()
	return w.d.stderr.Write(p)
}

// startDev runs curex dev with args until the test ends (or stop), and
// returns once it serves.
func startDev(t testing.TB, args ...string) *devRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	d := &devRun{t: t}
	go func() {
		done <- run(ctx, append([]string{"dev", "--addr", "127.0.0.1:0"}, args...), pw, lockedWriter{d})
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	for d.base == "" && sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), " at http://"); ok && strings.HasPrefix(sc.Text(), "Serving ") {
			d.base = "http://" + strings.TrimSuffix(strings.Fields(rest)[0], "/")
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	var once sync.Once
	code := -1
	d.stop = func() int {
		once.Do(func() { cancel(); code = <-done })
		return code
	}
	t.Cleanup(func() { d.stop() })
	if d.base == "" {
		t.Fatalf("no Serving line; exit %d; stderr %q", d.stop(), d.errText())
	}
	return d
}

// get returns the body of a page served.
func (d *devRun) get(p string) string {
	d.t.Helper()
	resp, err := http.Get(d.base + p)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		d.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		d.t.Fatalf("GET %s: %d", p, resp.StatusCode)
	}
	return string(b)
}

// events opens the page's event stream and reads its hello.
func (d *devRun) events() *sseStream {
	d.t.Helper()
	resp, err := http.Get(d.base + live.Prefix + "events")
	if err != nil {
		d.t.Fatal(err)
	}
	d.t.Cleanup(func() { resp.Body.Close() })
	s := &sseStream{t: d.t, sc: bufio.NewScanner(resp.Body)}
	if e, _ := s.next(); e != "hello" {
		d.t.Fatalf("first event %q, want hello (%s %q; scan %v)", e, resp.Status, resp.Header.Get("Content-Type"), s.sc.Err())
	}
	return s
}

// sseStream reads Server-Sent Events.
type sseStream struct {
	t  testing.TB
	sc *bufio.Scanner
}

// next returns the next event and its data ("" when the stream ends).
func (s *sseStream) next() (event, data string) {
	for s.sc.Scan() {
		line := s.sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = strings.TrimPrefix(line, "data: ")
		case line == "" && event != "":
			return event, data
		}
	}
	return "", ""
}

// want reads the next event and fails unless it is event.
func (s *sseStream) want(event string) string {
	s.t.Helper()
	e, data := s.next()
	if e != event {
		s.t.Fatalf("event %q %s, want %q", e, data, event)
	}
	return data
}

// write saves data at p as editors do, whole: a hidden file renamed over
// p (dev ignores hidden files), so no build can read half of it.
func write(t testing.TB, p, data string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".tmp")
	if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
}

func read(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameTree fails unless folders a and b hold the same files, byte for byte.
func sameTree(t *testing.T, a, b string) {
	t.Helper()
	list := func(root string) map[string]string {
		m := map[string]string{}
		err := filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			m[rel] = read(t, p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	fa, fb := list(a), list(b)
	if len(fa) != len(fb) {
		t.Errorf("%d files against %d", len(fa), len(fb))
	}
	for name, body := range fa {
		if fb[name] != body {
			t.Errorf("%s differs from a normal build", name)
		}
	}
}

const lessonPage = "/algebra-1/base/en/index.html"

// TestWatchReloadsOnTemplateChange (issue 26): a template of the theme
// changes; the open page hears "reload", the page served has the new
// bytes with the reload script, and the output folder is what curex build
// writes, without it.
func TestWatchReloadsOnTemplateChange(t *testing.T) {
	f := newDevFixture(t)
	d := startDev(t, f.args(f.out, "--config", "")...)
	ev := d.events()
	if before := d.get(lessonPage); !strings.Contains(before, live.Snippet) || strings.Contains(before, "dev-template-2") {
		t.Fatalf("page before the change: snippet %v", strings.Contains(before, live.Snippet))
	}
	styles := filepath.Join(f.theme, "styles.html")
	write(t, styles, strings.Replace(read(t, styles), `{{define "styles"}}`, `{{define "styles"}}<meta name="x-curex-test" content="dev-template-2">`, 1))
	ev.want("reload")
	page := d.get(lessonPage)
	if !strings.Contains(page, `content="dev-template-2"`) || !strings.Contains(page, live.Snippet) {
		t.Errorf("page after the change lacks the new template's bytes or the script")
	}
	onDisk := read(t, filepath.Join(f.out, filepath.FromSlash(lessonPage)))
	if !strings.Contains(onDisk, "dev-template-2") || strings.Contains(onDisk, live.Prefix) {
		t.Errorf("output file: new bytes %v, reload script %v", strings.Contains(onDisk, "dev-template-2"), strings.Contains(onDisk, live.Prefix))
	}
	if code := d.stop(); code != exitOK {
		t.Errorf("dev stopped with exit %d; stderr %q", code, d.errText())
	}
	built := filepath.Join(t.TempDir(), "built")
	var out, errOut bytes.Buffer
	if code := run(context.Background(), append([]string{"build"}, f.args(built, "--config", "")...), &out, &errOut); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, errOut.String())
	}
	sameTree(t, built, f.out)
}

var customCSS = regexp.MustCompile(`href="([^"]*custom\.[0-9a-f]+\.css)"`)

// TestWatchReloadsOnStylesheetChange (issue 26): the theme's stylesheet
// changes; the page reloads and links the new stylesheet, whose bytes
// are served.
func TestWatchReloadsOnStylesheetChange(t *testing.T) {
	f := newDevFixture(t)
	d := startDev(t, f.args(f.out, "--config", "")...)
	ev := d.events()
	m := customCSS.FindStringSubmatch(d.get(lessonPage))
	if m == nil {
		t.Fatal("the page links no custom.css")
	}
	css := filepath.Join(f.theme, "assets", "custom.css")
	write(t, css, read(t, css)+"\n.dev-marker { color: rebeccapurple; }\n")
	ev.want("reload")
	n := customCSS.FindStringSubmatch(d.get(lessonPage))
	if n == nil || n[1] == m[1] {
		t.Fatalf("after the change the page links %v, before %s", n, m[1])
	}
	href := n[1]
	if !strings.HasPrefix(href, "/") {
		href = path(lessonPage, href)
	}
	if body := d.get(href); !strings.Contains(body, ".dev-marker { color: rebeccapurple; }") {
		t.Errorf("%s lacks the new rule", href)
	}
}

// path resolves a relative link of the page at page.
func path(page, rel string) string {
	dir := page[:strings.LastIndex(page, "/")+1]
	for strings.HasPrefix(rel, "../") {
		rel = rel[3:]
		dir = dir[:strings.LastIndex(strings.TrimSuffix(dir, "/"), "/")+1]
	}
	return dir + rel
}

// TestWatchKeepsLastGoodSiteOnTemplateError (issue 26): a template that
// does not execute is shown over the open pages ("failed", with the
// template's name) and in the terminal; the site served and the output
// folder stay the last good ones; the fix reloads.
func TestWatchKeepsLastGoodSiteOnTemplateError(t *testing.T) {
	f := newDevFixture(t)
	d := startDev(t, f.args(f.out, "--config", "")...)
	ev := d.events()
	good := d.get(lessonPage)
	goodFile := read(t, filepath.Join(f.out, filepath.FromSlash(lessonPage)))
	styles := filepath.Join(f.theme, "styles.html")
	original := read(t, styles)
	write(t, styles, `{{define "styles"}}{{ .NoSuchField }}{{end}}`)
	data := ev.want("failed")
	if !strings.Contains(data, "styles.html") || !strings.Contains(data, "NoSuchField") {
		t.Errorf("failed event %s does not name the template and the error", data)
	}
	if !strings.Contains(d.errText(), "NoSuchField") || !strings.Contains(d.errText(), "last good site") {
		t.Errorf("terminal: %q", d.errText())
	}
	if d.get(lessonPage) != good {
		t.Error("after the error the page served changed")
	}
	if read(t, filepath.Join(f.out, filepath.FromSlash(lessonPage))) != goodFile {
		t.Error("after the error the output file changed")
	}
	// A page opened now is told at once.
	late := d.events()
	late.want("failed")
	write(t, styles, strings.Replace(original, `{{define "styles"}}`, `{{define "styles"}}<meta name="x-curex-test" content="fixed">`, 1))
	ev.want("reload")
	if !strings.Contains(d.get(lessonPage), `content="fixed"`) {
		t.Error("the fixed template's bytes are not served")
	}
}

// TestWatchRereadsConfiguration: a change to the configuration file reads
// the settings again and plans again (here: a second locale).
func TestWatchRereadsConfiguration(t *testing.T) {
	f := newDevFixture(t)
	cfg := filepath.Join(t.TempDir(), "curex.yaml")
	write(t, cfg, "site_title: First title\n")
	d := startDev(t, f.args(f.out, "--config", cfg)...)
	ev := d.events()
	if !strings.Contains(d.get("/"), "First title") {
		t.Fatal("the first title is not served")
	}
	write(t, cfg, "site_title: Second title\n")
	ev.want("reload")
	if !strings.Contains(d.get("/"), "Second title") {
		t.Error("the new title is not served")
	}
	write(t, cfg, "no_such_setting: 1\n")
	if data := ev.want("failed"); !strings.Contains(data, "no_such_setting") {
		t.Errorf("failed event %s does not name the setting", data)
	}
	if !strings.Contains(d.get("/"), "Second title") {
		t.Error("a bad configuration replaced the last good site")
	}
}

// TestDevUsage: settings dev cannot work with are refused before any
// build, naming the setting (exit 2).
func TestDevUsage(t *testing.T) {
	cache := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no website", []string{"--formats", "json"}, "--formats"},
		{"bucket output", []string{"--output", "s3://bucket/www"}, "--output"},
		{"extra argument", []string{"site"}, "dev"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			args := append([]string{"dev", "--config", "", "--cache-dir", cache, "--addr", "127.0.0.1:0"}, tc.args...)
			if code := run(context.Background(), args, &out, &errOut); code != exitUsage || !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want %d naming %s", code, errOut.String(), exitUsage, tc.want)
			}
			if strings.Contains(out.String(), "Serving") {
				t.Errorf("served: %q", out.String())
			}
		})
	}
}
