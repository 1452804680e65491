package plainfile

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// TestPipeRefused: a named pipe where a file was is refused at once, not
// waited on (nothing ever writes to it).
func TestPipeRefused(t *testing.T) {
	name := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(name, 0o600); err != nil {
		t.Skip(err)
	}
	if _, _, err := ReadFile(name); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFile of a pipe: %v, want ErrNotRegular", err)
	}
}
