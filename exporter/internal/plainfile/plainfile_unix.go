//go:build unix

package plainfile

import (
	"io/fs"
	"os"
	"syscall"
)

// Open opens the file name for reading, as os.Open does.
func Open(name string) (*os.File, error) {
	return open(name, syscall.O_RDONLY, 0)
}

// Create creates or truncates the file name for writing, with perm (before
// the umask) when it is new, as os.Create does with 0o666.
func Create(name string, perm fs.FileMode) (*os.File, error) {
	return open(name, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC, perm)
}

func open(name string, flag int, perm fs.FileMode) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err == nil {
			return os.NewFile(uintptr(fd), name), nil
		}
		if err != syscall.EINTR {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
}
