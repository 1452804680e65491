package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

func sandboxURL(t testing.TB) string {
	t.Helper()
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	h, err := sandboxtest.New(t.Name(), ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestExportAsANewUser runs the mistakes a new user makes: each gives one
// clear line on standard error, the documented exit code, no stack trace
// and never the token.
func TestExportAsANewUser(t *testing.T) {
	good := sandboxURL(t)
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<!DOCTYPE html><html><body>Welcome to our website</body></html>"))
	}))
	defer html.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	deadURL := closed.URL
	closed.Close()

	tests := []struct {
		name  string
		token string
		args  []string
		code  int
		want  string
	}{
		{"wrong token", "wrong-token-123", []string{"--base-url", good}, exitFailed, "rejected the token (401)"},
		{"no token", "", []string{"--base-url", good}, exitUsage, "no API token"},
		{"unreachable host", "sandbox-riverbend-token", []string{"--base-url", deadURL}, exitFailed, "cannot reach the API"},
		{"wrong base URL", "sandbox-riverbend-token", []string{"--base-url", html.URL}, exitFailed, "does not answer like the Curriculum Content API"},
		{"unknown variant", "sandbox-riverbend-token", []string{"--base-url", good, "--variants", "Atlantis"}, exitUsage, `"Atlantis" matches nothing`},
		{"plain http to a remote host", "sandbox-riverbend-token", []string{"--base-url", "http://api.example.org"}, exitUsage, "--base-url"},
		{"bad rate limit", "sandbox-riverbend-token", []string{"--base-url", good, "--rate-limit", "lots"}, exitUsage, "--rate-limit"},
		{"no base URL", "sandbox-riverbend-token", nil, exitUsage, "no API base URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.token == "" {
				t.Setenv(api.EnvToken, "")
				os.Unsetenv(api.EnvToken)
			} else {
				t.Setenv(api.EnvToken, tt.token)
			}
			t.Setenv("CUREX_BASE_URL", "")
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"export", "--output", out, "--cache-dir", t.TempDir(), "--progress", "none"}, tt.args...)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.code, stderr.String())
			}
			msg := strings.TrimSpace(stderr.String())
			if strings.Count(msg, "\n") != 0 || !strings.HasPrefix(msg, "curex: ") || !strings.Contains(msg, tt.want) {
				t.Fatalf("stderr %q: want one line starting with curex: and containing %q", msg, tt.want)
			}
			if strings.Contains(msg, "goroutine") || (tt.token != "" && strings.Contains(msg+stdout.String(), tt.token)) {
				t.Fatalf("stack trace or token in output: %q", msg)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Fatalf("a failed run wrote %s", out)
			}
		})
	}
}

func TestExportPlanWhoami(t *testing.T) {
	url := sandboxURL(t)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	cache := t.TempDir()
	if code := run(context.Background(), []string{"export", "--base-url", url, "--output", out, "--cache-dir", cache, "--progress", "plain", "--locales", "en,es"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("export exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "exported 14 of 14 trees") {
		t.Fatalf("summary %q", stdout.String())
	}
	if !strings.Contains(stderr.String(), "plan: 14 trees") || !strings.Contains(stderr.String(), "14/14 trees") {
		t.Fatalf("progress %q", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "bundles", "algebra-1", "houston-isd", "es", "tree.json")); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"plan", "--base-url", url, "--cache-dir", cache, "--variants", "base,Texas"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("plan exit %d: %s", code, stderr.String())
	}
	// The export fetched the English and Spanish trees: the plan knows
	// them, and only the Arabic and Japanese ones are new.
	for _, want := range []string{"Algebra 1", "Texas", "es 86%",
		"12 trees: 6 new, 0 changed, 0 due for revalidation (rolling, every tree within 7d), 6 unchanged (no request)",
		"next run: 6 requests after the 6 of discovery", "fresh: every tree is current after the next run"} {
		if !strings.Contains(stdout.String(), want) {
			t.Fatalf("plan output lacks %q:\n%s", want, stdout.String())
		}
	}
	// Under a budget too small for the run.
	stdout.Reset()
	if code := run(context.Background(), []string{"plan", "--base-url", url, "--cache-dir", cache, "--variants", "base,Texas", "--max-requests", "8"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("plan exit %d: %s", code, stderr.String())
	}
	if want := "fresh: the next run fetches 2 of 6; new and changed trees are all current after 3 run(s)"; !strings.Contains(stdout.String(), want) {
		t.Fatalf("plan output lacks %q:\n%s", want, stdout.String())
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"whoami", "--base-url", url}, &stdout, &stderr); code != exitOK || !strings.Contains(stdout.String(), "Dana Okafor") {
		t.Fatalf("whoami exit %d: %q %q", code, stdout.String(), stderr.String())
	}
}

// TestSourceDateEpoch: the command line reads SOURCE_DATE_EPOCH (the
// library takes it as Config.SourceDate); a value that is no whole number
// of seconds is a usage error naming it, before any request.
func TestSourceDateEpoch(t *testing.T) {
	tests := []struct {
		value string
		code  int
	}{
		{"yesterday", exitUsage},
		{"-1", exitUsage},
		{"1700000000", exitOK},
	}
	url := sandboxURL(t)
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			t.Setenv("SOURCE_DATE_EPOCH", tc.value)
			t.Setenv(api.EnvToken, "sandbox-riverbend-token")
			var stdout, stderr bytes.Buffer
			args := []string{"export", "--base-url", url, "--output", filepath.Join(t.TempDir(), "out"), "--formats", "json",
				"--progress", "none", "--curriculum", "101", "--variants", "base", "--locales", "en"}
			code := run(context.Background(), args, &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr.String())
			}
			if tc.code == exitUsage && !strings.Contains(stderr.String(), `SOURCE_DATE_EPOCH "`+tc.value+`"`) {
				t.Errorf("stderr %q does not name SOURCE_DATE_EPOCH", stderr.String())
			}
		})
	}
}
