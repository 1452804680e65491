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
	"time"

	"github.com/spf13/afero"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/internal/progress"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
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
	h, err := sandboxtest.New(t.Name(), ds, opts)
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

func (c *cancelAfter) Planned(int, int, *pacer.Limiter) {}
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
	t.Parallel()
	// The previous output: a copy of the shared export of the sample.
	shared := sampleExport(t)
	out := copyShared(t, shared.Out, "out")
	cfg := shared.config(out, copyShared(t, shared.Cache, "cache"))
	cfg.Concurrency = 2
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
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	out := filepath.Join(t.TempDir(), "out")
	cache := t.TempDir()
	cfg := exporter.Config{BaseURL: url, Token: token, Output: out, CacheDir: cache, Limits: ratelimit.Limits{}, Concurrency: 1,
		Formats: []string{"json"}}
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	// With a new cache every tree is new to the run (a request each): the
	// budget runs out after 10 of them.
	cfg.CacheDir = t.TempDir()
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
	t.Parallel()
	faults, _ := sandbox.ParseFaults("500=0.05,cut=0.05")
	_, url := sampleServer(t, sandbox.Options{Faults: faults, Seed: 5})
	logs := &lockedBuffer{}
	out := filepath.Join(t.TempDir(), "out")
	cache := t.TempDir()
	_, err := exporter.Run(context.Background(), exporter.Config{
		BaseURL: url, Token: token, Output: out, CacheDir: cache, Limits: ratelimit.Limits{},
		Log:      slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Progress: &progress.Lines{W: logs},
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

// ageFiles sets every file's modification time under dir to old.
func ageFiles(t *testing.T, dir string, old time.Time) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// changedFiles lists the files under dir whose modification time is not old.
func changedFiles(t *testing.T, dir string, old time.Time) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		if !info.ModTime().Equal(old) {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestIncrementalExport: a second export with no upstream change sends
// only conditional requests, renders nothing and leaves every file's bytes
// and modification time as they were; after one node changes upstream,
// only the exports of its curriculum are rendered again, only files whose
// bytes changed are rewritten, and the result equals a full export.
func TestIncrementalExport(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: whole exports of the sample in four formats (make test runs it)")
	}
	t.Parallel()
	h, url := sampleServer(t, sandbox.Options{})
	out := filepath.Join(t.TempDir(), "out")
	// Every tree is revalidated: the edit below is to a curriculum of the
	// alternate shape, whose records carry no updated_at, so only a
	// conditional request sees it (TestChangeDetection covers the signals).
	cfg := exporter.Config{BaseURL: url, Token: token, Output: out, CacheDir: t.TempDir(), Limits: ratelimit.Limits{},
		Generator: "curex test", Formats: []string{"html", "markdown", "json", "handbook"}, Revalidate: fresh.Policy{Mode: fresh.Always}}
	first, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkBundles(t, out, first.Planned)
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	ageFiles(t, out, old)
	before := files(t, out)

	second, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkBundles(t, out, second.Planned)
	if second.Reused != first.Written || second.Written != 0 {
		t.Errorf("second run rendered %d and reused %d exports; want 0 and %d", second.Written, second.Reused, first.Written)
	}
	if second.Stats.NotModified != second.Stats.Requests {
		t.Errorf("second run: %d of %d requests answered 304", second.Stats.NotModified, second.Stats.Requests)
	}
	// Files counts what manifest.json lists; the manifest itself is kept too.
	if second.FilesWritten != 0 || second.FilesUnchanged != first.Files+1 {
		t.Errorf("second run wrote %d files and kept %d; want 0 and %d", second.FilesWritten, second.FilesUnchanged, first.Files+1)
	}
	if changed := changedFiles(t, out, old); len(changed) > 0 {
		t.Errorf("a run with no upstream change touched %d files: %v", len(changed), changed[:min(5, len(changed))])
	}
	after := files(t, out)
	for p, b := range before {
		if after[p] != b {
			t.Errorf("%s changed", p)
		}
	}

	// A unit of Introduction to Computer Science is retitled upstream.
	if err := h.Edit(func(ds *dataset.Dataset) error {
		for i := range ds.Curricula {
			if ds.Curricula[i].ID == "curriculum_201" {
				ds.Curricula[i].Nodes[0].Title = "Computational Thinking, revised"
				return nil
			}
		}
		return errors.New("no curriculum_201 in the sample")
	}); err != nil {
		t.Fatal(err)
	}
	third, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkBundles(t, out, third.Planned)
	if third.Written == 0 || third.Reused == 0 || third.Written+third.Reused != first.Written {
		t.Errorf("third run rendered %d and reused %d of %d exports", third.Written, third.Reused, first.Written)
	}
	changed := changedFiles(t, out, old)
	for _, p := range changed {
		if !strings.HasPrefix(p, "introduction-to-computer-science/") && !strings.HasPrefix(p, "bundles/introduction-to-computer-science/") &&
			p != "manifest.json" && p != "index.html" &&
			!strings.HasPrefix(p, "search-dir.") { // the site's search directory: the new title's words
			t.Errorf("%s was rewritten, but nothing of it changed upstream", p)
		}
		if strings.HasPrefix(p, "search-dir.") {
			// Only a shard that gains "revised" (stem "revis") changes.
			if b, err := os.ReadFile(filepath.Join(out, p)); err != nil || !strings.Contains(string(b), `"revis`) {
				t.Errorf("%s was rewritten, but does not hold the new title's word (%v)", p, err)
			}
		}
	}
	if len(changed) == 0 || third.FilesWritten != len(changed) {
		t.Errorf("third run wrote %d files, %d have new times", third.FilesWritten, len(changed))
	}

	// The incremental result is what a full export writes.
	full := cfg
	full.Output, full.CacheDir = filepath.Join(t.TempDir(), "full"), t.TempDir()
	fullSum, err := exporter.Run(context.Background(), full)
	if err != nil {
		t.Fatal(err)
	}
	checkBundles(t, full.Output, fullSum.Planned)
	want, got := files(t, full.Output), files(t, out)
	if len(want) != len(got) {
		t.Errorf("incremental output has %d files, a full export %d", len(got), len(want))
	}
	for p, b := range want {
		// What changed is history: the full export has none. Those files
		// (and the manifest, which lists their sums) are compared in
		// TestWhatChanged.
		switch base := filepath.Base(p); {
		case base == "changes.json", base == "feed.xml", base == "whats-new.html", base == "manifest.json":
			continue
		}
		if got[filepath.Join(out, strings.TrimPrefix(p, full.Output))] != b {
			t.Errorf("%s differs between the incremental and a full export", strings.TrimPrefix(p, full.Output))
		}
	}
}

// TestExportToMemoryFileSystem runs the whole export over afero's memory
// file system: everything lands there, nothing on disk, and a second run
// keeps every file.
func TestExportToMemoryFileSystem(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	mem := afero.NewMemMapFs()
	out := filepath.Join(t.TempDir(), "in-memory")
	cfg := exporter.Config{BaseURL: url, Token: token, Output: out, CacheDir: t.TempDir(), Limits: ratelimit.Limits{},
		Fs: mem, Formats: []string{"html", "markdown", "json", "handbook"}}
	// Half the sample's trees (14 of 28): the same paths to the file
	// system, at half the cost under the race detector (20 CPU-s whole).
	cfg.Filter.Locales = []string{"en", "es"}
	first, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"manifest.json", "index.html", "algebra-1/texas/es/handbook.html", "bundles/algebra-1/texas/es/markdown.zip"} {
		if _, err := mem.Stat(filepath.Join(out, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the export reached the disk: %v", err)
	}
	checkBundlesOn(t, mem, out, first.Planned)
	second, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if second.FilesWritten != 0 || second.Reused != first.Written {
		t.Errorf("second run over memory wrote %d files and reused %d of %d exports", second.FilesWritten, second.Reused, first.Written)
	}
	checkBundlesOn(t, mem, out, second.Planned)
}
