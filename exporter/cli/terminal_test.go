package cli

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// hostileName dresses a name with what a terminal acts on: an escape that
// clears the screen, one that retitles the window, a C1 control and a
// right-to-left override that reverses what follows.
func hostileName(s string) string {
	return "\x1b[2J\x1b]0;pwned\x07" + s + "\u0085\u202Egnp.exe\u2066\u200F\x07"
}

// TestNamesPrintedClean serves names full of escape sequences, controls
// and bidirectional overrides and checks that whoami, plan, the progress
// lines and the summary print none of them.
func TestNamesPrintedClean(t *testing.T) {
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	for i := range ds.Users {
		ds.Users[i].Name = hostileName(ds.Users[i].Name)
		ds.Users[i].Email = hostileName(ds.Users[i].Email)
	}
	for i := range ds.Organizations {
		ds.Organizations[i].Name = hostileName(ds.Organizations[i].Name)
	}
	for i := range ds.Curricula {
		ds.Curricula[i].Name = hostileName(ds.Curricula[i].Name)
	}
	h, err := sandbox.New(ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	cache := t.TempDir()
	for _, args := range [][]string{
		{"whoami", "--base-url", srv.URL},
		{"plan", "--base-url", srv.URL, "--cache-dir", cache},
		{"export", "--base-url", srv.URL, "--cache-dir", cache, "--output", filepath.Join(t.TempDir(), "out"), "--progress", "plain", "--locales", "en", "--formats", "json"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, &stdout, &stderr)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", args[0], code, stderr.String())
		}
		for _, out := range []string{stdout.String(), stderr.String()} {
			for _, r := range out {
				if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
					t.Errorf("%s printed %U:\n%q", args[0], r, out)
					break
				}
			}
		}
		if args[0] == "plan" && !strings.Contains(stdout.String(), "Algebra 1") {
			t.Errorf("plan lost the curriculum name:\n%s", stdout.String())
		}
	}
}

// TestMaxTreeNodesFailsTheTreeAlone exports the sample with
// --max-tree-nodes 25: the Algebra 1 trees (26 to 28 nodes) fail alone
// with a message naming the limit, the Intro to CS ones (23 and 24) are
// written, and the run exits 3.
func TestMaxTreeNodesFailsTheTreeAlone(t *testing.T) {
	url := sandboxURL(t)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"export", "--base-url", url, "--output", out, "--cache-dir", t.TempDir(),
		"--progress", "none", "--locales", "en", "--formats", "json", "--max-tree-nodes", "25"}, &stdout, &stderr)
	if code != exitPartial {
		t.Fatalf("exit %d, want %d (partial): %s %s", code, exitPartial, stdout.String(), stderr.String())
	}
	if want := "failed algebra-1/base/en (no previous version): --max-tree-nodes: the tree has more than 25 nodes"; !strings.Contains(stdout.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, stdout.String())
	}
	if strings.Contains(stdout.String(), "failed introduction-to-computer-science") {
		t.Errorf("a tree under the cap failed:\n%s", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(out, "bundles", "introduction-to-computer-science", "base", "en", "tree.json")); err != nil {
		t.Errorf("a tree under the cap was not written: %v", err)
	}
	var dummy bytes.Buffer
	if code := run(context.Background(), []string{"export", "--base-url", url, "--output", out, "--max-tree-nodes", "0"}, &dummy, &dummy); code != exitUsage {
		t.Errorf("--max-tree-nodes 0: exit %d, want %d", code, exitUsage)
	}
}
