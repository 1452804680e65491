// Package atomicfile replaces files so that a reader, or the next run after
// a crash, sees either the old bytes or the new ones, never a mix: the new
// bytes go to a temporary file in the same folder, are flushed to disk, and
// the temporary file is renamed over the old one.
//
// The caches and the run state under --cache-dir are written this way.
package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// TempPrefix starts the names of the temporary files Write makes. A crash
// can leave one behind; callers that list their folder skip names with this
// prefix, and may remove them.
const TempPrefix = ".tmp-"

// Write replaces the file at path with data.
func Write(path string, data []byte) error {
	return WriteFunc(path, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

// WriteUnsynced replaces the file at path with data as Write does, but
// without flushing the file or its folder to disk. A reader still never sees
// a mix of old and new bytes while the machine runs; after a power cut the
// file may be the old one, missing, or empty. It is for files whose loss
// costs nothing but a little work and whose readers refuse a short or empty
// file: the change snapshots are written once per tree on every run, and a
// flush each made them most of a nightly run's time.
func WriteUnsynced(path string, data []byte) error {
	return writeFunc(path, false, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc replaces the file at path with what fill writes. When fill or
// any step fails, the file at path is left as it was and the temporary file
// is removed. The folder must exist. New files get mode 0600 (the temporary
// file's): caches may hold what the API sent to one token.
func WriteFunc(path string, fill func(io.Writer) error) error {
	return writeFunc(path, true, fill)
}

func writeFunc(path string, sync bool, fill func(io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, TempPrefix+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = fill(f)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return errors.Join(err, removeIfExists(tmp))
	}
	if sync {
		syncDir(dir)
	}
	return nil
}

// IsTemp reports whether name (a base name) is a temporary file of Write.
func IsTemp(name string) bool { return strings.HasPrefix(name, TempPrefix) }

func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// syncDir flushes a folder's entries, so a rename survives a power cut
// where the file system supports it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // not supported everywhere; the rename is done either way
		d.Close()
	}
}
