// Package entry is the file format of one entry of the ETag cache: a
// small header (magic, version, lengths, and a SHA-256 over the header,
// key, ETag and body), then the key, the ETag and the body. The cache and
// the tests that check a cache folder both read it.
package entry

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/curex/curex/exporter/internal/layout"
)

// Path returns the file of key's entry in the cache folder dir: the hex
// SHA-256 of the key, in the folder of its first two digits.
func Path(dir, key string) string {
	sum := sha256.Sum256([]byte(key))
	name := hex.EncodeToString(sum[:])
	return layout.ETagEntry(dir, name)
}

// Format constants.
const (
	magic   = "CXETAG\r\n" // the line ending catches text-mode damage
	version = 1
	// HeaderLen is the length of the header, before the key.
	HeaderLen = 56
	// MaxKey and MaxETag bound the key and the ETag (their lengths are
	// 16-bit in the header).
	MaxKey  = 1<<16 - 1
	MaxETag = 1<<16 - 1
	// MaxBody bounds a body, and so what ReadFile reads.
	MaxBody = 1 << 30
)

// ErrCorrupt is matched by the error of a file that is no good entry.
var ErrCorrupt = errors.New("corrupt cache entry")

// ReadFile reads path whole. It returns the file's info along with an
// error when the file was there but is no entry (too large, short read).
func ReadFile(path string) ([]byte, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > HeaderLen+MaxKey+MaxETag+MaxBody {
		return nil, fi, ErrCorrupt
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fi, err
	}
	return data, fi, nil
}

// Entry is the content of one entry file.
type Entry struct {
	Key, ETag string
	Body      []byte
}

// header returns the first 24 bytes of e's header (before the sum).
func header(e Entry) []byte {
	h := make([]byte, 24, HeaderLen)
	copy(h, magic)
	binary.BigEndian.PutUint16(h[8:], version)
	binary.BigEndian.PutUint16(h[10:], uint16(len(e.Key)))
	binary.BigEndian.PutUint16(h[12:], uint16(len(e.ETag)))
	binary.BigEndian.PutUint16(h[14:], 0) // flags, none defined
	binary.BigEndian.PutUint64(h[16:], uint64(len(e.Body)))
	return h
}

// checksum is the checksum of an entry: SHA-256 over the first 24 header
// bytes, the key, the ETag and the body.
func checksum(head []byte, key, etag string, body []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write(head[:24])
	io.WriteString(h, key)
	io.WriteString(h, etag)
	h.Write(body)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// Write writes e in the entry format. The key and ETag must fit their
// 16-bit lengths.
func Write(w io.Writer, e Entry) error {
	head := header(e)
	sum := checksum(head, e.Key, e.ETag, e.Body)
	head = append(head, sum[:]...)
	head = append(head, e.Key...)
	head = append(head, e.ETag...)
	if _, err := w.Write(head); err != nil {
		return err
	}
	_, err := w.Write(e.Body)
	return err
}

// Encode returns e in the entry format.
func Encode(e Entry) []byte {
	var b bytes.Buffer
	b.Grow(HeaderLen + len(e.Key) + len(e.ETag) + len(e.Body))
	_ = Write(&b, e) // a bytes.Buffer does not fail
	return b.Bytes()
}

// Decode parses an entry file. Anything but an exact, checked entry is
// ErrCorrupt. The body shares data's memory.
func Decode(data []byte) (Entry, error) {
	if len(data) < HeaderLen || string(data[:8]) != magic {
		return Entry{}, fmt.Errorf("%w: bad magic", ErrCorrupt)
	}
	if v := binary.BigEndian.Uint16(data[8:]); v != version {
		return Entry{}, fmt.Errorf("%w: version %d", ErrCorrupt, v)
	}
	if binary.BigEndian.Uint16(data[14:]) != 0 {
		return Entry{}, fmt.Errorf("%w: unknown flags", ErrCorrupt)
	}
	keyLen := int(binary.BigEndian.Uint16(data[10:]))
	etagLen := int(binary.BigEndian.Uint16(data[12:]))
	bodyLen := binary.BigEndian.Uint64(data[16:])
	rest := data[HeaderLen:]
	if uint64(len(rest)) < uint64(keyLen+etagLen) || uint64(len(rest)-keyLen-etagLen) != bodyLen {
		return Entry{}, fmt.Errorf("%w: length mismatch", ErrCorrupt)
	}
	e := Entry{
		Key:  string(rest[:keyLen]),
		ETag: string(rest[keyLen : keyLen+etagLen]),
		Body: rest[keyLen+etagLen:],
	}
	if sum := checksum(data, e.Key, e.ETag, e.Body); !bytes.Equal(sum[:], data[24:HeaderLen]) {
		return Entry{}, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	return e, nil
}
