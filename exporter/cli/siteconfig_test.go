package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// siteCommand is a command with the identity flags and --config, as
// export and demo have them.
func siteCommand(t *testing.T, args ...string) (*globals, *cobra.Command, *siteFlags) {
	t.Helper()
	var f siteFlags
	g := &globals{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	cmd := &cobra.Command{Use: "export"}
	f.register(cmd)
	registerConfig(cmd)
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	set, err := applyConfig(cmd)
	if err != nil {
		t.Fatal(err)
	}
	g.cmd, g.fromFile = cmd, set
	return g, cmd, &f
}

func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSiteIdentityPrecedence: flag > environment > file > default, for a
// flat setting (site_title) and a structured one (site_footer_links).
func TestSiteIdentityPrecedence(t *testing.T) {
	cfg := writeFile(t, "curex.yaml", `site_title: From the file
site_accent: "#1d4e89"
site_footer_links:
  - {label: File, url: https://example.org/file}
`)
	for _, tc := range []struct {
		name      string
		args      []string
		env, link string
		want      string
	}{
		{name: "default", want: ""},
		{name: "file", args: []string{"--config", cfg}, want: "From the file"},
		{name: "environment over file", args: []string{"--config", cfg}, env: "From the environment", want: "From the environment"},
		{name: "flag over environment", args: []string{"--config", cfg, "--site-title", "From the flag"}, env: "From the environment", want: "From the flag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CUREX_SITE_TITLE", tc.env)
			t.Setenv("CUREX_SITE_FOOTER_LINKS", tc.link)
			g, cmd, f := siteCommand(t, tc.args...)
			id, err := f.identity(g, cmd)
			if err != nil {
				t.Fatal(err)
			}
			if id.Title != tc.want {
				t.Errorf("title %q, want %q", id.Title, tc.want)
			}
		})
	}
	t.Run("structured from the environment", func(t *testing.T) {
		t.Setenv("CUREX_SITE_FOOTER_LINKS", `[{"label": "Env", "url": "https://example.org/env"}]`)
		g, cmd, f := siteCommand(t, "--config", cfg)
		id, err := f.identity(g, cmd)
		if err != nil {
			t.Fatal(err)
		}
		if len(id.Links) != 1 || id.Links[0].Label != "Env" || id.Accent != "#1d4e89" {
			t.Errorf("identity %+v: want the environment's link and the file's accent", id)
		}
	})
}

// TestSiteIdentityErrors: every refusal is a usage error that names the
// setting as the user gave it.
func TestSiteIdentityErrors(t *testing.T) {
	logo := writeFile(t, "logo.svg", "<svg xmlns='http://www.w3.org/2000/svg'/>")
	for _, tc := range []struct {
		name string
		file string // curex.yaml, when not ""
		args []string
		env  map[string]string
		want *regexp.Regexp
	}{
		{name: "accent flag", args: []string{"--site-accent", "#ffcc00"}, want: regexp.MustCompile(`^--site-accent: #ffcc00 has a contrast of 1\.\d\d:1`)},
		{name: "accent in the file", file: `site_accent: "#eee"`, want: regexp.MustCompile(`^.*curex\.yaml:1: site_accent: #eee has a contrast`)},
		{name: "script environment", env: map[string]string{"CUREX_SITE_SCRIPTS": "javascript:alert(1)"}, want: regexp.MustCompile(`^CUREX_SITE_SCRIPTS: "javascript:alert\(1\)": want an https URL`)},
		{name: "script data URL", args: []string{"--site-script", "data:text/javascript,alert(1)"}, want: regexp.MustCompile(`^--site-script: "data:`)},
		{name: "link in the file", file: "site_footer_links:\n  - label: x\n    url: javascript:alert(1)\n", want: regexp.MustCompile(`^.*curex\.yaml: site_footer_links: link "x": .* no other scheme`)},
		{name: "link in the environment", env: map[string]string{"CUREX_SITE_FOOTER_LINKS": `[{"label":"x","url":"data:text/html,hi"}]`}, want: regexp.MustCompile(`^CUREX_SITE_FOOTER_LINKS: link "x"`)},
		{name: "mistyped field", file: "site_locales:\n  es:\n    titel: Sitio\n", want: regexp.MustCompile(`line 2: site_locales: .*line 3: unknown field "titel"$`)},
		{name: "links not a list", file: "site_footer_links: https://example.org\n", want: regexp.MustCompile(`line 1: site_footer_links: want a list of \{label, url\}`)},
		{name: "missing logo", args: []string{"--site-logo", filepath.Join(t.TempDir(), "nope.png")}, want: regexp.MustCompile(`^--site-logo: .*nope\.png: .*no such file`)},
		{name: "logo is a folder", args: []string{"--site-favicon", filepath.Dir(logo) + "/x.svg/.."}, want: regexp.MustCompile(`^--site-favicon: `)},
		{name: "language", args: []string{"--site-language", "sw"}, want: regexp.MustCompile(`^--site-language: "sw": want one of ar, de, en, es, fr, ja, pt, zh`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"CUREX_SITE_SCRIPTS", "CUREX_SITE_FOOTER_LINKS", "CUREX_SITE_LOCALES"} {
				t.Setenv(k, tc.env[k])
			}
			args := tc.args
			if tc.file != "" {
				args = append(args, "--config", writeFile(t, "curex.yaml", tc.file))
			}
			g, cmd, f := siteCommand(t, args...)
			_, err := f.identity(g, cmd)
			var ee *exitError
			if err == nil || !errors.As(err, &ee) || ee.code != exitUsage {
				t.Fatalf("identity: %v, want a usage error", err)
			}
			if !tc.want.MatchString(err.Error()) {
				t.Errorf("error %q, want it to match %s", err, tc.want)
			}
		})
	}
}

// TestParseConfigLeavesStructuredKeys: parseConfig takes the flat keys
// and leaves site_footer_links and site_locales to parseSiteFile; other
// nested values stay errors.
func TestParseConfigLeavesStructuredKeys(t *testing.T) {
	data := []byte("site_title: Riverbend\nsite_locales:\n  es: {title: Sitio}\nsite_footer_links:\n  - {label: About, url: about/}\n")
	vals, err := parseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) != 1 || vals[0].key != "site_title" || vals[0].values[0] != "Riverbend" {
		t.Errorf("parseConfig = %+v", vals)
	}
	sf, err := parseSiteFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if sf.Locales["es"].Title != "Sitio" || len(sf.Links) != 1 || sf.Links[0].URL != "about/" {
		t.Errorf("parseSiteFile = %+v", sf)
	}
	// links: [] removes the site's links for the locale; no links keeps them.
	sf, err = parseSiteFile([]byte("site_locales:\n  es: {links: []}\n  fr: {title: Site}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sf.Locales["es"].Links == nil || len(sf.Locales["es"].Links) != 0 || sf.Locales["fr"].Links != nil {
		t.Errorf("links: [] gave %#v, no links %#v", sf.Locales["es"].Links, sf.Locales["fr"].Links)
	}
	if _, err := parseConfig([]byte("site_title:\n  es: Sitio\n")); err == nil {
		t.Error("a nested site_title: no error")
	}
	if _, err := parseSiteFile([]byte("site_locales: {}\nsite_locales: {}\n")); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("site_locales twice: %v", err)
	}
}

// TestSampleSiteConfig: the sample curex.yaml of the docs is valid.
func TestSampleSiteConfig(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	g, cmd, f := siteCommand(t, "--config", filepath.Join("exporter", "cli", "testdata", "site-identity", "curex.yaml"))
	id, err := f.identity(g, cmd)
	if err != nil {
		t.Fatal(err)
	}
	if id.Title == "" || id.Logo == "" || id.Accent == "" || len(id.Scripts) == 0 || len(id.Locales) == 0 || len(id.Links) == 0 {
		t.Errorf("sample identity lacks a setting: %+v", id)
	}
}

// TestDemoSiteIdentity: curex demo honours the identity settings of the
// same curex.yaml as export: the catalog's language and title, the logo,
// the accent's style sheet, the social card and the publisher's script.
func TestDemoSiteIdentity(t *testing.T) {
	t.Setenv("CUREX_CHROMIUM", filepath.Join(t.TempDir(), "no-chromium"))
	t.Chdir(filepath.Join("..", ".."))
	out := filepath.Join(t.TempDir(), "output")
	var stdout, stderr bytes.Buffer
	args := []string{"demo", "--output", out, "--formats", "html", "--config", filepath.Join("exporter", "cli", "testdata", "site-identity", "curex.yaml")}
	if code := run(context.Background(), args, &stdout, &stderr); code != exitOK {
		t.Fatalf("demo exit %d: %s", code, stderr.String())
	}
	page := func(p string) string {
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	home := page("index.html")
	for _, want := range []string{
		`<html lang="es">`, `<title>Currículos de Riverbend</title>`,
		`<meta property="og:site_name" content="Currículos de Riverbend">`,
		`<meta property="og:image" content="https://riverbend.example.org/social-card.png">`,
		`<meta name="twitter:card" content="summary_large_image">`,
		`<script src="https://stats.riverbend.example.org/script.js" defer></script>`,
		`<a href="https://riverbend.example.org/es/about">Acerca de</a>`,
		`<p class="site-footer__text">© Distrito Escolar Unificado de Riverbend.`,
	} {
		if !strings.Contains(home, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	for _, re := range []string{`<img class="site-logo" src="assets/logo\.[0-9a-f]{8}\.svg" alt="">`, `<link rel="icon" href="assets/favicon\.[0-9a-f]{8}\.svg">`, `<link rel="stylesheet" href="assets/identity\.[0-9a-f]{8}\.css">`} {
		if !regexp.MustCompile(re).MatchString(home) {
			t.Errorf("index.html lacks %s", re)
		}
	}
	// An English page keeps the site-wide title and footer links.
	en := page("algebra-1/base/en/index.html")
	if !strings.Contains(en, `<meta property="og:site_name" content="Riverbend Schools Curricula">`) || !strings.Contains(en, `>Accessibility</a>`) {
		t.Errorf("the English contents page lacks the site-wide identity")
	}
	if nf := page("404.html"); !strings.Contains(nf, `<html lang="es">`) {
		t.Errorf("404.html is not in the site's language")
	}
}

// TestServeRefusesScriptOrigins: curex serve widens its policy only to
// https origins; anything else is a usage error before it listens.
func TestServeRefusesScriptOrigins(t *testing.T) {
	for _, bad := range []string{"javascript:alert(1)", "data:text/javascript,alert(1)", "http://stats.example.org/s.js"} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"serve", "--site-script", bad, t.TempDir()}, &stdout, &stderr); code != exitUsage {
			t.Errorf("serve --site-script %s: exit %d, want %d (%s)", bad, code, exitUsage, stderr.String())
		}
		if !strings.Contains(stderr.String(), "--site-script") {
			t.Errorf("serve --site-script %s: %q does not name the flag", bad, stderr.String())
		}
	}
}

// TestServeSiteScripts: curex serve sends the policy widened to the
// origins of site_scripts, here from the configuration file, as a host
// should.
func TestServeSiteScripts(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!DOCTYPE html><title>x</title>"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := writeFile(t, "curex.yaml", "site_title: ignored by serve\nsite_scripts: [https://stats.example.org/js/script.js]\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var errOut bytes.Buffer
	go func() {
		done <- run(ctx, []string{"serve", "--config", cfg, "--addr", "127.0.0.1:0", dir}, pw, &errOut)
		pw.Close()
	}()
	var base string
	sc := bufio.NewScanner(pr)
	for base == "" && sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), " at http://"); ok {
			base = "http://" + strings.Fields(rest)[0]
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if base == "" {
		cancel()
		t.Fatalf("no Serving line; stderr %q", errOut.String())
	}
	resp, err := http.Get(base)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self' https://stats.example.org;", "connect-src 'self' https://stats.example.org;"} {
		if !strings.Contains(csp, want) {
			t.Errorf("policy %q lacks %q", csp, want)
		}
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("serve exited %d; stderr %q", code, errOut.String())
	}
}

// TestDemoSaysWhichSettingsItLeavesOut: curex demo takes the site's
// identity from a configuration file written for export, and warns of
// the settings of the file it does not take, by name; export warns of
// none.
func TestDemoSaysWhichSettingsItLeavesOut(t *testing.T) {
	file := writeFile(t, "curex.yaml", "site_title: Riverbend\ntheme: ./my-theme\nhide_attributes: [teacher_notes]\nbase_url: https://api.example.org\n")
	for _, tc := range []struct {
		name string
		cmd  func(*globals) *cobra.Command
		want string // "" for no warning
	}{
		{"demo", newDemoCommand, "settings=\"base_url, hide_attributes, theme\""},
		{"export", newExportCommand, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			cmd := tc.cmd(&globals{stdout: &bytes.Buffer{}, stderr: &stderr})
			cmd.Flags().String("log-level", "info", "")
			cmd.Flags().String("log-format", "text", "")
			cmd.Flags().Bool("quiet", false, "")
			cmd.SetErr(&stderr)
			if err := cmd.ParseFlags([]string{"--config", file}); err != nil {
				t.Fatal(err)
			}
			if _, err := applyConfig(cmd); err != nil {
				t.Fatal(err)
			}
			got := stderr.String()
			switch {
			case tc.want == "" && strings.Contains(got, "does not use these settings"):
				t.Errorf("%s warned: %s", tc.name, got)
			case tc.want != "" && (!strings.Contains(got, "demo does not use these settings of the file") || !strings.Contains(got, tc.want)):
				t.Errorf("stderr %q, want a warning naming %s", got, tc.want)
			}
		})
	}
}
