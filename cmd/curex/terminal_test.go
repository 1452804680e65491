package main

import (
	"bytes"
	"context"
	"net/http/httptest"
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
