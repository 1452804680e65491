package output

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// TestUnchangedFilesKeepTheirTimes runs twice over the OS file system and
// over a memory file system: files with the same bytes are not rewritten
// and keep their modification time; changed and new files are written;
// files the second run does not write are gone.
func TestUnchangedFilesKeepTheirTimes(t *testing.T) {
	for _, tc := range []struct {
		name string
		fs   afero.Fs
		root string
	}{
		{"os", afero.NewOsFs(), filepath.Join(t.TempDir(), "out")},
		{"memory", afero.NewMemMapFs(), "/site/out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			write := func(files map[string]string) *Writer {
				t.Helper()
				w, err := Begin(tc.fs, tc.root)
				if err != nil {
					t.Fatal(err)
				}
				for rel, body := range files {
					if err := w.Write(rel, []byte(body)); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Commit(&Manifest{Generator: "curex test"}); err != nil {
					t.Fatal(err)
				}
				return w
			}
			first := map[string]string{"index.html": "catalog", "a/index.html": "a", "a/b/index.html": "b", "gone.txt": "old"}
			write(first)
			// Age every file, so a rewrite would show.
			old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
			for _, rel := range []string{"index.html", "a/index.html", "a/b/index.html", ManifestName} {
				if err := tc.fs.Chtimes(filepath.Join(tc.root, rel), old, old); err != nil {
					t.Fatal(err)
				}
			}
			w := write(map[string]string{"index.html": "catalog", "a/index.html": "a changed", "a/b/index.html": "b", "new.txt": "new"})
			// The manifest counts too: it lists other files now.
			if written, unchanged := w.Counts(); written != 3 || unchanged != 2 {
				t.Errorf("written %d, unchanged %d; want 3 and 2", written, unchanged)
			}
			for rel, keep := range map[string]bool{"index.html": true, "a/b/index.html": true, "a/index.html": false, "new.txt": false, ManifestName: false} {
				info, err := tc.fs.Stat(filepath.Join(tc.root, rel))
				if err != nil {
					t.Fatal(err)
				}
				if kept := info.ModTime().Equal(old); kept != keep {
					t.Errorf("%s: modification time kept = %v, want %v", rel, kept, keep)
				}
			}
			if _, err := tc.fs.Stat(filepath.Join(tc.root, "gone.txt")); !os.IsNotExist(err) {
				t.Errorf("gone.txt survived a run that did not write it: %v", err)
			}
			// A third run with the very same files rewrites nothing, not
			// even the manifest.
			if err := tc.fs.Chtimes(filepath.Join(tc.root, ManifestName), old, old); err != nil {
				t.Fatal(err)
			}
			w = write(map[string]string{"index.html": "catalog", "a/index.html": "a changed", "a/b/index.html": "b", "new.txt": "new"})
			if written, _ := w.Counts(); written != 0 {
				t.Errorf("an identical run wrote %d files", written)
			}
			if info, err := tc.fs.Stat(filepath.Join(tc.root, ManifestName)); err != nil || !info.ModTime().Equal(old) {
				t.Errorf("an identical run rewrote the manifest (%v)", err)
			}
		})
	}
}

// TestBeginRecoversAnInterruptedSwap simulates a run killed between the
// two renames of Commit: the output folder is gone and the previous one
// waits beside it. The next run must put it back, not delete it.
func TestBeginRecoversAnInterruptedSwap(t *testing.T) {
	fsys := afero.NewOsFs()
	root := filepath.Join(t.TempDir(), "out")
	w, err := Begin(fsys, root)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write("index.html", []byte("v1")); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(&Manifest{Generator: "curex test"}); err != nil {
		t.Fatal(err)
	}
	// The kill: the output moved aside, the new staging folder not yet in.
	if err := os.Rename(root, root+oldPrefix+"123"); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(root+stagingPrefix+"456", 0o755); err != nil {
		t.Fatal(err)
	}
	w, err = Begin(fsys, root)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	if got, err := os.ReadFile(filepath.Join(root, "index.html")); err != nil || string(got) != "v1" {
		t.Fatalf("previous output not recovered: %q %v", got, err)
	}
	if w.Previous() == nil {
		t.Error("the recovered output's manifest was not read")
	}
	entries, _ := os.ReadDir(filepath.Dir(root))
	for _, e := range entries {
		if e.Name() != "out" && e.Name() != filepath.Base(w.staging) {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
