package cli

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// TestExportFaultExitCodes checks the exit codes of the fault matrix
// (exporter/faultmatrix_test.go) through the command line: a fault that
// stops the run exits 1 with one line on standard error and the previous
// output untouched; a fault that costs some exports exits 3 with one line
// saying how many kept their previous version. None of these faults is
// retried, so the rows run on real sockets in real time.
func TestExportFaultExitCodes(t *testing.T) {
	const tok = "sandbox-riverbend-token"
	tests := []struct {
		name string
		// fault wraps the sandbox of the second run.
		fault func(h *sandbox.Handler, next http.Handler) http.Handler
		code  int
		want  string
	}{
		{
			name: "401 in the middle of a run",
			fault: func(h *sandbox.Handler, next http.Handler) http.Handler {
				return onResolved(3, next, func() { expire(t, h, tok) })
			},
			code: exitFailed, want: "401 unauthorized: token expired",
		},
		{
			name: "403 on one curriculum after discovery",
			fault: func(h *sandbox.Handler, next http.Handler) http.Handler {
				return onResolved(1, next, func() { move(t, h, "curriculum_201", "org-northwind") })
			},
			code: exitPartial, want: "6 of 14 exports failed and kept their previous version",
		},
		{
			name: "403 on one curriculum during discovery",
			fault: func(h *sandbox.Handler, next http.Handler) http.Handler {
				var once sync.Once
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if strings.HasPrefix(r.URL.Path, "/api/v1/curricula/curriculum_201/") {
						once.Do(func() { move(t, h, "curriculum_201", "org-northwind") })
					}
					next.ServeHTTP(w, r)
				})
			},
			code: exitPartial, want: "6 of 14 exports failed and kept their previous version",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, err := dataset.Sample()
			if err != nil {
				t.Fatal(err)
			}
			h, err := sandboxtest.New(t.Name(), ds, sandbox.Options{Limits: ratelimit.Limits{}})
			if err != nil {
				t.Fatal(err)
			}
			var faulty atomic.Bool
			wrapped := tt.fault(h, h)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if faulty.Load() {
					wrapped.ServeHTTP(w, r)
					return
				}
				h.ServeHTTP(w, r)
			}))
			defer srv.Close()
			t.Setenv(api.EnvToken, tok)
			t.Setenv("CUREX_BASE_URL", "")
			out := filepath.Join(t.TempDir(), "out")
			args := []string{"export", "--base-url", srv.URL, "--output", out, "--progress", "none", "--locales", "en,es"}

			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), append(args, "--cache-dir", t.TempDir()), &stdout, &stderr); code != exitOK {
				t.Fatalf("previous export: exit %d: %s", code, stderr.String())
			}
			before := readTree(t, out)

			faulty.Store(true)
			stdout.Reset()
			stderr.Reset()
			code := run(context.Background(), append(args, "--cache-dir", t.TempDir()), &stdout, &stderr)
			msg := strings.TrimSpace(stderr.String())
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.code, msg)
			}
			if strings.Count(msg, "\n") != 0 || !strings.HasPrefix(msg, "curex: ") || !strings.Contains(msg, tt.want) {
				t.Fatalf("stderr %q: want one line starting with curex: and containing %q", msg, tt.want)
			}
			if strings.Contains(msg+stdout.String(), tok) {
				t.Fatal("the token is in the output")
			}
			// After a failed run every file is as it was; after a partial
			// one, every file of the failed exports (pages and bundles of
			// curriculum_201's variants and locales).
			after := readTree(t, out)
			for p, b := range before {
				a, ok := after[p]
				failedExport := strings.HasPrefix(p, "bundles/introduction-to-computer-science/") ||
					(strings.HasPrefix(p, "introduction-to-computer-science/") && strings.Count(p, "/") >= 3)
				switch {
				case code == exitFailed && (!ok || a != b):
					t.Errorf("%s changed after a failed run", p)
				case code == exitPartial && failedExport && (!ok || a != b):
					t.Errorf("%s of an export that failed was not kept", p)
				}
			}
			if code == exitFailed && len(after) != len(before) {
				t.Errorf("%d files after a failed run, %d before", len(after), len(before))
			}
		})
	}
}

// onResolved calls fn before passing on the n-th request for a resolved
// tree (n from 1).
func onResolved(n int, next http.Handler, fn func()) http.Handler {
	var mu sync.Mutex
	seen := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/resolved") {
			mu.Lock()
			seen++
			if seen == n {
				fn()
			}
			mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
}

// expire makes tok expire now.
func expire(t *testing.T, h *sandbox.Handler, tok string) {
	err := h.Edit(func(ds *dataset.Dataset) error {
		for i := range ds.Tokens {
			if ds.Tokens[i].Token == tok {
				now := time.Now()
				ds.Tokens[i].ExpiresAt = &now
				return nil
			}
		}
		return errors.New("no such token")
	})
	if err != nil {
		t.Error(err)
	}
}

// move gives a base curriculum (and its variants) to another organization.
func move(t *testing.T, h *sandbox.Handler, id, org string) {
	err := h.Edit(func(ds *dataset.Dataset) error {
		for i := range ds.Curricula {
			if ds.Curricula[i].ID == id {
				ds.Curricula[i].Organization = org
				return nil
			}
		}
		return errors.New("no such curriculum")
	})
	if err != nil {
		t.Error(err)
	}
}

// readTree returns every file under dir by its path relative to dir.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
