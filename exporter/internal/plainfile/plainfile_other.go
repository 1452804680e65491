//go:build !linux

package plainfile

import (
	"io"
	"io/fs"
	"os"
	"time"
)

// ReadFile returns the contents of the regular file name and its
// modification time, reading the size its Stat gives: a file that is not
// regular is an error (ErrNotRegular), and so is one that ends sooner
// than its size said (io.ErrUnexpectedEOF).
func ReadFile(name string) ([]byte, time.Time, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	if !info.Mode().IsRegular() {
		return nil, time.Time{}, &fs.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	}
	data := make([]byte, info.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, time.Time{}, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return data, info.ModTime(), nil
}

// WriteFile creates or truncates the file name and writes data to it, with
// perm (before the umask) when it is new: os.WriteFile.
func WriteFile(name string, data []byte, perm fs.FileMode) error {
	return os.WriteFile(name, data, perm)
}
