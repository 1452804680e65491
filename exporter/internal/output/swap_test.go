package output

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/spf13/afero"
)

// canExchange reports whether exchange works in a folder like dir (Linux,
// and a file system that supports RENAME_EXCHANGE).
func canExchange(t *testing.T) bool {
	t.Helper()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	err := exchange(a, b)
	if err != nil && !errors.Is(err, errNoExchange) {
		t.Fatalf("exchange: %v", err)
	}
	return err == nil
}

// TestExchange swaps two folders and finds each one's files under the
// other's name; a missing folder is an ordinary error, not a reason to
// fall back.
func TestExchange(t *testing.T) {
	if !canExchange(t) {
		if runtime.GOOS == "linux" {
			t.Log("this file system cannot exchange folders; Commit falls back to two renames")
		}
		t.Skip("no atomic exchange here")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for d, files := range map[string]string{a: "x/1.txt=one", b: "y/2.txt=two manifest.json=m"} {
		for _, f := range strings.Fields(files) {
			rel, body, _ := strings.Cut(f, "=")
			p := filepath.Join(d, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := exchange(a, b); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, a); got != "manifest.json=… y/2.txt=two" {
		t.Errorf("a after exchange: %s", got)
	}
	if got := tree(t, b); got != "x/1.txt=one" {
		t.Errorf("b after exchange: %s", got)
	}
	err := exchange(a, filepath.Join(dir, "missing"))
	if err == nil || errors.Is(err, errNoExchange) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("exchange with a missing folder: %v; want a not-exist error, not errNoExchange", err)
	}
}

// TestCommitNeverLeavesAGap stops Commit at each point of its swap and
// looks at the output folder there. Over the OS file system with the
// exchange, there is one point, the output folder holds the new output
// with a complete manifest, the previous output sits whole at the staging
// path, and no aside folder is ever made. Over a memory file system (two
// renames) the test sees the gap the exchange closes: no output folder
// while the previous one is aside.
func TestCommitNeverLeavesAGap(t *testing.T) {
	for _, tc := range []struct {
		name     string
		fs       afero.Fs
		root     string
		exchange bool
	}{
		{"os", afero.NewOsFs(), filepath.Join(t.TempDir(), "out"), canExchange(t)},
		{"memory", afero.NewMemMapFs(), "/site/out", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			commit := func(body string, hook func(w *Writer, step string)) {
				t.Helper()
				w, err := Begin(tc.fs, tc.root)
				if err != nil {
					t.Fatal(err)
				}
				for _, rel := range []string{"index.html", "a/tree.json", "b/c/page.html"} {
					if err := w.Write(rel, []byte(body+" "+rel)); err != nil {
						t.Fatal(err)
					}
				}
				if hook != nil {
					w.hook = func(step string) { hook(w, step) }
				}
				if err := w.Commit(&Manifest{Generator: "curex " + body}); err != nil {
					t.Fatal(err)
				}
			}
			commit("v1", nil)
			var steps []string
			commit("v2", func(w *Writer, step string) {
				if step == "hidden" { // hidden entries moved, before the swap
					return
				}
				steps = append(steps, step)
				entries, err := afero.ReadDir(tc.fs, filepath.Dir(tc.root))
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range entries {
					if strings.Contains(e.Name(), oldPrefix) && tc.exchange {
						t.Errorf("%s: aside folder %s made although the folders could be exchanged", step, e.Name())
					}
				}
				if !tc.exchange {
					if _, err := tc.fs.Stat(tc.root); !errors.Is(err, os.ErrNotExist) {
						t.Errorf("%s: two renames, yet the output folder exists in between (%v)", step, err)
					}
					return
				}
				if got := checkComplete(t, tc.fs, tc.root); got != "curex v2" {
					t.Errorf("%s: output folder holds %q, want curex v2", step, got)
				}
				if got := checkComplete(t, tc.fs, w.staging); got != "curex v1" {
					t.Errorf("%s: staging path holds %q, want the previous output curex v1", step, got)
				}
			})
			want := []string{"aside"}
			if tc.exchange {
				want = []string{"exchanged"}
			}
			if !slices.Equal(steps, want) {
				t.Errorf("swap steps %q, want %q", steps, want)
			}
			if got := checkComplete(t, tc.fs, tc.root); got != "curex v2" {
				t.Errorf("after Commit: %q, want curex v2", got)
			}
			entries, _ := afero.ReadDir(tc.fs, filepath.Dir(tc.root))
			if len(entries) != 1 {
				t.Errorf("left beside the output: %d entries", len(entries))
			}
		})
	}
}

// checkComplete reads root's manifest and checks that every file it lists
// is there with its size; it returns the manifest's generator.
func checkComplete(t *testing.T, fsys afero.Fs, root string) string {
	t.Helper()
	f, err := fsys.Open(filepath.Join(root, ManifestName))
	if err != nil {
		t.Errorf("no manifest: %v", err)
		return ""
	}
	defer f.Close()
	m, err := ReadManifest(f)
	if err != nil {
		t.Errorf("manifest: %v", err)
		return ""
	}
	for _, mf := range m.Files {
		info, err := fsys.Stat(filepath.Join(root, filepath.FromSlash(mf.Path)))
		if err != nil || info.Size() != mf.Size {
			t.Errorf("%s lists %s (%d bytes): %v", root, mf.Path, mf.Size, err)
		}
	}
	return m.Generator
}

// TestOutputFolderExistsThroughoutCommits watches the output folder from
// another goroutine while commits replace it: with the exchange, it is
// never missing. (Its path is one entry of a folder that does not change,
// so one stat sees either the old or the new output.)
func TestOutputFolderExistsThroughoutCommits(t *testing.T) {
	if !canExchange(t) {
		t.Skip("no atomic exchange here: the two-rename swap has a gap")
	}
	root := filepath.Join(t.TempDir(), "out")
	run(t, root, map[string]string{"index.html": "0"}, true)
	var missing, looks atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := os.Stat(root); err != nil {
				missing.Add(1)
			}
			looks.Add(1)
		}
	})
	for i := range 30 {
		run(t, root, map[string]string{"index.html": strings.Repeat("x", i), "a/b.json": "{}"}, true)
	}
	close(stop)
	wg.Wait()
	if n := missing.Load(); n > 0 {
		t.Fatalf("the output folder was missing %d times in %d looks", n, looks.Load())
	}
	t.Logf("%d looks, none missing", looks.Load())
}
