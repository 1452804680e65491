package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUsageErrorsExit2(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"sandbox", "--rate-limit", "60"}, "--rate-limit"},
		{[]string{"sandbox", "--faults", "teapot=0.1"}, "--faults"},
		{[]string{"sandbox", "--latency", "soon"}, "--latency"},
		{[]string{"sandbox", "--data", "/nonexistent/data.json"}, "--data"},
		{[]string{"sandbox", "--data", "synthetic:nodes=x"}, "--data"},
		{[]string{"sandbox", "--log-level", "loud"}, "--log-level"},
		{[]string{"sandbox", "--records", "flat"}, "--records"},
		{[]string{"sandbox", "--no-such-flag"}, "unknown flag"},
		{[]string{"version", "extra"}, "unexpected argument"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"version", "--cpu-profile", "/nonexistent/dir/cpu.prof"}, "--cpu-profile"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tt.args, &out, &errOut)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitUsage, errOut.String())
			}
			if !strings.Contains(errOut.String(), tt.want) {
				t.Fatalf("stderr %q does not mention %q", errOut.String(), tt.want)
			}
			if strings.Count(strings.TrimSpace(errOut.String()), "\n") > 0 {
				t.Fatalf("want one line of error, got %q", errOut.String())
			}
		})
	}
}

// TestCPUProfile: --cpu-profile leaves a profile go tool pprof reads (a
// gzipped protocol buffer) once the command ends.
func TestCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"version", "--cpu-profile", path}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("profile is not gzipped: %v", err)
	}
	data, err := io.ReadAll(zr)
	if err != nil || len(data) == 0 {
		t.Fatalf("profile: %d bytes, %v", len(data), err)
	}
}

// TestSandboxServes starts `curex sandbox` on a free port, asks it who the
// printed token belongs to, and stops it the way Ctrl-C would; with
// --records plain the user record comes with its fields at the top.
func TestSandboxServes(t *testing.T) {
	for _, tc := range []struct {
		records string
		plain   bool
	}{{"", false}, {"resource", false}, {"plain", true}} {
		t.Run("records="+tc.records, func(t *testing.T) { sandboxServes(t, tc.records, tc.plain) })
	}
}

func sandboxServes(t *testing.T, records string, plain bool) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var errOut bytes.Buffer
	args := []string{"sandbox", "--addr", "127.0.0.1:0", "--token", "extra-token"}
	if records != "" {
		args = append(args, "--records", records)
	}
	go func() {
		done <- run(ctx, args, pw, &errOut)
		pw.Close()
	}()
	var base, token string
	sc := bufio.NewScanner(pr)
	for sc.Scan() && (base == "" || token == "") {
		line := strings.TrimSpace(sc.Text())
		if v, ok := strings.CutPrefix(line, "base URL:"); ok {
			base = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "token:"); ok {
			token = strings.Fields(v)[0]
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if base == "" || token != "extra-token" {
		cancel()
		t.Fatalf("banner lacks base URL or token: base=%q token=%q; stderr %q", base, token, errOut.String())
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/me", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	var me struct {
		Data struct {
			Type  string `json:"type"`
			Email string `json:"email"`
		} `json:"data"`
	}
	err = json.NewDecoder(resp.Body).Decode(&me)
	resp.Body.Close()
	form := me.Data.Type == "user" && me.Data.Email == ""
	if plain {
		form = me.Data.Type == "" && me.Data.Email != ""
	}
	if err != nil || resp.StatusCode != http.StatusOK || !form {
		cancel()
		t.Fatalf("GET /me: %d %+v %v", resp.StatusCode, me, err)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("sandbox exited %d; stderr %q", code, errOut.String())
	}
}

func TestDemo(t *testing.T) {
	// Without Chromium the demo says so and writes every other format
	// (exporter's TestEveryFormat prints PDFs).
	t.Setenv("CUREX_CHROMIUM", filepath.Join(t.TempDir(), "no-chromium"))
	out := filepath.Join(t.TempDir(), "output")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"demo", "--output", out}, &stdout, &stderr); code != exitOK {
		t.Fatalf("demo exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "exported 28 of 28 trees") || !strings.Contains(stdout.String(), "manifest.json") {
		t.Fatalf("demo output %q", stdout.String())
	}
	if !strings.Contains(stdout.String(), "apt-get install chromium") {
		t.Errorf("demo output does not say how to get PDFs: %q", stdout.String())
	}
	for _, p := range []string{"tree.json", "markdown.zip", "markdown/index.md", "../../../../introduction-to-computer-science/summer-intensive/ja/handbook.html"} {
		if _, err := os.Stat(filepath.Join(out, "bundles", "introduction-to-computer-science", "summer-intensive", "ja", filepath.FromSlash(p))); err != nil {
			t.Error(err)
		}
	}
}

// TestDemoFormats: --formats chooses the demo's formats, as for export,
// and the closing lines name what was written; an empty list is refused.
func TestDemoFormats(t *testing.T) {
	t.Setenv("CUREX_CHROMIUM", filepath.Join(t.TempDir(), "no-chromium"))
	out := filepath.Join(t.TempDir(), "output")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"demo", "--output", out, "--formats", "json,cartridge"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("demo exit %d: %s", code, stderr.String())
	}
	got := stdout.String()
	for _, want := range []string{"cartridge:", "course.imscc", "json:", "tree.json"} {
		if !strings.Contains(got, want) {
			t.Errorf("demo output lacks %q: %s", want, got)
		}
	}
	for _, unwanted := range []string{"Open the site:", "handbook:", "handbook.html", "apt-get install chromium"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("demo output has %q for formats it did not write: %s", unwanted, got)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "bundles", "algebra-1", "texas", "es", "course.imscc")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err == nil {
		t.Error("the website was written although not chosen")
	}
	stdout.Reset()
	stderr.Reset()
	if code := run(context.Background(), []string{"demo", "--output", filepath.Join(t.TempDir(), "o"), "--formats", ""}, &stdout, &stderr); code != exitUsage {
		t.Errorf("--formats '' exit %d, want %d: %s", code, exitUsage, stderr.String())
	}
}

// TestDemoServe runs `curex demo --serve` as a user would: the export
// (the website and the JSON bundles: TestDemo covers the formats), then
// the site over HTTP until interrupted.
func TestDemoServe(t *testing.T) {
	t.Setenv("CUREX_CHROMIUM", filepath.Join(t.TempDir(), "no-chromium"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := filepath.Join(t.TempDir(), "output")
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var errOut bytes.Buffer
	go func() {
		done <- run(ctx, []string{"demo", "--output", out, "--formats", "html,json", "--serve", "--addr", "127.0.0.1:0"}, pw, &errOut)
		pw.Close()
	}()
	var base string
	sc := bufio.NewScanner(pr)
	for base == "" && sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), " at http://"); ok && strings.HasPrefix(sc.Text(), "Serving ") {
			base = "http://" + strings.Fields(rest)[0]
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if base == "" {
		cancel()
		t.Fatalf("no Serving line; stderr %q", errOut.String())
	}
	for _, tc := range []struct{ path, ctype string }{
		{"", "text/html; charset=utf-8"},
		{"algebra-1/houston-isd/ar/index.html", "text/html; charset=utf-8"},
		{"bundles/algebra-1/base/en/tree.json", "application/json"},
		{"robots.txt", "text/plain; charset=utf-8"},
	} {
		resp, err := http.Get(base + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != tc.ctype {
			t.Errorf("GET /%s: %d %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("demo --serve exited %d; stderr %q", code, errOut.String())
	}
}

func TestServeUsage(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve"}, "want one folder"},
		{[]string{"serve", "a", "b"}, "want one folder"},
		{[]string{"serve", empty}, "no index.html"},
		{[]string{"serve", filepath.Join(empty, "missing")}, "missing"},
	} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), tc.args, &out, &errOut); code != exitUsage || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errOut.String(), exitUsage, tc.want)
		}
	}
}
