package cli

import (
	"bytes"
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// countingSandbox serves the sample dataset and counts the requests.
func countingSandbox(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	h, err := sandbox.New(ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

// listing describes every entry under dir, links not followed.
func listing(t *testing.T, dir string) string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		entry := rel + " " + d.Type().String()
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			entry += " " + string(b)
		}
		out = append(out, entry)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// TestRefusedOutputSendsNoRequest: an output folder curex must not
// replace (a web app with its own manifest.json, a home folder, curex's
// output with the user's files added) or cannot write is refused with
// exit 2 and one line naming it, before any request reaches the API, and
// is left as it was.
func TestRefusedOutputSendsNoRequest(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"a web app", map[string]string{"manifest.json": `{"name":"My App","start_url":"/"}`, "index.html": "app"}, []string{"manifest.json", "not curex's"}},
		{"a home folder", map[string]string{".bashrc": "alias ll=ls", ".ssh/id_ed25519": "secret"}, []string{".bashrc", ".ssh"}},
		{"curex's output and the user's notes", nil, []string{"notes.txt", "not listed"}},
		{"a folder of documents", map[string]string{"thesis.docx": "precious"}, []string{"thesis.docx", "no manifest.json"}},
	}
	url, requests := countingSandbox(t)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := []string{"export", "--base-url", url, "--output", out, "--cache-dir", t.TempDir(), "--progress", "none", "--formats", "json"}
			if tt.files == nil {
				var stdout, stderr bytes.Buffer
				if code := run(context.Background(), args, &stdout, &stderr); code != exitOK {
					t.Fatalf("first export: exit %d: %s", code, stderr.String())
				}
				tt.files = map[string]string{"notes.txt": "mine"}
			}
			for p, body := range tt.files {
				p = filepath.Join(out, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := listing(t, filepath.Dir(out))
			requests.Store(0)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, &stdout, &stderr)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitUsage, stderr.String())
			}
			if n := requests.Load(); n != 0 {
				t.Errorf("%d requests sent before the output was refused", n)
			}
			msg := strings.TrimSpace(stderr.String())
			for _, s := range append(tt.want, out) {
				if !strings.Contains(msg, s) {
					t.Errorf("stderr %q does not mention %q", msg, s)
				}
			}
			if strings.Count(msg, "\n") != 0 {
				t.Errorf("want one line, got %q", msg)
			}
			if after := listing(t, filepath.Dir(out)); after != before {
				t.Errorf("the folder changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

// TestOutputLinkKept: --output naming a link to a folder exports into the
// folder and keeps the link, twice.
func TestOutputLinkKept(t *testing.T) {
	url, _ := countingSandbox(t)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	dir := t.TempDir()
	real := filepath.Join(dir, "releases", "site")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "www")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	args := []string{"export", "--base-url", url, "--output", link, "--cache-dir", t.TempDir(), "--progress", "none", "--formats", "json"}
	for i := range 2 {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != exitOK {
			t.Fatalf("export %d: exit %d: %s", i+1, code, stderr.String())
		}
		if target, err := os.Readlink(link); err != nil || target != real {
			t.Fatalf("export %d: the link is gone (%q, %v)", i+1, target, err)
		}
		if _, err := os.Stat(filepath.Join(real, "manifest.json")); err != nil {
			t.Fatalf("export %d: nothing in the link's target: %v", i+1, err)
		}
	}
}

// TestDemoRefusesAHomeFolder: `curex demo --output ~` exits 2 and leaves
// the folder as it was, like export.
func TestDemoRefusesAHomeFolder(t *testing.T) {
	t.Setenv("CUREX_CHROMIUM", filepath.Join(t.TempDir(), "no-chromium"))
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := listing(t, home)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"demo", "--output", home}, &stdout, &stderr); code != exitUsage {
		t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr.String())
	}
	if !strings.Contains(stderr.String(), ".ssh") {
		t.Errorf("stderr %q does not name .ssh", stderr.String())
	}
	if after := listing(t, home); after != before {
		t.Errorf("the folder changed:\n%s\nwas\n%s", after, before)
	}
}
