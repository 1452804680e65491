package assets

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/curex/curex/exporter/internal/atomicfile"
	"github.com/curex/curex/exporter/internal/imagecheck"
)

// blobs is a folder of checked images named by the SHA-256 of their
// bytes and their extension: the cache's (layout.Cache.Assets()/content)
// or, without a cache, the run's temporary folder. A body is streamed to
// a temporary file there, hashed while written, checked, and renamed
// into place; it is never held in memory whole.
type blobs struct {
	dir string
}

// blobsDir is the folder of blobs under a cache's assets folder. Its name
// is no two-digit entry folder of the ETag cache beside it.
const blobsDir = "content"

// spool is a body being received: a temporary file and the hash of what
// was written to it.
type spool struct {
	f   *os.File
	sum string
	n   int64
}

// receive streams r, at most max bytes, into a temporary file. A body of
// more than max bytes is ErrTooLarge.
func (b blobs) receive(r io.Reader, max int64) (*spool, error) {
	f, err := os.CreateTemp(b.dir, atomicfile.TempPrefix+"image-*")
	if err != nil {
		return nil, fmt.Errorf("image file: %w", err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(r, max+1))
	s := &spool{f: f, sum: hex.EncodeToString(h.Sum(nil)), n: n}
	switch {
	case err != nil:
		s.discard()
		return nil, fmt.Errorf("read: %w", err)
	case n > max:
		s.discard()
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)
	}
	return s, nil
}

// discard removes the temporary file.
func (s *spool) discard() {
	_ = s.f.Close()
	_ = os.Remove(s.f.Name())
}

// keep renames the temporary file into place as the blob of its sum and
// ext, and returns the blob's path.
func (b blobs) keep(s *spool, ext string) (string, error) {
	if err := s.f.Close(); err != nil {
		_ = os.Remove(s.f.Name())
		return "", fmt.Errorf("image file: %w", err)
	}
	path := b.path(s.sum, ext)
	if err := os.Rename(s.f.Name(), path); err != nil {
		_ = os.Remove(s.f.Name())
		return "", fmt.Errorf("image file: %w", err)
	}
	return path, nil
}

// path is the blob of sum and ext.
func (b blobs) path(sum, ext string) string { return filepath.Join(b.dir, sum+"."+ext) }

// refVersion starts a cache entry's reference to a blob; an entry of an
// earlier format (the image's bytes) is a miss.
const refVersion = "blob1:"

// ref is what the ETag cache keeps of an image: which blob holds it.
func ref(sum, ext string) []byte { return []byte(refVersion + sum + "." + ext) }

// parseRef reads a cache entry's reference.
func parseRef(body []byte) (sum, ext string, ok bool) {
	s, ok := strings.CutPrefix(string(body), refVersion)
	if !ok {
		return "", "", false
	}
	sum, ext, ok = strings.Cut(s, ".")
	if !ok || len(sum) != 64 || strings.Trim(sum, "0123456789abcdef") != "" || !knownExt(ext) {
		return "", "", false
	}
	return sum, ext, true
}

// knownExt reports whether ext is the extension of an image kind.
func knownExt(ext string) bool {
	_, ok := imagecheck.ByExt(ext)
	return ok
}

// errBlob: a cached blob is missing or its bytes are not those its name
// promises.
var errBlob = errors.New("cached image file missing or changed")

// open opens the blob of sum and ext and checks that its bytes hash to
// sum; the file is returned at its start.
func (b blobs) open(sum, ext string) (*os.File, int64, error) {
	f, err := os.Open(b.path(sum, ext))
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", errBlob, err)
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err == nil && hex.EncodeToString(h.Sum(nil)) != sum {
		err = errBlob
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		_ = f.Close()
		return nil, 0, err
	}
	return f, n, nil
}
