package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/render/cartridge"
)

// TestDidYouMean: a mistyped command or help topic is a usage error
// (exit 2) that suggests the nearest commands, as cobra does, whether or
// not flags follow it; a word near no command gets no suggestion.
func TestDidYouMean(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		suggest string // "" for none
	}{
		{[]string{"exprot"}, "export"},
		{[]string{"exprot", "--base-url", "http://127.0.0.1:1", "--output", "x"}, "export"},
		{[]string{"biuld"}, "build"},
		{[]string{"pubish", "out", "mem://"}, "publish"},
		{[]string{"whoamii"}, "whoami"},
		{[]string{"frobnicate"}, ""},
		{[]string{"help", "exprot"}, "export"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tt.args, &out, &errOut)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d: %s", code, exitUsage, errOut.String())
			}
			msg := errOut.String()
			typo := tt.args[0]
			if typo == "help" {
				typo = tt.args[1]
			}
			if !strings.HasPrefix(msg, "curex: unknown command \""+typo+"\"") {
				t.Errorf("stderr %q does not name the unknown command", msg)
			}
			hasHint := strings.Contains(msg, "Did you mean this?")
			if tt.suggest == "" {
				if hasHint {
					t.Errorf("suggested something for %q: %q", typo, msg)
				}
				return
			}
			if !hasHint || !strings.Contains(msg, "\n\t"+tt.suggest+"\n") {
				t.Errorf("stderr %q does not suggest %q", msg, tt.suggest)
			}
		})
	}
}

// complete runs cobra's hidden __complete command as a shell would and
// returns the candidates and the directive.
func complete(t *testing.T, args ...string) (candidates []string, directive string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(context.Background(), append([]string{"__complete"}, args...), &out, &errOut); code != exitOK {
		t.Fatalf("__complete %q: exit %d: %s", args, code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, ":") {
		t.Fatalf("__complete %q: no directive line in %q", args, out.String())
	}
	for _, l := range lines[:len(lines)-1] {
		name, _, _ := strings.Cut(l, "\t") // a description may follow
		candidates = append(candidates, name)
	}
	return candidates, last
}

// TestFlagValuesComplete asks for the values of every enumerated flag, as
// the shell does on Tab, and checks the candidates, which are no file
// names; --formats completes one item of its comma list at a time.
func TestFlagValuesComplete(t *testing.T) {
	noFiles := ":" + strconv.Itoa(int(cobra.ShellCompDirectiveNoFileComp))
	list := ":" + strconv.Itoa(int(cobra.ShellCompDirectiveNoFileComp|cobra.ShellCompDirectiveNoSpace))
	for _, tt := range []struct {
		args      []string
		want      []string
		directive string
	}{
		{[]string{"export", "--progress", ""}, []string{"auto", "bar", "plain", "none"}, noFiles},
		{[]string{"build", "--progress", "p"}, []string{"plain"}, noFiles},
		{[]string{"export", "--log-level", ""}, []string{"debug", "info", "warn", "error"}, noFiles},
		{[]string{"sandbox", "--log-format", ""}, []string{"text", "json"}, noFiles},
		{[]string{"export", "--paper", ""}, []string{"a4", "letter"}, noFiles},
		{[]string{"plan", "--revalidate", ""}, []string{"rolling", "always", "never"}, noFiles},
		{[]string{"export", "--assets", ""}, []string{"local", "remote"}, noFiles},
		{[]string{"build", "--markdown-layout", ""}, []string{"default", "hugo"}, noFiles},
		{[]string{"sandbox", "--records", ""}, []string{"resource", "plain"}, noFiles},
		{[]string{"export", "--formats", ""}, exporter.Formats().Names(), list},
		{[]string{"demo", "--formats", "h"}, []string{"html", "handbook"}, list},
		{[]string{"build", "--formats", "html,j"}, []string{"html,json"}, list},
		{[]string{"export", "--output", ""}, nil, ":" + strconv.Itoa(int(cobra.ShellCompDirectiveFilterDirs))},
		{[]string{"build", "--config", ""}, []string{"yaml", "yml"}, ":" + strconv.Itoa(int(cobra.ShellCompDirectiveFilterFileExt))},
		{[]string{"export", "--formats", "html,json,"}, []string{"html,json,markdown", "html,json,handbook", "html,json,pdf", "html,json,epub", "html,json,cartridge"}, list},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			got, dir := complete(t, tt.args...)
			if !slices.Equal(got, tt.want) {
				t.Errorf("candidates %q, want %q", got, tt.want)
			}
			if dir != tt.directive {
				t.Errorf("directive %s, want %s", dir, tt.directive)
			}
		})
	}
}

// TestEnumeratedValuesAreAccepted: every value a flag completes to passes
// its check (the checks and the completion read one list).
func TestEnumeratedValuesAreAccepted(t *testing.T) {
	for name, words := range flagWords {
		for _, w := range words() {
			if name == "records" || name == "revalidate" || name == "paper" {
				continue // checked by their packages, which own the words
			}
			g := &globals{logLevel: "info", logFormat: "text", stdout: io.Discard, stderr: io.Discard}
			f := &exportFlags{progress: "none", mdLayout: "default", formats: "html", pdfTimeout: time.Minute}
			f.sel.maxTreeNodes, f.sel.concurrency = 1, 1
			var err error
			switch name {
			case "log-level":
				g.logLevel = w
				_, err = g.logger()
			case "log-format":
				g.logFormat = w
				_, err = g.logger()
			case "progress":
				f.progress = w
			case "markdown-layout":
				f.mdLayout = w
			case "assets":
				f.assets = w
			case "formats":
				err = exporter.Formats().Check([]string{w})
			case "cartridge-version":
				_, err = cartridge.ParseVersion(w)
			default:
				t.Fatalf("flag --%s has no case here", name)
			}
			if err == nil {
				var c exporter.Config
				err = f.outputConfig(g, &c)
			}
			if err != nil {
				t.Errorf("--%s %s: %v", name, w, err)
			}
		}
	}
}

// TestCompletionScripts: cobra's completion command prints a script for
// each shell.
func TestCompletionScripts(t *testing.T) {
	for shell, marker := range map[string]string{
		"bash":       "__start_curex",
		"zsh":        "#compdef curex",
		"fish":       "complete -c curex",
		"powershell": "Register-ArgumentCompleter",
	} {
		t.Run(shell, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(context.Background(), []string{"completion", shell}, &out, &errOut); code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			if !strings.Contains(out.String(), marker) {
				t.Errorf("the %s script lacks %q (%d bytes)", shell, marker, out.Len())
			}
		})
	}
}

// TestEveryCommandHasExamples walks the command tree: each of curex's
// own commands shows examples in its help, and build speaks of rendering
// from the cache, not of fetching.
func TestEveryCommandHasExamples(t *testing.T) {
	root := newRootCommand(io.Discard, io.Discard)
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		n++
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%q has no Example", c.CommandPath())
		}
		for _, line := range strings.Split(c.Example, "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.Contains(line, "curex ") {
				t.Errorf("%q: example line %q does not run curex", c.CommandPath(), line)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub) // cobra adds help at Execute, not here; completion is added by newRoot
		}
	}
	walk(root)
	if n < 10 {
		t.Fatalf("walked %d commands, want the root and its 9 or more", n)
	}
	build, _, err := root.Find([]string{"build"})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{build.Short, build.Long} {
		if strings.Contains(strings.ToLower(text), "fetch") {
			t.Errorf("build's help speaks of fetching: %q", text)
		}
	}
	for _, want := range []string{"cache", "no\nAPI request"} {
		if !strings.Contains(build.Short+build.Long, want) {
			t.Errorf("build's help does not say %q", want)
		}
	}
	build.Flags().VisitAll(func(f *pflag.Flag) {
		if strings.Contains(f.Usage, "fetched") {
			t.Errorf("build --%s speaks of fetching: %q", f.Name, f.Usage)
		}
	})
}

// TestConfigErrorsNameTheFlag: a setting the run refuses is a usage error
// (exit 2) whose message names the flag that sets it, never a Go option,
// before any request.
func TestConfigErrorsNameTheFlag(t *testing.T) {
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	local := "http://127.0.0.1:1" // nothing listens: a run that got that far would fail with exit 1
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"export", "--base-url", "http://api.example.org"}, []string{"--base-url", "--allow-http"}},
		{[]string{"plan", "--base-url", "http://api.example.org"}, []string{"--base-url", "--allow-http"}},
		{[]string{"whoami", "--base-url", "http://api.example.org"}, []string{"--base-url", "--allow-http"}},
		{[]string{"export", "--base-url", local, "--formats", ""}, []string{"--formats", "html"}},
		{[]string{"export", "--base-url", local, "--formats", " , "}, []string{"--formats"}},
		{[]string{"build", "--formats", ""}, []string{"--formats"}},
		{[]string{"demo", "--formats", ""}, []string{"--formats"}},
		{[]string{"export", "--base-url", local, "--concurrency", "0"}, []string{"--concurrency", "1 to 32"}},
		{[]string{"export", "--base-url", local, "--concurrency", "33"}, []string{"--concurrency", "1 to 32"}},
		{[]string{"plan", "--base-url", local, "--concurrency", "1000"}, []string{"--concurrency"}},
		{[]string{"build", "--concurrency", "-1"}, []string{"--concurrency"}},
		{[]string{"export", "--base-url", local, "--site-url", "https://example.org/?utm=x"}, []string{"--site-url", "query"}},
		{[]string{"export", "--base-url", local, "--site-url", "https://example.org/#top"}, []string{"--site-url", "fragment"}},
		{[]string{"export", "--base-url", local, "--site-url", "https://example.org/?"}, []string{"--site-url", "query"}},
		{[]string{"export", "--base-url", local, "--site-url", "example.org"}, []string{"--site-url", "absolute"}},
		{[]string{"export", "--base-url", local, "--progress", "loud"}, []string{"--progress", "auto, bar, plain or none"}},
		{[]string{"export", "--base-url", local, "--summary-json", "/nonexistent/dir/summary.json"}, []string{"--summary-json", "/nonexistent/dir"}},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			args := tt.args
			switch tt.args[0] {
			case "export", "build":
				args = append(args, "--cache-dir", t.TempDir(), "--output", t.TempDir()+"/out")
			case "plan", "whoami":
				args = append(args, "--cache-dir", t.TempDir())
			}
			code := run(context.Background(), args, &out, &errOut)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d: %s", code, exitUsage, errOut.String())
			}
			msg := errOut.String()
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("stderr %q does not name %q", msg, w)
				}
			}
			if strings.Contains(msg, "With") {
				t.Errorf("stderr names a Go option: %q", msg)
			}
		})
	}
}

// TestCurriculumByIDOrSlug: --curriculum takes ids and the slugs the site
// uses for folders, comma-separated or repeated; one that matches nothing
// is a usage error naming --curriculum, the value and what there is.
func TestCurriculumByIDOrSlug(t *testing.T) {
	url := sandboxURL(t)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	const algebra, cs = "101  Algebra 1", "curriculum_201  Introduction to Computer Science"
	for _, tt := range []struct {
		sel  []string
		want []string
		code int
		msg  []string
	}{
		{[]string{"--curriculum", "101"}, []string{algebra}, exitOK, nil},
		{[]string{"--curriculum", "algebra-1"}, []string{algebra}, exitOK, nil},
		{[]string{"--curriculum", "Algebra-1"}, []string{algebra}, exitOK, nil},
		{[]string{"--curriculum", "algebra-1,introduction-to-computer-science"}, []string{algebra, cs}, exitOK, nil},
		{[]string{"--curriculum", "101, curriculum_201"}, []string{algebra, cs}, exitOK, nil},
		{[]string{"--curriculum", "introduction-to-computer-science", "--curriculum", "101"}, []string{cs, algebra}, exitOK, nil},
		{[]string{"--curriculum", "101,algebra-1"}, []string{algebra}, exitOK, nil},
		{[]string{"--curriculum", "algebra-1,geometry"}, nil, exitUsage,
			[]string{`--curriculum: "geometry" matches nothing`, "algebra-1 (id 101)", "introduction-to-computer-science (id curriculum_201)"}},
	} {
		t.Run(strings.Join(tt.sel, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			args := append([]string{"plan", "--base-url", url, "--cache-dir", t.TempDir()}, tt.sel...)
			if code := run(context.Background(), args, &out, &errOut); code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, errOut.String())
			}
			var got []string
			for _, line := range strings.Split(out.String(), "\n") {
				if strings.Contains(line, "  (") && !strings.HasPrefix(line, " ") {
					got = append(got, strings.TrimSpace(line[:strings.Index(line, "  (")]))
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("planned %q, want %q\n%s", got, tt.want, out.String())
			}
			for _, m := range tt.msg {
				if !strings.Contains(errOut.String(), m) {
					t.Errorf("stderr %q lacks %q", errOut.String(), m)
				}
			}
		})
	}
}

// exportArgs are the arguments of a small export of the sandbox at url:
// the English trees, as JSON bundles.
func exportArgs(t *testing.T, url, out string, more ...string) []string {
	return append([]string{"export", "--base-url", url, "--cache-dir", filepath.Join(filepath.Dir(out), "cache"), "--output", out,
		"--locales", "en", "--formats", "json"}, more...)
}

// TestQuiet: --quiet prints nothing but errors: an export, a build and a
// publish that work print nothing at all; a partial export prints only
// its failures and the exit line, as errors.
func TestQuiet(t *testing.T) {
	url := sandboxURL(t)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	for _, tt := range []struct {
		name string
		args []string
		code int
	}{
		{"export", exportArgs(t, url, out, "--quiet", "--progress", "plain"), exitOK},
		{"export -q, a bar asked for", exportArgs(t, url, out, "-q", "--progress", "bar"), exitOK},
		{"demo", []string{"demo", "--quiet", "--formats", "json", "--output", filepath.Join(dir, "demo")}, exitOK},
		{"build", []string{"build", "--cache-dir", filepath.Join(dir, "cache"), "--output", out, "--locales", "en", "--formats", "json", "--quiet"}, exitOK},
		{"publish", []string{"publish", "--quiet", out, "file://" + filepath.ToSlash(filepath.Join(dir, "bucket"))}, exitOK},
		{"partial export", exportArgs(t, url, out, "--quiet", "--max-tree-nodes", "25", "--cache-dir", t.TempDir()), exitPartial},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), tt.args, &stdout, &stderr); code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr.String())
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout not empty:\n%s", stdout.String())
			}
			if tt.code == exitOK && stderr.Len() > 0 {
				t.Errorf("stderr not empty:\n%s", stderr.String())
			}
			if tt.code == exitPartial {
				lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
				for _, l := range lines[:len(lines)-1] {
					if !strings.Contains(l, "level=ERROR") || !strings.Contains(l, "algebra-1/") {
						t.Errorf("not an error about a failed tree: %q", l)
					}
				}
				if last := lines[len(lines)-1]; !strings.HasPrefix(last, "curex: ") || len(lines) < 2 {
					t.Errorf("stderr:\n%s", stderr.String())
				}
			}
		})
	}
}

// TestPlanJSON: plan --json prints one JSON document of the documented
// shape, agreeing with the sandbox's sample (2 curricula, the 7 English
// trees of their variants) and with what the next export fetches.
func TestPlanJSON(t *testing.T) {
	url := sandboxURL(t)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	cache := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"plan", "--json", "--base-url", url, "--cache-dir", cache, "--locales", "en", "--min-translation", "0"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	dec := json.NewDecoder(bytes.NewReader(stdout.Bytes()))
	dec.DisallowUnknownFields()
	var p planJSON
	if err := dec.Decode(&p); err != nil {
		t.Fatalf("not the documented shape: %v\n%s", err, stdout.String())
	}
	if dec.More() {
		t.Error("more than one JSON document")
	}
	if p.Version != 1 || p.User.Name != "Dana Okafor" {
		t.Errorf("version %d, user %+v", p.Version, p.User)
	}
	var slugs, exports []string
	for _, c := range p.Curricula {
		slugs = append(slugs, c.Slug)
		for _, e := range c.Exports {
			exports = append(exports, e.Export)
			if e.Locale != "en" || e.Fetch != "new" || !strings.HasPrefix(e.Export, c.Slug+"/") {
				t.Errorf("export %+v of %s", e, c.Slug)
			}
		}
	}
	if want := []string{"algebra-1", "introduction-to-computer-science"}; !slices.Equal(slugs, want) {
		t.Errorf("curricula %q, want %q", slugs, want)
	}
	if p.Trees != len(exports) || p.Trees != 7 || p.Schedule.New != 7 || p.Requests.NextRun != 7 || p.Requests.Discovery == 0 {
		t.Errorf("trees %d (%d exports), schedule %+v, requests %+v", p.Trees, len(exports), p.Schedule, p.Requests)
	}
	if p.Requests.Limits == "" || p.Schedule.Policy != "rolling" {
		t.Errorf("requests %+v, schedule %+v", p.Requests, p.Schedule)
	}
}

// readSummary reads a --summary-json file in its documented shape.
func readSummary(t *testing.T, path string) runSummary {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s runSummary
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("not the documented shape: %v\n%s", err, data)
	}
	return s
}

// TestSummaryJSON: --summary-json writes what export, build and publish
// did, also for a run that failed (usage) or was partial, and no
// temporary file is left beside it.
func TestSummaryJSON(t *testing.T) {
	url := sandboxURL(t)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	sum := filepath.Join(dir, "summary.json")
	for _, tt := range []struct {
		name  string
		args  []string
		code  int
		check func(t *testing.T, s runSummary)
	}{
		{"export", exportArgs(t, url, out, "--progress", "none"), exitOK, func(t *testing.T, s runSummary) {
			if s.Command != "export" || s.Status != "ok" || s.Trees == nil || s.Trees.Planned != 7 || s.Trees.Written != 7 ||
				s.Requests.Total == 0 || s.Files.Written == 0 || s.Output != out || len(s.Failures) != 0 || s.Schedule.New != 7 {
				t.Errorf("%+v", s)
			}
		}},
		{"export again", exportArgs(t, url, out, "--progress", "none", "--revalidate", "always"), exitOK, func(t *testing.T, s runSummary) {
			if s.Trees.Reused != 7 || s.Requests.NotModified == 0 || s.Schedule.Revalidated != 7 {
				t.Errorf("trees %+v, requests %+v, schedule %+v", s.Trees, s.Requests, s.Schedule)
			}
		}},
		{"partial", exportArgs(t, url, out, "--progress", "none", "--max-tree-nodes", "25", "--cache-dir", t.TempDir()), exitPartial, func(t *testing.T, s runSummary) {
			if s.Status != "partial" || s.ExitCode != exitPartial || len(s.Failures) != s.Trees.Failed || s.Trees.Failed == 0 {
				t.Fatalf("%+v", s)
			}
			f := s.Failures[0]
			if f.CurriculumID != "101" || f.Locale != "en" || !f.Kept || !strings.Contains(f.Error, "--max-tree-nodes") {
				t.Errorf("failure %+v", f)
			}
		}},
		{"usage", exportArgs(t, url, out, "--formats", ""), exitUsage, func(t *testing.T, s runSummary) {
			if s.Status != "usage" || !strings.Contains(s.Error, "--formats") || s.Trees != nil {
				t.Errorf("%+v", s)
			}
		}},
		{"build", []string{"build", "--cache-dir", filepath.Join(dir, "cache"), "--output", out, "--locales", "en", "--formats", "json", "--progress", "none"}, exitOK, func(t *testing.T, s runSummary) {
			if s.Command != "build" || s.Status != "ok" || s.Trees.Planned != 7 || s.Requests != nil {
				t.Errorf("%+v", s)
			}
		}},
		{"publish", []string{"publish", out, "file://" + filepath.ToSlash(filepath.Join(dir, "bucket"))}, exitOK, func(t *testing.T, s runSummary) {
			if s.Command != "publish" || s.Publish == nil || s.Publish.Uploaded == 0 || s.Publish.DryRun || s.Output != out {
				t.Errorf("%+v %+v", s, s.Publish)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), append(tt.args, "--summary-json", sum), &stdout, &stderr); code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr.String())
			}
			s := readSummary(t, sum)
			if s.Version != 1 || s.ExitCode != tt.code {
				t.Errorf("version %d, exit code %d", s.Version, s.ExitCode)
			}
			tt.check(t, s)
			left, _ := filepath.Glob(filepath.Join(dir, ".summary.json.tmp-*"))
			if len(left) > 0 {
				t.Errorf("temporary files left: %q", left)
			}
		})
	}
}

// TestJSONLogHasNoProse: under --log-format json every line on standard
// error is a JSON record: progress (lines and bar asked for), failures of
// trees, the exit line of a failed or refused run, a mistyped command.
func TestJSONLogHasNoProse(t *testing.T) {
	url := sandboxURL(t)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	j := []string{"--log-format", "json", "--log-level", "debug"}
	for _, tt := range []struct {
		name string
		args []string
		code int
		msgs []string // messages some record must carry
	}{
		{"export plain", exportArgs(t, url, out, append(j, "--progress", "plain")...), exitOK, []string{"plan", "progress"}},
		{"export bar", exportArgs(t, url, out, append(j, "--progress", "bar")...), exitOK, []string{"plan", "progress"}},
		{"partial", exportArgs(t, url, out, append(j, "--max-tree-nodes", "25", "--cache-dir", t.TempDir())...), exitPartial, []string{"tree failed", "of 7 exports failed"}},
		{"build", append([]string{"build", "--cache-dir", filepath.Join(dir, "cache"), "--output", out, "--locales", "en", "--formats", "json"}, j...), exitOK, []string{"plan"}},
		{"plan", append([]string{"plan", "--base-url", url, "--cache-dir", t.TempDir()}, j...), exitOK, nil},
		{"usage", exportArgs(t, url, out, append(j, "--concurrency", "0")...), exitUsage, []string{"--concurrency"}},
		{"refused URL", append([]string{"whoami", "--base-url", "http://api.example.org"}, j...), exitUsage, []string{"--allow-http"}},
		{"unknown command", append([]string{"exprot"}, j...), exitUsage, []string{"Did you mean this?"}},
		{"bad token", append([]string{"whoami", "--base-url", url, "--token-file", filepath.Join(dir, "nope")}, j...), exitUsage, []string{"--token-file"}},
		// A flag error stops parsing before --log-format is read.
		{"flag error first", []string{"export", "--concurrency", "lots", "--log-format", "json"}, exitUsage, []string{"--concurrency"}},
		{"unknown flag first", []string{"plan", "--bogus", "--log-format=json"}, exitUsage, []string{"bogus"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), tt.args, &stdout, &stderr); code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr.String())
			}
			var msgs []string
			for _, line := range strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n") {
				if line == "" && stderr.Len() == 0 {
					continue
				}
				var rec map[string]any
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Errorf("prose on stderr: %q", line)
					continue
				}
				msg, _ := rec["msg"].(string)
				msgs = append(msgs, msg)
				if rec["level"] == "ERROR" && rec["exit_code"] != float64(tt.code) {
					t.Errorf("exit record %v, want exit_code %d", rec, tt.code)
				}
			}
			for _, w := range tt.msgs {
				if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, w) }) {
					t.Errorf("no record says %q: %q", w, msgs)
				}
			}
		})
	}
}

// TestTermDumbNoRedraw: with TERM=dumb even --progress bar prints lines,
// with no carriage return and no escape sequence.
func TestTermDumbNoRedraw(t *testing.T) {
	for _, tt := range []struct {
		term string
		want bool
	}{{"dumb", false}, {"xterm-256color", true}, {"", true}} {
		if got := canRedraw(tt.term); got != tt.want {
			t.Errorf("canRedraw(%q) = %v, want %v", tt.term, got, tt.want)
		}
	}
	url := sandboxURL(t)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	t.Setenv("TERM", "dumb")
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), exportArgs(t, url, out, "--progress", "bar"), &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "7/7 trees") {
		t.Errorf("no progress:\n%s", stderr.String())
	}
	if strings.ContainsAny(stderr.String(), "\r\x1b") {
		t.Errorf("redraws under TERM=dumb: %q", stderr.String())
	}
}

// TestQuietLogLevel: --quiet logs errors only, unless --log-level asks
// for more.
func TestQuietLogLevel(t *testing.T) {
	for _, tt := range []struct {
		args     []string
		wantInfo bool
	}{
		{[]string{"--quiet"}, false},
		{[]string{"--quiet", "--log-level", "info"}, true},
		{nil, true},
	} {
		var stderr bytes.Buffer
		g := &globals{stdout: io.Discard, stderr: &stderr}
		root := newRoot(g)
		if err := root.ParseFlags(tt.args); err != nil {
			t.Fatal(err)
		}
		g.cmd = root
		log, err := g.logger()
		if err != nil {
			t.Fatal(err)
		}
		log.Info("an info")
		log.Error("an error")
		if got := strings.Contains(stderr.String(), "an info"); got != tt.wantInfo || !strings.Contains(stderr.String(), "an error") {
			t.Errorf("%q: logged %q", tt.args, stderr.String())
		}
	}
}

// TestLogFormatArg: the log format read from the command line before
// the flags are parsed.
func TestLogFormatArg(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
		ok   bool
	}{
		{[]string{"export", "--log-format", "json"}, "json", true},
		{[]string{"export", "--log-format=json", "--log-format", "text"}, "text", true},
		{[]string{"export", "--", "--log-format", "json"}, "", false},
		{[]string{"export", "--log-format"}, "", false},
		{[]string{"export", "--base-url", "x"}, "", false},
	} {
		if got, ok := logFormatArg(tt.args); got != tt.want || ok != tt.ok {
			t.Errorf("logFormatArg(%q) = %q, %v; want %q, %v", tt.args, got, ok, tt.want, tt.ok)
		}
	}
}
