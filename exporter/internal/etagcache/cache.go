package etagcache

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/curex/curex/exporter/internal/atomicfile"
	"github.com/curex/curex/exporter/internal/etagcache/internal/entry"
)

// DiskCache is an on-disk ETag cache: it keeps the last body and ETag of
// each request key, so that the next run can send If-None-Match and reuse
// the body on a 304. It implements the api package's Cache interface.
//
// Each key has one file under the cache folder, named by the hex SHA-256 of
// the key, in one of 256 subfolders (the name's first two digits). A file
// holds a small header (magic, version, lengths, and a SHA-256 over the
// header, key, ETag and body), then the key, the ETag and the body.
//
// Writes are atomic (a temporary file in the same folder, fsync, rename),
// so concurrent runs and processes may share a cache: a reader sees the old
// entry or the new one, never a mix. An entry that does not check out (bad
// magic or version, wrong length, checksum or key mismatch) is a miss, and
// is removed. Leftover temporary files of an interrupted Put are never
// read.
type DiskCache struct {
	dir string
}

// OpenDiskCache returns the cache kept in dir, creating dir (mode 0700)
// when it does not exist.
func OpenDiskCache(dir string) (*DiskCache, error) {
	if dir == "" {
		return nil, errors.New("cache folder: empty path")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cache folder: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("cache folder: %w", err)
	}
	return &DiskCache{dir: abs}, nil
}

// path returns the entry file of key.
func (c *DiskCache) path(key string) string { return entry.Path(c.dir, key) }

// Get returns the ETag and body stored under key, and whether there is a
// good entry. The body is the caller's to keep.
func (c *DiskCache) Get(key string) (etag string, body []byte, ok bool) {
	path := c.path(key)
	data, fi, err := entry.ReadFile(path)
	if err != nil {
		if fi != nil { // read, but not what an entry looks like
			c.discard(path, fi)
		}
		return "", nil, false
	}
	e, err := entry.Decode(data)
	if err != nil || e.Key != key {
		c.discard(path, fi)
		return "", nil, false
	}
	return e.ETag, e.Body, true
}

// discard removes the entry file at path if it is still the one described
// by fi: a concurrent Put may have replaced it with a good entry since.
func (c *DiskCache) discard(path string, fi os.FileInfo) {
	if cur, err := os.Lstat(path); err == nil && os.SameFile(cur, fi) && cur.Mode().IsRegular() {
		_ = os.Remove(path)
	}
}

// Put stores body and its ETag under key, replacing any entry. It does not
// keep body.
func (c *DiskCache) Put(key, etag string, body []byte) error {
	switch {
	case len(key) > entry.MaxKey:
		return fmt.Errorf("cache: key of %d bytes, more than %d", len(key), entry.MaxKey)
	case len(etag) > entry.MaxETag:
		return fmt.Errorf("cache: ETag of %d bytes, more than %d", len(etag), entry.MaxETag)
	case len(body) > entry.MaxBody:
		return fmt.Errorf("cache: body of %d bytes, more than %d", len(body), entry.MaxBody)
	}
	path := c.path(key)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	err := atomicfile.WriteFunc(path, func(f io.Writer) error {
		return entry.Write(f, entry.Entry{Key: key, ETag: etag, Body: body})
	})
	if err != nil {
		return fmt.Errorf("cache: write entry: %w", err)
	}
	return nil
}

// Delete removes the entry under key, if any.
func (c *DiskCache) Delete(key string) error {
	if err := os.Remove(c.path(key)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}
