package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// TestCompletionUnknownShell (issue 26 §5): "curex completion tcsh"
// printed the help and exited 0. A shell curex has no script for is a
// usage error (exit 2) listing the shells; a known shell still prints its
// script, and no shell still shows the help.
func TestCompletionUnknownShell(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // in standard output
		stderr []string
	}{
		{"tcsh", []string{"completion", "tcsh"}, exitUsage, "", []string{`"tcsh"`, "bash", "zsh", "fish", "powershell"}},
		{"bash", []string{"completion", "bash"}, 0, "bash completion", nil},
		{"no shell", []string{"completion"}, 0, "Available Commands", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tc.args, &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout %.200q does not have %q", stdout.String(), tc.stdout)
			}
			if tc.code == exitUsage && stdout.Len() > 0 {
				t.Errorf("a usage error printed to stdout: %.200q", stdout.String())
			}
			for _, w := range tc.stderr {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q does not name %s", stderr.String(), w)
				}
			}
		})
	}
}

// TestTokenFlagPointsToEnv (issue 26 §5): "--token" was an unknown flag
// with no pointer to where the token goes. The usage error names
// CURRICULUM_API_TOKEN and --token-file, and never echoes the value.
func TestTokenFlagPointsToEnv(t *testing.T) {
	const secret = "tok-s3cr3t-value"
	for _, args := range [][]string{
		{"export", "--token", secret},
		{"export", "--token=" + secret},
		{"whoami", "--api-token", secret},
		{"plan", "--token", secret, "--base-url", "http://127.0.0.1:1"},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, &stdout, &stderr)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitUsage, stderr.String())
			}
			for _, w := range []string{"unknown flag", "CURRICULUM_API_TOKEN", "--token-file"} {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q does not say %s", stderr.String(), w)
				}
			}
			if strings.Contains(stdout.String()+stderr.String(), secret) {
				t.Errorf("the token's value is in the output: %q", stderr.String())
			}
		})
	}
}

// TestUnknownSettingListsEveryKey (issue 26 §5): the error of an unknown
// key in curex.yaml listed 40 keys but not site_footer_links or
// site_locales, which a file may give. The list comes from the settings
// table: it names both, and every key it names is one a file may give
// (none of them is itself an unknown setting).
func TestUnknownSettingListsEveryKey(t *testing.T) {
	_, err := parseConfig([]byte("site_footer: ok\nsite_footer_link: []\n"))
	if err == nil {
		t.Fatal("an unknown key was accepted")
	}
	_, list, ok := strings.Cut(err.Error(), "(known: ")
	if !ok {
		t.Fatalf("error %q lists no keys", err)
	}
	known := strings.Split(strings.TrimSuffix(list, ")"), ", ")
	for _, want := range []string{"site_footer_links", "site_locales", "base_url", "site_title"} {
		if !slices.Contains(known, want) {
			t.Errorf("the list %v lacks %s", known, want)
		}
	}
	for _, key := range known {
		if _, err := parseConfig([]byte(key + ":\n")); err != nil && strings.Contains(err.Error(), "unknown setting") {
			t.Errorf("listed key %s is refused as unknown: %v", key, err)
		}
	}
}

// oldTokenName matches the older token variable, not CUREX_TOKEN_FILE.
var oldTokenName = regexp.MustCompile(`CUREX_TOKEN\b`)

// TestOneTokenVariableName (issue 26 §1, §5): the token variable had two
// names across --help, the sandbox banner, errors and docs (CUREX_TOKEN
// in the no-token error and the README, CURRICULUM_API_TOKEN in the help
// and the banner). Every one of them now says CURRICULUM_API_TOKEN; the
// older name is still read, and the docs name it only as an alias.
func TestOneTokenVariableName(t *testing.T) {
	clearSettingsEnv(t)
	t.Setenv(envToken, "")
	texts := map[string]string{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		texts["help of "+c.CommandPath()] = c.Long + c.Example + c.UsageString()
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot(&globals{stdout: io.Discard, stderr: io.Discard}))
	if !strings.Contains(texts["help of curex"], api.EnvToken) {
		t.Errorf("curex --help does not name %s", api.EnvToken)
	}

	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	h, err := sandbox.New(ds, sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var banner bytes.Buffer
	printBanner(&globals{stdout: &banner}, h.Index(), "http://127.0.0.1:8080", sandbox.Options{})
	texts["sandbox banner"] = banner.String()

	for name, args := range map[string][]string{
		"no-token error":   {"export", "--base-url", "http://127.0.0.1:1", "--output", t.TempDir(), "--config", ""},
		"--token error":    {"export", "--token", "x"},
		"token: in a file": {"export", "--config", writeFile(t, "settings.yaml", "token: x\n")},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != exitUsage {
			t.Errorf("%s: exit %d, want %d: %s", name, code, exitUsage, stderr.String())
		}
		texts[name] = stderr.String()
	}
	for name, text := range texts {
		if oldTokenName.MatchString(text) {
			t.Errorf("%s names CUREX_TOKEN:\n%s", name, text)
		}
		if name == "sandbox banner" || !strings.HasPrefix(name, "help") {
			if !strings.Contains(text, api.EnvToken) {
				t.Errorf("%s does not name %s:\n%s", name, api.EnvToken, text)
			}
		}
	}

	docs, _ := filepath.Glob("../../docs/*.md")
	for _, path := range append(docs, "../../README.md") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if oldTokenName.MatchString(line) && !strings.Contains(line, "alias") {
				t.Errorf("%s:%d names CUREX_TOKEN as more than an alias: %s", path, i+1, line)
			}
		}
	}
}
