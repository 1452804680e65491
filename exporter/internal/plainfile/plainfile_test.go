package plainfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestWriteFileReadFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "page.html")
	big := make([]byte, 3<<20)
	for i := range big {
		big[i] = byte(i % 251)
	}
	for _, body := range [][]byte{[]byte("<p>a longer first body</p>"), []byte("<p>short</p>"), {}, big} {
		if err := WriteFile(name, body, 0o644); err != nil {
			t.Fatal(err)
		}
		got, mod, err := ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(body) {
			t.Errorf("read %d bytes, want the %d written", len(got), len(body))
		}
		info, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if !mod.Equal(info.ModTime()) {
			t.Errorf("modification time %v, want %v", mod, info.ModTime())
		}
		if runtime.GOOS != "windows" && info.Mode().Perm()&^0o644 != 0 {
			t.Errorf("mode %v, want at most 0644", info.Mode())
		}
	}
	when := time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC)
	if err := os.Chtimes(name, when, when); err != nil {
		t.Fatal(err)
	}
	if _, mod, err := ReadFile(name); err != nil || !mod.Equal(when) {
		t.Errorf("after Chtimes: %v, %v; want %v", mod, err, when)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v, want fs.ErrNotExist", err)
	}
	if _, _, err := ReadFile(dir); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFile of a folder: %v, want ErrNotRegular", err)
	}
	var pe *fs.PathError
	if err := WriteFile(filepath.Join(dir, "no", "such", "dir"), []byte("x"), 0o644); !errors.As(err, &pe) || pe.Op != "open" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("WriteFile in a missing folder: %v, want an *fs.PathError of open", err)
	}
	if err := WriteFile(dir, []byte("x"), 0o644); err == nil {
		t.Error("WriteFile over a folder: no error")
	}
}

// ExampleReadFile writes a file whole and reads it back.
func ExampleReadFile() {
	dir, err := os.MkdirTemp("", "plainfile")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "entry")
	if err := WriteFile(name, []byte("cached body"), 0o644); err != nil {
		panic(err)
	}
	data, _, err := ReadFile(name)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(data))
	_, _, err = ReadFile(filepath.Join(dir, "missing"))
	fmt.Println(errors.Is(err, fs.ErrNotExist))
	// Output:
	// cached body
	// true
}
