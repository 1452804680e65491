package zipfile

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"time"

	"github.com/curex/curex/exporter/internal/output"
)

// Bounds of the times a zip entry can record: its MS-DOS time starts in
// 1980, its extended timestamp (seconds since 1970 in 32 bits) ends in
// February 2106.
var (
	minTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTime = time.Date(2106, 1, 1, 0, 0, 0, 0, time.UTC)
)

// ErrStoredNotFirst is the error of Writer.Stored called after another
// entry: only the first entry of an archive can be read at a fixed offset.
var ErrStoredNotFirst = errors.New("zipfile: a stored entry must come first")

// Time returns t as every entry of an archive records it: in UTC, to the
// second, and within the years zip can record (1980 to 2106).
func Time(t time.Time) time.Time {
	t = t.UTC().Truncate(time.Second)
	switch {
	case t.Before(minTime):
		return minTime
	case t.After(maxTime):
		return maxTime
	}
	return t
}

// CheckName returns an error unless name is a safe entry name on every
// operating system: relative, with forward slashes, clean, without "."
// or ".." segments, control characters or names Windows reserves (the
// rules of output.CheckPath).
func CheckName(name string) error {
	if err := output.CheckPath(name); err != nil {
		return fmt.Errorf("zip entry: %w", err)
	}
	return nil
}

// Writer builds one archive in memory. Its zero value is not usable: make
// one with New. A Writer is not safe for concurrent use.
type Writer struct {
	buf     bytes.Buffer
	zw      *zip.Writer
	prefix  string
	time    time.Time
	entries int
}

// New starts an archive whose entries carry Time(modified) and whose
// names start with prefix (a folder such as "algebra-1-texas-es/", or ""
// for entries at the root).
func New(modified time.Time, prefix string) *Writer {
	w := &Writer{prefix: prefix, time: Time(modified)}
	w.zw = zip.NewWriter(&w.buf)
	// One compressor for the whole archive, reset for each entry.
	var fw *flate.Writer
	w.zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		if fw == nil {
			var err error
			if fw, err = flate.NewWriter(out, flate.BestSpeed); err != nil {
				return nil, err
			}
		} else {
			fw.Reset(out)
		}
		return fw, nil
	})
	return w
}

// Modified returns the time every entry records.
func (w *Writer) Modified() time.Time { return w.time }

// Add writes one file, deflated, readable by everyone and writable by its
// owner. The name (after the prefix) must pass CheckName.
func (w *Writer) Add(name string, data []byte) error {
	full := w.prefix + name
	if err := CheckName(full); err != nil {
		return err
	}
	h := &zip.FileHeader{Name: full, Method: zip.Deflate, Modified: w.time}
	h.SetMode(0o644)
	f, err := w.zw.CreateHeader(h)
	if err != nil {
		return fmt.Errorf("zip entry %s: %w", full, err)
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("zip entry %s: %w", full, err)
	}
	w.entries++
	return nil
}

// Stored writes the first entry of the archive uncompressed, with its
// sizes and checksum in its local header (no data descriptor) and no
// extra field, so that its name and data stand at fixed offsets (EPUB's
// "mimetype"). Its time is recorded in MS-DOS form only (two-second
// resolution). It fails with ErrStoredNotFirst once another entry was
// written.
func (w *Writer) Stored(name string, data []byte) error {
	if w.entries > 0 {
		return ErrStoredNotFirst
	}
	full := w.prefix + name
	if err := CheckName(full); err != nil {
		return err
	}
	h := &zip.FileHeader{
		Name:               full,
		Method:             zip.Store,
		CRC32:              crc32.ChecksumIEEE(data),
		CompressedSize64:   uint64(len(data)),
		UncompressedSize64: uint64(len(data)),
	}
	// Modified stays zero: set, it would add an extended timestamp field.
	h.ModifiedDate, h.ModifiedTime = msDosTime(w.time) //lint:ignore SA1019 the legacy fields carry the time without an extra field
	h.SetMode(0o644)
	// The versions CreateHeader would record; CreateRaw leaves them to us
	// and, with the sizes known, writes no data descriptor.
	h.CreatorVersion |= 20
	h.ReaderVersion = 20
	f, err := w.zw.CreateRaw(h)
	if err != nil {
		return fmt.Errorf("zip entry %s: %w", full, err)
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("zip entry %s: %w", full, err)
	}
	w.entries++
	return nil
}

// msDosTime returns t in MS-DOS date and time form.
func msDosTime(t time.Time) (date, tm uint16) {
	date = uint16(t.Day() + int(t.Month())<<5 + (t.Year()-1980)<<9)
	tm = uint16(t.Second()/2 + t.Minute()<<5 + t.Hour()<<11)
	return date, tm
}

// Close finishes the archive and returns its bytes. The Writer is done.
func (w *Writer) Close() ([]byte, error) {
	if err := w.zw.Close(); err != nil {
		return nil, fmt.Errorf("zip: %w", err)
	}
	return w.buf.Bytes(), nil
}
