package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/etagcache"
	"github.com/curex/curex/exporter/internal/etagcache/etagcachetest"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/race"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// TestMain lets the kill and signal tests run this test binary as the
// curex command: with CUREX_TEST_AS_MAIN=1 it runs main's code (signal
// handling included) on its arguments.
func TestMain(m *testing.M) {
	if os.Getenv("CUREX_TEST_AS_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// consistent checks that dir holds one complete export: every file the
// manifest lists, with its size and SHA-256, and no other visible file.
// It returns the manifest's generator line for the log.
func consistent(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, output.ManifestName))
	if err != nil {
		t.Fatalf("no manifest: %v", err)
	}
	m, err := output.ReadManifest(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]output.ManifestFile{}
	for _, mf := range m.Files {
		listed[mf.Path] = mf
	}
	seen := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == output.ManifestName || strings.HasPrefix(rel, ".") {
			return nil
		}
		mf, ok := listed[rel]
		if !ok {
			return fmt.Errorf("%s is not in the manifest: a mix of two runs", rel)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		if int64(len(data)) != mf.Size || hex.EncodeToString(sum[:]) != mf.SHA256 {
			return fmt.Errorf("%s does not match the manifest: a mix of two runs", rel)
		}
		seen++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(listed) {
		t.Fatalf("%d files of %d the manifest lists", seen, len(listed))
	}
}

// TestKilledExportsNeverMixOutputs kills `curex export` (SIGKILL, no
// chance to clean up) at pseudo-random points, again and again, while the
// content changes upstream between runs: mid-fetch, mid-render and
// mid-commit. After every kill the output folder is one complete export,
// the previous or the new one, never a mix, and the ETag cache has no
// damaged entry. A last run without a kill finishes and is complete.
func TestKilledExportsNeverMixOutputs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs curex a dozen times")
	}
	if race.Enabled {
		// The runs are child processes, a test binary built with -race
		// each: ten times slower, for races the in-process tests already
		// look for. make test runs this test again without -race.
		t.Skip("a test of processes: make test runs it without -race")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	h, err := sandboxtest.New(t.Name(), ds, sandbox.Options{Limits: ratelimit.Limits{}, Latency: sandbox.Latency{Base: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "out")
	cache := t.TempDir()
	export := func(ctx context.Context) *exec.Cmd {
		cmd := exec.CommandContext(ctx, exe, "export", "--base-url", srv.URL, "--output", out, "--cache-dir", cache,
			"--formats", "html,json,markdown", "--progress", "none", "--rate-limit", "1000/1s", "--log-level", "error")
		cmd.Env = append(os.Environ(), "CUREX_TEST_AS_MAIN=1", "CURRICULUM_API_TOKEN=sandbox-riverbend-token")
		cmd.Cancel = func() error { return cmd.Process.Kill() }
		return cmd
	}
	// A first complete export, timed to spread the kills over a whole run.
	start := time.Now()
	if b, err := export(context.Background()).CombinedOutput(); err != nil {
		t.Fatalf("first export: %v\n%s", err, b)
	}
	span := time.Since(start)
	consistent(t, out)

	// make soak runs more of them, from another seed each time.
	runs, seed := 12, uint64(1)
	if v, err := strconv.Atoi(os.Getenv("CUREX_KILL_RUNS")); err == nil && v > 0 {
		runs = v
	}
	if v, err := strconv.ParseUint(os.Getenv("CUREX_KILL_SEED"), 10, 64); err == nil {
		seed = v
	}
	t.Logf("%d runs, seed %d (CUREX_KILL_RUNS, CUREX_KILL_SEED)", runs, seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	killed := 0
	for i := range runs {
		// Change every tree upstream, so a mix would show.
		if err := h.Edit(func(d *dataset.Dataset) error {
			for j := range d.Curricula {
				if len(d.Curricula[j].Nodes) > 0 {
					d.Curricula[j].Nodes[0].Title = fmt.Sprintf("Unit one, edition %d", i)
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		// Within the first run's length: the runs after it are faster
		// (each changes every tree, but the disk and the sandbox are
		// warm), so most die and some finish. Twice that length let
		// most of them finish: 2 of 8 were killed on an idle machine.
		after := time.Duration(rng.Int64N(int64(span) + 1))
		ctx, cancel := context.WithTimeout(context.Background(), after)
		err := export(ctx).Run()
		cancel()
		var ee *exec.ExitError
		if errors.As(err, &ee) && !ee.Exited() {
			killed++
		}
		consistent(t, out)
		// The cache and state of the sandbox's scope (none yet when the
		// run died before /me answered).
		scope, _, ok, err := etagcache.LatestScope(cache)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			continue
		}
		if _, bad, err := etagcachetest.Verify(filepath.Join(scope, "etag")); err != nil || len(bad) > 0 {
			t.Fatalf("run %d (killed after %s): damaged cache entries %v %v", i, after, bad, err)
		}
		// The record of fetched trees: a kill may cut the journal's last
		// line (skipped when read), never damage the snapshot.
		st, err := fresh.Open(filepath.Join(scope, "state"))
		if err != nil {
			t.Fatalf("run %d (killed after %s): state: %v", i, after, err)
		}
		for _, p := range st.Problems() {
			if !strings.Contains(p, "unreadable line") {
				t.Fatalf("run %d (killed after %s): state: %s", i, after, p)
			}
		}
		st.Close()
	}
	if killed == 0 {
		t.Error("no run was killed: the test proved nothing")
	}
	if b, err := export(context.Background()).CombinedOutput(); err != nil {
		t.Fatalf("last export: %v\n%s", err, b)
	}
	consistent(t, out)
	entries, err := os.ReadDir(filepath.Dir(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("staging folders left beside the output: %v", entries)
	}
	t.Logf("%d of %d runs killed at random points within %s", killed, runs, span.Round(time.Millisecond))
}
