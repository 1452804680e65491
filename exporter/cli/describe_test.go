package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/setting"
)

// TestSettingsTable checks the one table between setting keys and what
// users write: every key the library names has a row, every flag of the
// table exists on a command, and a row without a flag has a variable.
func TestSettingsTable(t *testing.T) {
	library := []string{setting.BaseURL, setting.Token, setting.AllowHTTP, setting.Output, setting.Formats,
		setting.CacheDir, setting.Curricula, setting.Variants, setting.Locales, setting.MinTranslation,
		setting.Concurrency, setting.MaxTreeNodes, setting.MaxRequests, setting.Deadline, setting.Revalidate,
		setting.RevalidateWithin, setting.SiteURL, setting.Theme, setting.Paper, setting.PDFTimeout,
		setting.MarkdownLayout, setting.SourceDate, setting.Assets, setting.PrivateAssets}
	for _, k := range library {
		if _, ok := settings[k]; !ok {
			t.Errorf("setting %s has no row: the CLI cannot name it", k)
		}
	}
	root := newRootCommand(&bytes.Buffer{}, &bytes.Buffer{})
	hasFlag := func(name string) bool {
		if root.PersistentFlags().Lookup(name) != nil {
			return true
		}
		for _, c := range root.Commands() {
			if c.Flags().Lookup(name) != nil {
				return true
			}
		}
		return false
	}
	envs := map[string]string{}
	for k := range settings {
		e := envName(k)
		if prev, dup := envs[e]; dup {
			t.Errorf("%s and %s share the variable %s", k, prev, e)
		}
		envs[e] = k
		if !strings.HasPrefix(e, "CUREX_") && e != "SOURCE_DATE_EPOCH" {
			t.Errorf("%s: variable %s is not CUREX_ something", k, e)
		}
	}
	for k, src := range settings {
		switch {
		case src.flag == "" && src.env == "" && !src.structured: // a structured key has its derived variable
			t.Errorf("%s: neither a flag nor a variable gives it", k)
		case src.flag != "" && !hasFlag(src.flag):
			t.Errorf("%s: no command has --%s", k, src.flag)
		case src.file && src.flag == "" && !src.structured:
			t.Errorf("%s: a file may give it, but it sets no flag", k)
		}
	}
}

// TestDescribe names the setting of an error as the user gave it, for
// every way of giving one, on the export command's real flags.
func TestDescribe(t *testing.T) {
	large := fmt.Errorf("fetch algebra-1/base/en: %w", &fetch.TreeTooLargeError{Limit: 5})
	tests := []struct {
		name string
		args []string          // export's command line
		env  map[string]string // environment
		file map[string]string // flags the configuration file set: flag → key
		err  error
		want string // the message begins so
	}{
		{"flag on the command line", []string{"--max-tree-nodes", "5"}, nil, nil, large,
			"fetch algebra-1/base/en: --max-tree-nodes: the tree has more than 5 nodes"},
		{"flag at its default", nil, nil, nil, large,
			"fetch algebra-1/base/en: --max-tree-nodes: the tree has more than 5 nodes"},
		{"configuration file", []string{"--max-tree-nodes", "5"}, nil, map[string]string{"max-tree-nodes": "max_tree_nodes"}, large,
			"fetch algebra-1/base/en: curex.yaml:3: max_tree_nodes: the tree has more than 5 nodes"},
		{"environment", nil, map[string]string{"CUREX_BASE_URL": "http://127.0.0.1:1"}, nil,
			setting.Errorf(setting.BaseURL, "cannot reach the API: refused"), "CUREX_BASE_URL: cannot reach the API: refused"},
		{"flag beats the environment", []string{"--base-url", "http://127.0.0.1:1"}, map[string]string{"CUREX_BASE_URL": "http://x"}, nil,
			setting.Errorf(setting.BaseURL, "cannot reach the API: refused"), "--base-url: cannot reach the API: refused"},
		{"token from the environment", nil, map[string]string{api.EnvToken: "s3cr3t"}, nil,
			fmt.Errorf("verify token: %w", setting.Errorf(setting.Token, "the API rejected the token (401)")), "verify token: CURRICULUM_API_TOKEN: the API rejected the token (401)"},
		{"token from a file", []string{"--token-file", "/run/token"}, map[string]string{api.EnvToken: "s3cr3t"}, nil,
			setting.Errorf(setting.Token, "the API rejected the token (401)"), "--token-file: the API rejected the token (401)"},
		{"variable only", nil, nil, nil,
			setting.Errorf(setting.SourceDate, `"x": want seconds`), `SOURCE_DATE_EPOCH: "x": want seconds`},
		{"selection", []string{"--variants", "Atlantis"}, nil, nil,
			&fetch.FilterError{Setting: setting.Variants, Value: "Atlantis", Available: []string{"base"}}, `--variants: "Atlantis" matches nothing (available: base)`},
		{"request budget", []string{"--max-requests", "10"}, nil, nil,
			fmt.Errorf("get /me: %w (10 requests sent)", fetch.ErrBudget), "get /me: --max-requests: request budget used up (10 requests sent)"},
		{"unknown key", nil, nil, nil, setting.Errorf("nonesuch", "bad"), "nonesuch: bad"},
		{"no setting", nil, nil, nil, errors.New("disk full"), "disk full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clearSettingsEnv(t)
			for _, k := range []string{"CUREX_BASE_URL", api.EnvToken, "SOURCE_DATE_EPOCH"} {
				t.Setenv(k, tt.env[k])
			}
			g := &globals{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
			cmd, _, err := newRoot(g).Find([]string{"export"})
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.ParseFlags(tt.args); err != nil {
				t.Fatal(err)
			}
			g.cmd = cmd
			if g.fromFile, err = applyConfig(cmd); err != nil { // the environment
				t.Fatal(err)
			}
			for fl, key := range tt.file {
				if g.fromFile == nil {
					g.fromFile = map[string]fromFile{}
				}
				g.fromFile[fl] = fromFile{key: key, path: "curex.yaml", line: 3}
			}
			if got := g.describe(tt.err); !strings.HasPrefix(got, tt.want) {
				t.Errorf("describe = %q\nwant it to begin %q", got, tt.want)
			}
			if strings.Contains(g.describe(tt.err), "s3cr3t") {
				t.Error("the message shows the token")
			}
		})
	}
}

// TestSettingErrorsAsGiven runs each kind of setting error through the
// command line: a library error names the setting by its key, the user
// reads it as given (flag, file or variable), for every command, and the
// exit code stays what it was (2 for usage errors).
func TestSettingErrorsAsGiven(t *testing.T) {
	good := sandboxURL(t)
	closed := httptest.NewServer(nil)
	dead := closed.URL
	closed.Close()
	cfg := writeConfig(t, "revalidate: sometimes\n")
	tests := []struct {
		name    string
		baseEnv string // CUREX_BASE_URL
		args    []string
		code    int
		stream  string // "stderr" or "stdout"
		want    string
	}{
		{"export: a flag the library refuses", "", []string{"export", "--base-url", good, "--revalidate", "sometimes"}, exitUsage, "stderr",
			`curex: --revalidate: "sometimes": want rolling, always or never`},
		{"export: the same from the file", "", []string{"export", "--base-url", good, "--config", cfg}, exitUsage, "stderr",
			`curex: ` + cfg + `:1: revalidate: "sometimes": want rolling, always or never`},
		{"plan: a flag the library refuses", "", []string{"plan", "--base-url", good, "--revalidate-within", "10m"}, exitUsage, "stderr",
			`curex: --revalidate-within: "10m": want at least 1h`},
		{"export: a selection that matches nothing", "", []string{"export", "--base-url", good, "--variants", "Atlantis"}, exitUsage, "stderr",
			`--variants: "Atlantis" matches nothing`},
		{"plan: a selection that matches nothing", "", []string{"plan", "--base-url", good, "--locales", "xx"}, exitUsage, "stderr",
			`--locales: "xx" matches nothing`},
		{"export: the base URL from the environment", dead, []string{"export"}, exitFailed, "stderr",
			"CUREX_BASE_URL: cannot reach the API"},
		{"plan: the base URL from a flag", "", []string{"plan", "--base-url", dead}, exitFailed, "stderr",
			"--base-url: cannot reach the API"},
		{"export: a tree over the limit", "", []string{"export", "--base-url", good, "--curriculum", "101", "--variants", "base", "--locales", "en", "--max-tree-nodes", "3"}, exitPartial, "stdout",
			"--max-tree-nodes: the tree has more than 3 nodes"},
		{"export: the progress line of a tree over the limit", "", []string{"export", "--base-url", good, "--curriculum", "101", "--variants", "base", "--locales", "en", "--max-tree-nodes", "3", "--progress", "plain"}, exitPartial, "stderr",
			"failed: algebra-1/base/en: --max-tree-nodes: the tree has more than 3 nodes"},
		{"plan: a locale under the translation asked for", "", []string{"plan", "--base-url", good, "--min-translation", "100"}, exitOK, "stdout",
			"--min-translation: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(api.EnvToken, "sandbox-riverbend-token")
			t.Setenv("CUREX_BASE_URL", tt.baseEnv)
			t.Setenv("CUREX_CHROMIUM", "")
			args := append(tt.args, "--cache-dir", t.TempDir())
			if tt.args[0] == "export" {
				args = append(args, "--output", filepath.Join(t.TempDir(), "out"), "--formats", "json")
				if !slices.Contains(args, "--progress") {
					args = append(args, "--progress", "none")
				}
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, &stdout, &stderr)
			got := stderr.String()
			if tt.stream == "stdout" {
				got = stdout.String()
			}
			if code != tt.code || !strings.Contains(got, tt.want) {
				t.Fatalf("exit %d, want %d; %s %q, want it to contain %q", code, tt.code, tt.stream, got, tt.want)
			}
			for _, lib := range []string{"revalidate_within:", "max_tree_nodes:", "base_url:", "min_translation", "variants:", "locales:"} {
				if strings.Contains(stdout.String()+stderr.String(), " "+lib) {
					t.Errorf("the output names a setting by its library key %q:\n%s%s", lib, stdout.String(), stderr.String())
				}
			}
		})
	}
}
