package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	boom := errors.New("disk full")
	tests := []struct {
		name    string
		fill    func(io.Writer) error
		wantErr error
		want    string
	}{
		{"new file", func(w io.Writer) error { _, err := io.WriteString(w, "one"); return err }, nil, "one"},
		{"replaced", func(w io.Writer) error { _, err := io.WriteString(w, "two"); return err }, nil, "two"},
		{"failure keeps the old bytes", func(w io.Writer) error {
			_, _ = io.WriteString(w, "half")
			return boom
		}, boom, "two"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := WriteFunc(path, tt.fill)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("WriteFunc: %v, want %v", err, tt.wantErr)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("file holds %q, want %q", got, tt.want)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("folder holds %d entries, want the file alone (no temporary file left)", len(entries))
			}
		})
	}
}

func TestWriteMissingFolder(t *testing.T) {
	err := Write(filepath.Join(t.TempDir(), "no", "such", "file"), []byte("x"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Write into a missing folder: %v, want ErrNotExist", err)
	}
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{".tmp-123": true, "state.json": false, "a.tmp-1": false} {
		if got := IsTemp(name); got != want {
			t.Errorf("IsTemp(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestWriteUnsynced(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "snapshot.json")
	for _, want := range []string{"one", "two"} {
		if err := WriteUnsynced(path, []byte(want)); err != nil {
			t.Fatalf("WriteUnsynced(%q): %v", want, err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("file holds %q, want %q", got, want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("folder holds %d entries, want the file alone", len(entries))
		}
	}
	if err := WriteUnsynced(filepath.Join(dir, "missing", "x"), []byte("x")); err == nil {
		t.Error("WriteUnsynced into a missing folder: no error")
	}
}
