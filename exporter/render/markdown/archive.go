package markdown

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"io"
	"time"

	"github.com/curex/curex/exporter/model"
)

// Bounds of the times a zip entry can record: its MS-DOS time starts in
// 1980, its extended timestamp (seconds since 1970 in 32 bits) ends in
// February 2106.
var (
	zipMinTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
	zipMaxTime = time.Date(2106, 1, 1, 0, 0, 0, 0, time.UTC)
)

// archive builds the zip of a bundle in memory.
type archive struct {
	buf  bytes.Buffer
	zw   *zip.Writer
	top  string
	time time.Time
}

// newArchive starts the zip of t's bundle: entries go under one folder
// named after the export and carry t's resolution time, in UTC, clamped to
// what zip can record, and to whole seconds.
func newArchive(t *model.Tree) *archive {
	a := &archive{top: t.CurriculumSlug + "-" + t.VariantSlug + "-" + t.LocaleSlug + "/"}
	a.zw = zip.NewWriter(&a.buf)
	// One compressor for the whole archive, reset for each entry.
	var fw *flate.Writer
	a.zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		if fw == nil {
			var err error
			if fw, err = flate.NewWriter(w, flate.BestSpeed); err != nil {
				return nil, err
			}
		} else {
			fw.Reset(w)
		}
		return fw, nil
	})
	mt := t.ResolvedAt.UTC().Truncate(time.Second)
	switch {
	case mt.Before(zipMinTime):
		mt = zipMinTime
	case mt.After(zipMaxTime):
		mt = zipMaxTime
	}
	a.time = mt
	return a
}

// add writes one file, deflated, readable by everyone and writable by its
// owner.
func (a *archive) add(name string, data []byte) error {
	h := &zip.FileHeader{Name: a.top + name, Method: zip.Deflate, Modified: a.time}
	h.SetMode(0o644)
	f, err := a.zw.CreateHeader(h)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return err
}

// close finishes the archive and returns its bytes.
func (a *archive) close() ([]byte, error) {
	if err := a.zw.Close(); err != nil {
		return nil, err
	}
	return a.buf.Bytes(), nil
}
