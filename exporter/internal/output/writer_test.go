package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// tree lists the files under dir as "path=content" lines.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == ManifestName {
			b = []byte("…")
		}
		out = append(out, filepath.ToSlash(rel)+"="+string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func run(t *testing.T, root string, files map[string]string, commit bool) *Writer {
	t.Helper()
	w, err := Begin(afero.NewOsFs(), root)
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range files {
		if err := w.Write(p, []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	if commit {
		if err := w.Commit(&Manifest{Generator: "curex test"}); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func TestCommitReplacesAndAbortKeeps(t *testing.T) {
	root := filepath.Join(t.TempDir(), "out")
	run(t, root, map[string]string{"a/x.json": "1", "b/y.json": "2"}, true)
	if got := tree(t, root); got != "a/x.json=1 b/y.json=2 manifest.json=…" {
		t.Fatalf("first run: %s", got)
	}
	// A failed run: the previous output stays byte for byte.
	w := run(t, root, map[string]string{"a/x.json": "changed"}, false)
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, root); got != "a/x.json=1 b/y.json=2 manifest.json=…" {
		t.Fatalf("after abort: %s", got)
	}
	// A good run replaces everything; files it did not write are gone.
	run(t, root, map[string]string{"a/x.json": "3"}, true)
	if got := tree(t, root); got != "a/x.json=3 manifest.json=…" {
		t.Fatalf("second run: %s", got)
	}
	entries, _ := os.ReadDir(filepath.Dir(root))
	if len(entries) != 1 {
		t.Fatalf("left beside the output: %v", entries)
	}
}

func TestManifestListsFiles(t *testing.T) {
	root := filepath.Join(t.TempDir(), "out")
	run(t, root, map[string]string{"b.json": "bb", "a.json": "a"}, true)
	f, err := os.Open(filepath.Join(root, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := ReadManifest(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Files) != 2 || m.Files[0].Path != "a.json" || m.Files[1].Size != 2 ||
		m.Files[0].SHA256 != "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb" {
		t.Fatalf("files = %+v", m.Files)
	}
}

func TestCarryOver(t *testing.T) {
	root := filepath.Join(t.TempDir(), "out")
	run(t, root, map[string]string{"c/v/es/tree.json": "old-es", "c/v/en/tree.json": "old-en"}, true)
	w := run(t, root, map[string]string{"c/v/en/tree.json": "new-en"}, false)
	if found, err := w.CarryOver("c/v/es"); err != nil || !found {
		t.Fatalf("CarryOver = %v, %v", found, err)
	}
	if found, err := w.CarryOver("c/v/fr"); err != nil || found {
		t.Fatalf("CarryOver of a missing export = %v, %v", found, err)
	}
	if err := w.Commit(&Manifest{Generator: "curex test"}); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, root); got != "c/v/en/tree.json=new-en c/v/es/tree.json=old-es manifest.json=…" {
		t.Fatalf("after carry over: %s", got)
	}
}

func TestBeginCleansStaleAndRefusesForeignFolders(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "out")
	stale := filepath.Join(parent, "out"+stagingPrefix+"123")
	if err := os.MkdirAll(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	w := run(t, root, nil, true)
	_ = w
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatal("stale staging folder left in place")
	}

	home := filepath.Join(parent, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "thesis.docx"), []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Begin(afero.NewOsFs(), home); !errors.Is(err, ErrNotOutput) || !strings.Contains(err.Error(), "thesis.docx") {
		t.Fatalf("Begin on a foreign folder: %v", err)
	}

	// A folder with only hidden files is fine, and they are kept.
	repo := filepath.Join(parent, "repo-output")
	_ = os.MkdirAll(repo, 0o755)
	_ = os.WriteFile(filepath.Join(repo, ".gitkeep"), nil, 0o644)
	run(t, repo, map[string]string{"x.json": "1"}, true)
	run(t, repo, map[string]string{"y.json": "2"}, true)
	if got := tree(t, repo); got != ".gitkeep= manifest.json=… y.json=2" {
		t.Fatalf("hidden file not kept: %s", got)
	}
}

func TestCheckPath(t *testing.T) {
	for _, p := range []string{"", "/etc/passwd", "../x", "a/../../x", "a/./b", "a//b", "a\\b", "a/b/", ".", "a/\x00/b", "a\nb"} {
		if CheckPath(p) == nil {
			t.Errorf("CheckPath(%q) accepted it", p)
		}
	}
	for _, p := range []string{"index.html", "algebra-1/base/es/tree.json", "bundles/a/b/c/markdown/01-x.md", ".well-known/x"} {
		if err := CheckPath(p); err != nil {
			t.Errorf("CheckPath(%q): %v", p, err)
		}
	}
}

func FuzzCheckPath(f *testing.F) {
	for _, s := range []string{"a/b", "../x", "/abs", "a/./b", "ok.html"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if CheckPath(p) != nil {
			return
		}
		root := "/out"
		full := filepath.Join(root, filepath.FromSlash(p))
		if !strings.HasPrefix(full, root+"/") {
			t.Fatalf("CheckPath accepted %q, which leaves the root: %s", p, full)
		}
	})
}

// TestManyFolders writes more folders than the writer remembers, then
// into the first ones again: forgotten folders are found again.
func TestManyFolders(t *testing.T) {
	fsys := afero.NewMemMapFs()
	w, err := Begin(fsys, "/out")
	if err != nil {
		t.Fatal(err)
	}
	n := maxDirs + 100
	for i := range n {
		if err := w.Write(fmt.Sprintf("c/n%d/index.html", i), []byte("page")); err != nil {
			t.Fatal(err)
		}
	}
	if got := w.ndir.Load(); got > maxDirs {
		t.Errorf("the writer remembers %d folders, more than %d", got, maxDirs)
	}
	for i := range 3 {
		if err := w.Write(fmt.Sprintf("c/n%d/search.json", i), []byte("{}")); err != nil {
			t.Fatalf("writing again into a forgotten folder: %v", err)
		}
	}
	if err := w.Commit(&Manifest{Generator: "curex test"}); err != nil {
		t.Fatal(err)
	}
	m, err := afero.ReadFile(fsys, "/out/c/n1/search.json")
	if err != nil || string(m) != "{}" {
		t.Errorf("c/n1/search.json = %q, %v", m, err)
	}
}

// TestCheckPathWindowsReserved checks that a path with a segment Windows
// cannot create (a device name, with or without an extension, or a name
// ending in a dot or space) is refused, so none reaches the output.
func TestCheckPathWindowsReserved(t *testing.T) {
	for _, p := range []string{"con/index.html", "a/NUL.md", "a/com1/index.html", "lpt9.json", "a/aux.tar.gz", "a/name./b", "a/name /b", "conin$"} {
		if CheckPath(p) == nil {
			t.Errorf("CheckPath(%q) accepted it", p)
		}
	}
	for _, p := range []string{"con-1/index.html", "a/console.md", "a/com10/x", "01-con.md"} {
		if err := CheckPath(p); err != nil {
			t.Errorf("CheckPath(%q): %v", p, err)
		}
	}
}
