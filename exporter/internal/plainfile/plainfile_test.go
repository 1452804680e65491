package plainfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestCreateOpen: a file created is read back whole, with the mode asked
// for (less the umask), a second Create truncates it, and a missing file
// or folder is an *fs.PathError that errors.Is reports as fs.ErrNotExist.
func TestCreateOpen(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "page.html")
	for _, body := range []string{"<p>a longer first body</p>", "<p>short</p>"} {
		f, err := Create(name, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(body); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := Open(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		info, err := r.Stat()
		if err != nil {
			t.Fatal(err)
		}
		_ = r.Close()
		if string(got) != body {
			t.Errorf("read %q, want %q", got, body)
		}
		if runtime.GOOS != "windows" && info.Mode().Perm()&^0o644 != 0 {
			t.Errorf("mode %v, want at most 0644", info.Mode())
		}
	}
	if _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing file: %v, want fs.ErrNotExist", err)
	}
	var pe *fs.PathError
	if _, err := Create(filepath.Join(dir, "no", "such", "dir"), 0o644); !errors.As(err, &pe) || pe.Op != "open" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Create in a missing folder: %v, want an *fs.PathError of open", err)
	}
	if _, err := os.Stat(name); err != nil {
		t.Fatal(err)
	}
}
