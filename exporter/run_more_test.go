package exporter_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/output"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

func sampleServer(t *testing.T, opts sandbox.Options) (*sandbox.Handler, string) {
	t.Helper()
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	if opts.Limits == nil {
		opts.Limits = ratelimit.Limits{}
	}
	h, err := sandbox.New(ds, opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return h, srv.URL
}

// files lists the output's files with their contents.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// cancelAfter cancels the run once n trees are done.
type cancelAfter struct {
	mu     sync.Mutex
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Planned(int, int, *fetch.Limiter) {}
func (c *cancelAfter) TreeDone(fetch.Result, fetch.StatsSnapshot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n--; c.n == 0 {
		c.cancel()
	}
}

// TestInterruptedRunKeepsPreviousOutput: Ctrl-C in the middle of a run
// leaves the previous output byte for byte and no staging folder.
func TestInterruptedRunKeepsPreviousOutput(t *testing.T) {
	_, url := sampleServer(t, sandbox.Options{})
	out := filepath.Join(t.TempDir(), "out")
	cfg := exporter.Config{BaseURL: url, Token: token, Output: out, CacheDir: t.TempDir(), Limits: ratelimit.Limits{}, Concurrency: 2}
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	before := files(t, out)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.Progress = &cancelAfter{n: 5, cancel: cancel}
	cfg.Filter.IncludeUnpublished = true // would change the bundles if it got through
	_, err := exporter.Run(ctx, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	after := files(t, out)
	if len(after) != len(before) {
		t.Fatalf("output changed: %d files before, %d after", len(before), len(after))
	}
	for p, c := range before {
		if after[p] != c {
			t.Fatalf("%s changed", p)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Fatalf("left beside the output: %v", entries)
	}
}

// TestMaxRequestsStopsCleanly: a budget smaller than the plan writes what
// was fetched, keeps the rest at its previous version, and says so.
func TestMaxRequestsStopsCleanly(t *testing.T) {
	_, url := sampleServer(t, sandbox.Options{})
	out := filepath.Join(t.TempDir(), "out")
	cache := t.TempDir()
	cfg := exporter.Config{BaseURL: url, Token: token, Output: out, CacheDir: cache, Limits: ratelimit.Limits{}, Concurrency: 1}
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	cfg.MaxRequests = 16 // 6 for discovery, then 10 trees of 28
	sum, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Written != 10 || sum.NotFetched != 18 || !sum.Partial() || sum.Stats.Requests != 16 {
		t.Fatalf("written %d, not fetched %d, requests %d", sum.Written, sum.NotFetched, sum.Stats.Requests)
	}
	f, err := os.Open(filepath.Join(out, output.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := output.ReadManifest(f)
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]int{}
	for _, e := range m.Exports {
		states[e.State]++
		if e.State == output.StateKept && (e.ETag == "" || e.JSON == "") {
			t.Errorf("kept export lost its previous entry: %+v", e)
		}
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(e.JSON))); err != nil {
			t.Errorf("%s: %v", e.JSON, err)
		}
	}
	if states[output.StateOK] != 10 || states[output.StateKept] != 18 {
		t.Fatalf("manifest states %v", states)
	}
}

// TestTokenNeverLogged runs with debug logs and a failing tree and looks
// for the token everywhere the run writes.
func TestTokenNeverLogged(t *testing.T) {
	faults, _ := sandbox.ParseFaults("500=0.05,cut=0.05")
	_, url := sampleServer(t, sandbox.Options{Faults: faults, Seed: 5})
	logs := &lockedBuffer{}
	out := filepath.Join(t.TempDir(), "out")
	cache := t.TempDir()
	_, err := exporter.Run(context.Background(), exporter.Config{
		BaseURL: url, Token: token, Output: out, CacheDir: cache, Limits: ratelimit.Limits{},
		Log:      slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Progress: &exporter.Lines{W: logs},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "retry") {
		t.Fatalf("no retry was logged; the test proves little:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), token) {
		t.Fatal("token in the logs")
	}
	for _, dir := range []string{out, cache} {
		for p, c := range files(t, dir) {
			if strings.Contains(c, token) {
				t.Fatalf("token in %s", p)
			}
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for the logger and the progress
// lines to share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
