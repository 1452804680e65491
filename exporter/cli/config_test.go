package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter/api"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "curex.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestConfigFile exports with settings from curex.yaml, and checks the
// precedence: flag > environment > file > default.
func TestConfigFile(t *testing.T) {
	url := sandboxURL(t)
	out := filepath.Join(t.TempDir(), "site")
	cfg := writeConfig(t, `# nightly settings
base_url: http://192.0.2.1:9   # CUREX_BASE_URL wins over this
output: `+out+`
formats: [json]
curricula:
  - "101"
variants: base
locales: [en, es]
progress: none
rate_limit: 1000/1s
`)
	t.Setenv("CURRICULUM_API_TOKEN", "sandbox-riverbend-token")
	t.Setenv("CUREX_BASE_URL", url)
	t.Setenv("CUREX_CHROMIUM", "")
	var stdout, stderr bytes.Buffer
	// --locales on the command line beats the file's list.
	if code := run(context.Background(), []string{"export", "--config", cfg, "--cache-dir", t.TempDir(), "--locales", "es"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, err := filepath.Glob(filepath.Join(out, "bundles", "*", "*", "*", "tree.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.HasSuffix(filepath.ToSlash(got[0]), "algebra-1/base/es/tree.json") {
		t.Fatalf("bundles %v, want only algebra-1/base/es", got)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); !os.IsNotExist(err) {
		t.Errorf("formats from the file not applied: the website was written (%v)", err)
	}
}

func TestConfigFileErrors(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"unknown key", "output: x\nconcurrency_level: 3\n", `curex.yaml:2: unknown setting "concurrency_level"`},
		{"token", "token: s3cr3t\n", "the token never goes in a file of settings"},
		{"not a mapping", "- a\n- b\n", "want a mapping"},
		{"bad YAML", "output: [unclosed\n", "not valid YAML"},
		{"duplicate", "output: a\noutput: b\n", "curex.yaml:2: output given twice"},
		{"bad value", "output: a\nconcurrency: lots\n", `curex.yaml:2: concurrency: strconv.ParseInt: parsing "lots"`},
		{"bad bool", "allow_http: maybe\n", `curex.yaml:1: allow_http: strconv.ParseBool: parsing "maybe"`},
		{"bad duration", "pdf_timeout: soon\n", `curex.yaml:1: pdf_timeout: time: invalid duration "soon"`},
		{"nested value", "formats: {html: true}\n", "curex.yaml:1: formats: want a value or a list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"export", "--config", writeConfig(t, tc.body)}, &stdout, &stderr)
			if code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d mentioning %q", code, stderr.String(), exitUsage, tc.want)
			}
			if strings.Contains(stderr.String(), "s3cr3t") {
				t.Error("the error repeats the token")
			}
		})
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"export", "--config", filepath.Join(t.TempDir(), "missing.yaml")}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "missing.yaml") {
		t.Errorf("missing file: exit %d, %q", code, stderr.String())
	}
}

// FuzzParseConfig feeds arbitrary bytes to the configuration parser: it
// never panics, and what it accepts names known flags on real lines.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"", "output: x\n", "formats: [html, json]\ncurricula:\n  - a\n  - b\n", "token: x", "- 1", "a: &x 1\nb: *x\n", "output: !!binary aGk=\n"} {
		f.Add([]byte(s))
	}
	known := map[string]bool{}
	for _, src := range settings {
		if src.file {
			known[src.flag] = true
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vals, err := parseConfig(data)
		if err != nil {
			return
		}
		for _, v := range vals {
			if !known[v.flag] || v.line <= 0 || len(v.values) == 0 && v.flag != "curriculum" {
				t.Fatalf("accepted %+v", v)
			}
		}
	})
}

// clearSettingsEnv unsets every variable of the settings table, and
// CUREX_CONFIG, for the test: the machine's own must not leak in.
func clearSettingsEnv(t *testing.T) {
	t.Helper()
	for k := range settings {
		t.Setenv(envName(k), "")
	}
	t.Setenv(api.EnvToken, "")
	t.Setenv(envConfig, "")
	os.Unsetenv(envConfig) // unset, not empty: empty means "no file"
}

// resolve parses args for the command name and applies the environment
// and the configuration file as a run does, in a fresh working folder
// holding the given files (name → contents). It returns the command, to
// read its flags, and where each flag came from.
func resolve(t *testing.T, name string, args []string, env, files map[string]string) (*cobra.Command, map[string]fromFile, error) {
	t.Helper()
	clearSettingsEnv(t)
	for k, v := range env {
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	for n, body := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	g := &globals{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	cmd, _, err := newRoot(g).Find([]string{name})
	if err != nil {
		t.Fatal(err)
	}
	cmd.SetErr(g.stderr)
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	set, err := applyConfig(cmd)
	return cmd, set, err
}

// TestPrecedence checks flag > environment > file > default for settings
// of every kind: string, bool, list, repeatable list, duration and int;
// and that a flag given false beats a variable given true.
func TestPrecedence(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		env   map[string]string
		file  string // curex.yaml in the working folder ("" for none)
		flag  string // the flag read
		want  string // its value
		given string // how spell names its setting
	}{
		{"string: default", nil, nil, "", "paper", "a4", "--paper"},
		{"string: file", nil, nil, "paper: letter\n", "paper", "letter", "curex.yaml:1: paper"},
		{"string: environment beats file", nil, map[string]string{"CUREX_PAPER": "a4"}, "paper: letter\n", "paper", "a4", "CUREX_PAPER"},
		{"string: flag beats environment", []string{"--paper", "letter"}, map[string]string{"CUREX_PAPER": "a4"}, "paper: a4\n", "paper", "letter", "--paper"},
		{"string: empty variable is unset", nil, map[string]string{"CUREX_SITE_URL": ""}, "site_url: https://x.example/\n", "site-url", "https://x.example/", "curex.yaml:1: site_url"},

		{"bool: default", nil, nil, "", "allow-http", "false", "--allow-http"},
		// A guard is lowered only by the operator's file (--config), not
		// by one found in the working folder (TestDiscoveredConfig).
		{"bool: file", []string{"--config", "curex.yaml"}, nil, "output: o\nallow_http: true\n", "allow-http", "true", "curex.yaml:2: allow_http"},
		{"bool: environment beats file", []string{"--config", "curex.yaml"}, map[string]string{"CUREX_ALLOW_HTTP": "false"}, "allow_http: true\n", "allow-http", "false", "CUREX_ALLOW_HTTP"},
		{"bool: --flag=false beats CUREX_X=true", []string{"--config", "curex.yaml", "--allow-private-assets=false"}, map[string]string{"CUREX_ALLOW_PRIVATE_ASSETS": "true"}, "allow_private_assets: true\n", "allow-private-assets", "false", "--allow-private-assets"},
		{"bool: bare flag beats environment", []string{"--include-unpublished"}, map[string]string{"CUREX_INCLUDE_UNPUBLISHED": "false"}, "", "include-unpublished", "true", "--include-unpublished"},

		{"list: default", nil, nil, "", "locales", "all", "--locales"},
		{"list: file", nil, nil, "locales: [en, es]\n", "locales", "en,es", "curex.yaml:1: locales"},
		{"list: environment beats file", nil, map[string]string{"CUREX_LOCALES": "fr,ar"}, "locales: [en, es]\n", "locales", "fr,ar", "CUREX_LOCALES"},
		{"list: flag beats environment", []string{"--locales", "de"}, map[string]string{"CUREX_LOCALES": "fr"}, "", "locales", "de", "--locales"},
		{"repeatable: file", nil, nil, "curricula: [\"101\", \"201\"]\n", "curriculum", "[101,201]", "curex.yaml:1: curricula"},
		{"repeatable: environment splits at commas", nil, map[string]string{"CUREX_CURRICULA": "101, 301"}, "curricula: [\"201\"]\n", "curriculum", "[101,301]", "CUREX_CURRICULA"},
		{"repeatable: flag beats environment", []string{"--curriculum", "7"}, map[string]string{"CUREX_CURRICULA": "101"}, "", "curriculum", "[7]", "--curriculum"},

		{"duration: default", nil, nil, "", "pdf-timeout", "2m0s", "--pdf-timeout"},
		{"duration: file", nil, nil, "pdf_timeout: 90s\n", "pdf-timeout", "1m30s", "curex.yaml:1: pdf_timeout"},
		{"duration: environment beats file", nil, map[string]string{"CUREX_PDF_TIMEOUT": "5m"}, "pdf_timeout: 90s\n", "pdf-timeout", "5m0s", "CUREX_PDF_TIMEOUT"},
		{"duration: flag beats environment", []string{"--pdf-timeout", "1s"}, map[string]string{"CUREX_PDF_TIMEOUT": "5m"}, "", "pdf-timeout", "1s", "--pdf-timeout"},

		{"int: default", nil, nil, "", "concurrency", "4", "--concurrency"},
		{"int: file", nil, nil, "concurrency: 2\n", "concurrency", "2", "curex.yaml:1: concurrency"},
		{"int: environment beats file", nil, map[string]string{"CUREX_CONCURRENCY": "8"}, "concurrency: 2\n", "concurrency", "8", "CUREX_CONCURRENCY"},
		{"int: flag beats environment", []string{"--concurrency", "1"}, map[string]string{"CUREX_CONCURRENCY": "8"}, "concurrency: 2\n", "concurrency", "1", "--concurrency"},

		{"persistent flag from the environment", nil, map[string]string{"CUREX_LOG_FORMAT": "json"}, "log_format: text\n", "log-format", "json", "CUREX_LOG_FORMAT"},
		{"CUREX_ASSETS, as before", nil, map[string]string{"CUREX_ASSETS": "remote"}, "assets: local\n", "assets", "remote", "CUREX_ASSETS"},
		{"the base URL from the environment", nil, map[string]string{"CUREX_BASE_URL": "http://127.0.0.1:9"}, "", "base-url", "http://127.0.0.1:9", "CUREX_BASE_URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			if tt.file != "" {
				files["curex.yaml"] = tt.file
			}
			cmd, set, err := resolve(t, "export", tt.args, tt.env, files)
			if err != nil {
				t.Fatal(err)
			}
			fl := cmd.Flags().Lookup(tt.flag)
			if got := fl.Value.String(); got != tt.want {
				t.Errorf("--%s = %q, want %q", tt.flag, got, tt.want)
			}
			g := &globals{cmd: cmd, fromFile: set}
			key := ""
			for k := range settings {
				if settingFlag(cmd.Flags(), k) == fl {
					key = k
				}
			}
			if got, _ := g.spell(key); got != tt.given {
				t.Errorf("spell(%s) = %q, want %q", key, got, tt.given)
			}
		})
	}
}

// TestConfigDiscovery: curex.yaml or curex.yml in the working folder is
// read without --config; --config and CUREX_CONFIG win over it, --config
// ” reads none, and both spellings at once are refused.
func TestConfigDiscovery(t *testing.T) {
	named := filepath.Join(t.TempDir(), "named.yaml")
	if err := os.WriteFile(named, []byte("paper: letter\noutput: named\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		env        map[string]string
		files      map[string]string
		wantOutput string
		err        string
	}{
		{"curex.yaml", nil, nil, map[string]string{"curex.yaml": "output: found\n"}, "found", ""},
		{"curex.yml", nil, nil, map[string]string{"curex.yml": "output: yml\n"}, "yml", ""},
		{"none", nil, nil, nil, "output", ""},
		{"both", nil, nil, map[string]string{"curex.yaml": "output: a\n", "curex.yml": "output: b\n"}, "", "both curex.yaml and curex.yml are in the working folder"},
		{"--config wins", []string{"--config", named}, nil, map[string]string{"curex.yaml": "output: found\n"}, "named", ""},
		{"--config wins over two", []string{"--config", named}, nil, map[string]string{"curex.yaml": "output: a\n", "curex.yml": "output: b\n"}, "named", ""},
		{"CUREX_CONFIG wins", nil, map[string]string{envConfig: named}, map[string]string{"curex.yaml": "output: found\n"}, "named", ""},
		{"--config beats CUREX_CONFIG", []string{"--config", "curex.yaml"}, map[string]string{envConfig: named}, map[string]string{"curex.yaml": "output: found\n"}, "found", ""},
		{"--config '' reads none", []string{"--config", ""}, nil, map[string]string{"curex.yaml": "output: found\n"}, "output", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd, _, err := resolve(t, "export", tt.args, tt.env, tt.files)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				if ee := (*exitError)(nil); !errors.As(err, &ee) || ee.code != exitUsage {
					t.Errorf("%v: not a usage error (exit 2)", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := cmd.Flags().Lookup("output").Value.String(); got != tt.wantOutput {
				t.Errorf("--output = %q, want %q", got, tt.wantOutput)
			}
		})
	}
}

// TestConfigNotAFile refuses a curex.yaml that is not a file.
func TestConfigNotAFile(t *testing.T) {
	_, _, err := resolve(t, "export", nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("curex.yaml", 0o755); err != nil { // in resolve's working folder
		t.Fatal(err)
	}
	cmd, _, err := newRoot(&globals{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}).Find([]string{"plan"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := applyConfig(cmd); err == nil || !strings.Contains(err.Error(), "curex.yaml in the working folder is not a file") {
		t.Fatalf("err = %v", err)
	}
}

// TestSettingErrorsNameTheSource: a bad value from a variable names the
// variable, from a file the file, line and key; the exit code is 2; no
// message shows a token.
func TestSettingErrorsNameTheSource(t *testing.T) {
	url := sandboxURL(t)
	tests := []struct {
		name string
		env  map[string]string
		file string // curex.yaml in the working folder
		want string
	}{
		{"int variable", map[string]string{"CUREX_CONCURRENCY": "lots"}, "", `CUREX_CONCURRENCY="lots": strconv.ParseInt`},
		{"bool variable", map[string]string{"CUREX_ALLOW_HTTP": "yes please"}, "", `CUREX_ALLOW_HTTP="yes please": strconv.ParseBool`},
		{"duration variable", map[string]string{"CUREX_PDF_TIMEOUT": "soon"}, "", `CUREX_PDF_TIMEOUT="soon": time: invalid duration`},
		{"variable the library refuses", map[string]string{"CUREX_PAPER": "legal"}, "", `CUREX_PAPER: "legal": want a4 or letter`},
		{"variable the command refuses", map[string]string{"CUREX_ASSETS": "both"}, "", `CUREX_ASSETS "both": want local or remote`},
		{"file value the command refuses", nil, "output: o\nprogress: sideways\n", `curex.yaml:2: progress "sideways": want auto, bar, plain or none`},
		{"file value the library refuses", nil, "paper: legal\n", `curex.yaml:1: paper: "legal": want a4 or letter`},
		{"two tokens", map[string]string{envToken: "tok-one", api.EnvToken: "tok-two"}, "", "CUREX_TOKEN and CURRICULUM_API_TOKEN hold different tokens: unset one"},
		{"no token", map[string]string{api.EnvToken: ""}, "", "no API token: set CURRICULUM_API_TOKEN or give --token-file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"CUREX_BASE_URL": url, api.EnvToken: "sandbox-riverbend-token", "CUREX_CHROMIUM": ""}
			for k, v := range tt.env {
				env[k] = v
			}
			files := map[string]string{}
			if tt.file != "" {
				files["curex.yaml"] = tt.file
			}
			resolve(t, "export", nil, env, files) // sets the environment and the working folder
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"export", "--cache-dir", t.TempDir(), "--formats", "json"}, &stdout, &stderr)
			if code != exitUsage || !strings.Contains(stderr.String(), tt.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, stderr.String(), exitUsage, tt.want)
			}
			if strings.Contains(stderr.String(), "tok-") || strings.Contains(stderr.String(), "riverbend") {
				t.Errorf("the message shows a token: %s", stderr.String())
			}
		})
	}
}

// TestTokenVariables: CUREX_TOKEN works alone and beside an equal
// CURRICULUM_API_TOKEN.
func TestTokenVariables(t *testing.T) {
	url := sandboxURL(t)
	for _, env := range []map[string]string{
		{envToken: "sandbox-riverbend-token"},
		{envToken: "sandbox-riverbend-token", api.EnvToken: " sandbox-riverbend-token\n"},
		{api.EnvToken: "sandbox-riverbend-token"},
	} {
		env["CUREX_BASE_URL"] = url
		resolve(t, "whoami", nil, env, nil)
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"whoami", "--cache-dir", t.TempDir()}, &stdout, &stderr); code != exitOK {
			t.Errorf("%v: exit %d: %s", env, code, stderr.String())
		}
	}
}

// TestPublishReadsSettings: publish reads the same file and variables,
// and its --concurrency is publish_concurrency, not the fetches'.
func TestPublishReadsSettings(t *testing.T) {
	file := map[string]string{"curex.yaml": "concurrency: 9\npublish_concurrency: 3\ngzip: true\noutput: o\n"}
	cmd, _, err := resolve(t, "publish", nil, nil, file)
	if err != nil {
		t.Fatal(err)
	}
	if c, g := cmd.Flags().Lookup("concurrency").Value.String(), cmd.Flags().Lookup("gzip").Value.String(); c != "3" || g != "true" {
		t.Errorf("--concurrency %s --gzip %s, want 3 and true", c, g)
	}
	cmd, set, err := resolve(t, "publish", nil, map[string]string{"CUREX_PUBLISH_CONCURRENCY": "5", "CUREX_CONCURRENCY": "7"}, file)
	if err != nil {
		t.Fatal(err)
	}
	if c := cmd.Flags().Lookup("concurrency").Value.String(); c != "5" {
		t.Errorf("--concurrency %s, want 5 (CUREX_PUBLISH_CONCURRENCY)", c)
	}
	g := &globals{cmd: cmd, fromFile: set}
	if got := g.describe(usageErr(errors.New("--concurrency 0: want 1 or more"))); got != "CUREX_PUBLISH_CONCURRENCY 0: want 1 or more" {
		t.Errorf("describe = %q", got)
	}
}

// TestConfigLog: a file found in the working folder is announced at info
// level; a file named by --config only at debug level.
func TestConfigLog(t *testing.T) {
	named := filepath.Join(t.TempDir(), "named.yaml")
	if err := os.WriteFile(named, []byte("gzip: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string // in stderr ("" for no mention of a settings file)
	}{
		{nil, "msg=\"read settings from the working folder\" file=curex.yaml"},
		{[]string{"--log-format", "json"}, `"msg":"read settings from the working folder","file":"curex.yaml"}`},
		{[]string{"--config", named}, ""},
		{[]string{"--config", named, "--log-level", "debug"}, "level=DEBUG msg=\"read settings\" file=" + named},
		{[]string{"--quiet"}, ""},
		{[]string{"--quiet", "--log-level", "info"}, "msg=\"read settings from the working folder\" file=curex.yaml"},
	}
	for _, tt := range tests {
		resolve(t, "publish", nil, nil, map[string]string{"curex.yaml": "gzip: true\n"})
		var stdout, stderr bytes.Buffer
		args := append([]string{"publish", "missing-folder", "mem://"}, tt.args...)
		run(context.Background(), args, &stdout, &stderr)
		got := stderr.String()
		if tt.want == "" && strings.Contains(got, "read settings") || !strings.Contains(got, tt.want) {
			t.Errorf("%v: stderr %q, want %q", tt.args, got, tt.want)
		}
	}
}
