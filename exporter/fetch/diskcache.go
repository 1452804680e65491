package fetch

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/curex/curex/exporter/internal/atomicfile"
	"github.com/curex/curex/exporter/layout"
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

// Entry format constants.
const (
	entryMagic     = "CXETAG\r\n" // the line ending catches text-mode damage
	entryVersion   = 1
	entryHeaderLen = 56
	// maxCacheKey and maxCacheETag bound the key and the ETag (their lengths
	// are 16-bit in the header).
	maxCacheKey  = 1<<16 - 1
	maxCacheETag = 1<<16 - 1
	// maxCacheBody bounds a body, and so what Get reads.
	maxCacheBody = 1 << 30
)

// errCorruptEntry is why an entry file is ignored.
var errCorruptEntry = errors.New("corrupt cache entry")

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

// Dir returns the cache folder (an absolute path).
func (c *DiskCache) Dir() string { return c.dir }

// path returns the entry file of key.
func (c *DiskCache) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	name := hex.EncodeToString(sum[:])
	return layout.ETagEntry(c.dir, name)
}

// Get returns the ETag and body stored under key, and whether there is a
// good entry. The body is the caller's to keep.
func (c *DiskCache) Get(key string) (etag string, body []byte, ok bool) {
	path := c.path(key)
	data, fi, err := readEntryFile(path)
	if err != nil {
		if fi != nil { // read, but not what an entry looks like
			c.discard(path, fi)
		}
		return "", nil, false
	}
	e, err := decodeEntry(data)
	if err != nil || e.Key != key {
		c.discard(path, fi)
		return "", nil, false
	}
	return e.ETag, e.Body, true
}

// readEntryFile reads path whole. It returns the file's info along with an
// error when the file was there but is no entry (too large, short read).
func readEntryFile(path string) ([]byte, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > entryHeaderLen+maxCacheKey+maxCacheETag+maxCacheBody {
		return nil, fi, errCorruptEntry
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fi, err
	}
	return data, fi, nil
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
	case len(key) > maxCacheKey:
		return fmt.Errorf("cache: key of %d bytes, more than %d", len(key), maxCacheKey)
	case len(etag) > maxCacheETag:
		return fmt.Errorf("cache: ETag of %d bytes, more than %d", len(etag), maxCacheETag)
	case len(body) > maxCacheBody:
		return fmt.Errorf("cache: body of %d bytes, more than %d", len(body), maxCacheBody)
	}
	path := c.path(key)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	err := atomicfile.WriteFunc(path, func(f io.Writer) error {
		return writeEntry(f, cacheEntry{Key: key, ETag: etag, Body: body})
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

// cacheEntry is the content of one entry file.
type cacheEntry struct {
	Key, ETag string
	Body      []byte
}

// entryHeader returns the first 24 bytes of e's header (before the sum).
func entryHeader(e cacheEntry) []byte {
	h := make([]byte, 24, entryHeaderLen)
	copy(h, entryMagic)
	binary.BigEndian.PutUint16(h[8:], entryVersion)
	binary.BigEndian.PutUint16(h[10:], uint16(len(e.Key)))
	binary.BigEndian.PutUint16(h[12:], uint16(len(e.ETag)))
	binary.BigEndian.PutUint16(h[14:], 0) // flags, none defined
	binary.BigEndian.PutUint64(h[16:], uint64(len(e.Body)))
	return h
}

// entrySum is the checksum of an entry: SHA-256 over the first 24 header
// bytes, the key, the ETag and the body.
func entrySum(head []byte, key, etag string, body []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write(head[:24])
	io.WriteString(h, key)
	io.WriteString(h, etag)
	h.Write(body)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// writeEntry writes e in the entry format. The key and ETag must fit their
// 16-bit lengths.
func writeEntry(w io.Writer, e cacheEntry) error {
	head := entryHeader(e)
	sum := entrySum(head, e.Key, e.ETag, e.Body)
	head = append(head, sum[:]...)
	head = append(head, e.Key...)
	head = append(head, e.ETag...)
	if _, err := w.Write(head); err != nil {
		return err
	}
	_, err := w.Write(e.Body)
	return err
}

// encodeEntry returns e in the entry format.
func encodeEntry(e cacheEntry) []byte {
	var b bytes.Buffer
	b.Grow(entryHeaderLen + len(e.Key) + len(e.ETag) + len(e.Body))
	_ = writeEntry(&b, e) // a bytes.Buffer does not fail
	return b.Bytes()
}

// decodeEntry parses an entry file. Anything but an exact, checked entry is
// errCorruptEntry. The body shares data's memory.
func decodeEntry(data []byte) (cacheEntry, error) {
	if len(data) < entryHeaderLen || string(data[:8]) != entryMagic {
		return cacheEntry{}, fmt.Errorf("%w: bad magic", errCorruptEntry)
	}
	if v := binary.BigEndian.Uint16(data[8:]); v != entryVersion {
		return cacheEntry{}, fmt.Errorf("%w: version %d", errCorruptEntry, v)
	}
	if binary.BigEndian.Uint16(data[14:]) != 0 {
		return cacheEntry{}, fmt.Errorf("%w: unknown flags", errCorruptEntry)
	}
	keyLen := int(binary.BigEndian.Uint16(data[10:]))
	etagLen := int(binary.BigEndian.Uint16(data[12:]))
	bodyLen := binary.BigEndian.Uint64(data[16:])
	rest := data[entryHeaderLen:]
	if uint64(len(rest)) < uint64(keyLen+etagLen) || uint64(len(rest)-keyLen-etagLen) != bodyLen {
		return cacheEntry{}, fmt.Errorf("%w: length mismatch", errCorruptEntry)
	}
	e := cacheEntry{
		Key:  string(rest[:keyLen]),
		ETag: string(rest[keyLen : keyLen+etagLen]),
		Body: rest[keyLen+etagLen:],
	}
	if sum := entrySum(data, e.Key, e.ETag, e.Body); !bytes.Equal(sum[:], data[24:entryHeaderLen]) {
		return cacheEntry{}, fmt.Errorf("%w: checksum mismatch", errCorruptEntry)
	}
	return e, nil
}

// Verify reads every entry of the cache and checks it as Get would:
// header, lengths, checksum, and that the file is where its key belongs.
// It returns the number of good entries and the files that are not
// (leftover temporary files of an interrupted Put are neither). Verify
// changes nothing.
func (c *DiskCache) Verify() (good int, bad []string, err error) {
	err = filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// Entries live in the 256 folders 00 to ff; other folders
			// (state/, a publishing copy) hold no entry.
			if p != c.dir && (filepath.Dir(p) != c.dir || !isHexByte(d.Name())) {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Dir(p) == c.dir || atomicfile.IsTemp(d.Name()) || strings.Contains(d.Name(), ".tmp-") /* before atomicfile */ {
			return nil
		}
		data, _, err := readEntryFile(p)
		if err == nil {
			var e cacheEntry
			if e, err = decodeEntry(data); err == nil && c.path(e.Key) != p {
				err = errCorruptEntry
			}
		}
		if err != nil {
			bad = append(bad, p)
			return nil
		}
		good++
		return nil
	})
	if err != nil {
		return good, bad, fmt.Errorf("cache: verify: %w", err)
	}
	return good, bad, nil
}

// isHexByte reports whether name is two lower-case hex digits, the name of
// an entry folder.
func isHexByte(name string) bool {
	if len(name) != 2 {
		return false
	}
	for _, r := range name {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}
