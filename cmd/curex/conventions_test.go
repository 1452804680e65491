package main

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/api"
)

// TestDidYouMean: a mistyped command is a usage error (exit 2) that
// suggests the nearest commands, as cobra does, whether or not flags
// follow it; a word near no command gets no suggestion.
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
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tt.args, &out, &errOut)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d: %s", code, exitUsage, errOut.String())
			}
			msg := errOut.String()
			if !strings.HasPrefix(msg, "curex: unknown command \""+tt.args[0]+"\"") {
				t.Errorf("stderr %q does not name the unknown command", msg)
			}
			hasHint := strings.Contains(msg, "Did you mean this?")
			if tt.suggest == "" {
				if hasHint {
					t.Errorf("suggested something for %q: %q", tt.args[0], msg)
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
			f := &exportFlags{progress: "none", mdLayout: "default", pdfTimeout: time.Minute}
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
			walk(sub) // cobra adds help and completion at Execute, not here
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
