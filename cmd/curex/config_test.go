package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{"unknown key", "output: x\nconcurrency_level: 3\n", `line 2: unknown setting "concurrency_level"`},
		{"token", "token: s3cr3t\n", "the token never goes in a file of settings"},
		{"not a mapping", "- a\n- b\n", "want a mapping"},
		{"bad YAML", "output: [unclosed\n", "not valid YAML"},
		{"duplicate", "output: a\noutput: b\n", "line 2: output given twice"},
		{"bad value", "output: a\nconcurrency: lots\n", "line 2: concurrency"},
		{"nested value", "formats: {html: true}\n", "line 1: formats: want a value or a list"},
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
	if code := run(context.Background(), []string{"export", "--config", filepath.Join(t.TempDir(), "missing.yaml")}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "--config") {
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
