//go:build !unix

package plainfile

import (
	"io/fs"
	"os"
)

// Open opens the file name for reading: os.Open.
func Open(name string) (*os.File, error) { return os.Open(name) }

// Create creates or truncates the file name for writing, with perm (before
// the umask) when it is new.
func Create(name string, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
}
