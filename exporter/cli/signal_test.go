package cli

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"maps"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/race"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// snapshot is every file of a folder by path, with its SHA-256.
func snapshot(t *testing.T, dir string) map[string][sha256.Size]byte {
	t.Helper()
	files := map[string][sha256.Size]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = sha256.Sum256(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestSignalStopsRendering sends SIGINT, then SIGTERM, to `curex export`
// once its website has begun rendering (the run's own debug line says so,
// no timing). Each run must stop at once: it renders fewer trees than it
// planned (today's early rendering went on through every tree), exits 130
// or 143 with one line, leaves the previous output byte for byte and
// nothing beside it. The upstream content changed, so a run that went on
// to commit would show.
func TestSignalStopsRendering(t *testing.T) {
	if testing.Short() {
		t.Skip("runs curex three times on a site of 4,000 pages")
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
	// One curriculum, a variant, two locales: 4 trees of 1,000 nodes, all
	// rendered by the early renderer once the last one is in.
	const trees = 4
	ds, err := dataset.Open("synthetic:curricula=1,variants=1,locales=2,nodes=1000")
	if err != nil {
		t.Fatal(err)
	}
	h, err := sandbox.New(ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	parent := t.TempDir()
	out, cache := filepath.Join(parent, "out"), t.TempDir()
	// The test's own bound, should a run hang: not an assertion.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	export := func() *exec.Cmd {
		cmd := exec.CommandContext(ctx, exe, "export", "--base-url", srv.URL, "--output", out, "--cache-dir", cache,
			"--formats", "html,json", "--progress", "none", "--rate-limit", "1000/1s", "--log-level", "debug")
		cmd.Env = append(os.Environ(), "CUREX_TEST_AS_MAIN=1", "CURRICULUM_API_TOKEN="+dataset.SyntheticToken)
		return cmd
	}
	if b, err := export().CombinedOutput(); err != nil {
		t.Fatalf("first export: %v\n%s", err, b)
	}
	before := snapshot(t, out)

	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{
		{syscall.SIGINT, 130},
		{syscall.SIGTERM, 143},
	} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			if err := h.Edit(func(d *dataset.Dataset) error {
				d.Curricula[0].Nodes[0].Title = "Changed upstream before the " + tc.sig.String()
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			cmd := export()
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sent, rendered := false, 0
			var last string
			sc := bufio.NewScanner(stderr)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				line := sc.Text()
				last = line
				switch {
				case !sent && strings.Contains(line, `msg="website: rendering"`):
					if err := cmd.Process.Signal(tc.sig); err != nil {
						t.Fatal(err)
					}
					sent = true
				case strings.Contains(line, `msg="website: rendered"`):
					rendered++
				}
			}
			err = cmd.Wait()
			if !sent {
				t.Fatalf("the website never began rendering (%v); last line: %s", err, last)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
				t.Fatalf("exit: %v, want code %d; last line: %s (%d of %d trees rendered after the signal)", err, tc.code, last, rendered, trees)
			}
			if want := "curex: interrupted; previous output untouched"; last != want {
				t.Errorf("last line %q, want %q", last, want)
			}
			if rendered >= trees {
				t.Errorf("%d of %d trees rendered after the signal: rendering went on", rendered, trees)
			}
			after := snapshot(t, out)
			if !maps.Equal(before, after) {
				t.Errorf("the output changed: %d files before, %d after", len(before), len(after))
			}
			entries, err := os.ReadDir(parent)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if !slices.Equal(names, []string{"out"}) {
				t.Errorf("beside the output: %v, want only out (no staging folder)", names)
			}
			t.Logf("%s: %d of %d trees rendered, then exit %d", tc.sig, rendered, trees, ee.ExitCode())
		})
	}
}
