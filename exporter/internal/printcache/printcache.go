// Package printcache keeps the PDFs Chromium printed, under a key made of
// everything the print depended on: the handbook's bytes, the print
// options and the browser's version. The same handbook is then printed
// once: a rebuild from the cache (curex build), a new theme that leaves the
// handbook alone, or a rerun gives the PDF already printed, byte for byte,
// and costs no Chromium time.
//
// It also makes PDFs reproducible where Chromium alone is not: under load,
// Chromium sometimes splits a link's annotation differently in the same
// document (the pages look the same, the bytes differ).
//
// The store is a diskcache.Store over a folder of files named by key
// (--cache-dir/pdf). Entries are written atomically; an entry not used for
// a while is removed by Prune.
package printcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/diskcache"
	"github.com/curex/curex/exporter/internal/layout"
)

// keyVersion changes when the key's recipe or curex's post-processing of
// Chromium's PDF (see chromium.Browser.PDF) changes, so older entries are no
// longer found. 2: Chromium reads only the handbook's own files while it
// prints (chromium.Access), so a print from before may hold others.
const keyVersion = "curex-printcache-2"

// Open opens, or creates, the store of printed PDFs in dir: one file a
// PDF, named by its key and layout.PrintExt, flushed to disk as it is
// written, marked as used on every Get; a file that is not a whole PDF is
// a miss, and Put refuses one. now gives the time entries are used at (for
// Prune); nil means time.Now.
func Open(dir string, now func() time.Time) (*diskcache.Store, error) {
	return diskcache.Open(dir, diskcache.Options{Name: "print cache", Ext: layout.PrintExt, Durable: true, Valid: whole, Now: now})
}

// Key returns the key of the PDF that the browser named browser (its
// version, see chromium.Browser.Version) prints from html with o.
func Key(html []byte, o chromium.PDFOptions, browser string) string {
	h := sha256.New()
	// Each part with its length, so no two inputs give the same stream.
	for _, part := range []string{
		keyVersion, browser, o.Paper, o.HeaderTemplate, o.FooterTemplate,
		fmt.Sprint(o.NoHeaderFooter), fmt.Sprint(o.Outline), o.Date.UTC().Format(time.RFC3339Nano),
		// Whether remote images print; Access.Dirs say where the copy
		// sits, the same files in another temporary folder.
		fmt.Sprint(o.Access.Remote != nil),
	} {
		fmt.Fprintf(h, "%d:%s\n", len(part), part)
	}
	fmt.Fprintf(h, "%d:", len(html))
	h.Write(html)
	return hex.EncodeToString(h.Sum(nil))
}

// whole reports whether data looks like a complete PDF: the header at the
// start and the end-of-file marker at the end.
func whole(data []byte) bool {
	return bytes.HasPrefix(data, []byte("%PDF-")) &&
		bytes.HasSuffix(bytes.TrimRight(data, "\r\n \t"), []byte("%%EOF"))
}
