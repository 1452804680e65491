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
// The store is a folder of files named by key (--cache-dir/pdf). Entries
// are written atomically; an entry not used for a while is removed by
// Prune.
package printcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/curex/curex/exporter/internal/atomicfile"
	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/layout"
)

// keyVersion changes when the key's recipe or curex's post-processing of
// Chromium's PDF (see chromium.Browser.PDF) changes, so older entries are no
// longer found. 2: Chromium reads only the handbook's own files while it
// prints (chromium.Access), so a print from before may hold others.
const keyVersion = "curex-printcache-2"

// Store is a folder of printed PDFs. Its methods are safe for concurrent
// use.
type Store struct {
	dir string
	now func() time.Time
}

// Open opens, or creates, the store in dir. now gives the time entries are
// used at (for Prune); nil means time.Now.
func Open(dir string, now func() time.Time) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("print cache: %w", err)
	}
	if now == nil {
		now = time.Now
	}
	return &Store{dir: dir, now: now}, nil
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

// Get returns the PDF kept under key, and marks it used. A missing entry,
// or one that is not a whole PDF (a damaged disk), is a miss.
func (s *Store) Get(key string) ([]byte, bool) {
	path, ok := s.path(key)
	if !ok {
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil || !whole(data) {
		return nil, false
	}
	now := s.now()
	_ = os.Chtimes(path, now, now) // a failure only makes Prune drop it sooner
	return data, true
}

// Put keeps pdf under key.
func (s *Store) Put(key string, pdf []byte) error {
	path, ok := s.path(key)
	if !ok {
		return fmt.Errorf("print cache: malformed key %q", key)
	}
	if !whole(pdf) {
		return errors.New("print cache: not a whole PDF")
	}
	if err := atomicfile.Write(path, pdf); err != nil {
		return fmt.Errorf("print cache: %w", err)
	}
	now := s.now()
	_ = os.Chtimes(path, now, now)
	return nil
}

// Prune removes the entries not used (by Get or Put) within the last
// unused, and temporary files a crash left (older than an hour, so a Put
// of another run under way is not disturbed). It returns how many entries
// it removed.
func (s *Store) Prune(unused time.Duration) (int, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return 0, fmt.Errorf("print cache: %w", err)
	}
	cutoff := s.now().Add(-unused)
	// A temporary file younger than this may be another run's Put.
	tempCutoff := s.now().Add(-time.Hour)
	removed := 0
	var errs []error
	for _, e := range entries {
		name := e.Name()
		temp := atomicfile.IsTemp(name)
		if !temp && !strings.HasSuffix(name, layout.PrintExt) {
			continue // not ours
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		limit := cutoff
		if temp {
			limit = tempCutoff
		}
		if !info.Mode().IsRegular() || !info.ModTime().Before(limit) {
			continue
		}
		if err := os.Remove(filepath.Join(s.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		if !temp {
			removed++
		}
	}
	if err := errors.Join(errs...); err != nil {
		return removed, fmt.Errorf("print cache: prune: %w", err)
	}
	return removed, nil
}

// path returns the file of key; false when key is not one Key returns.
func (s *Store) path(key string) (string, bool) {
	if len(key) != 2*sha256.Size {
		return "", false
	}
	if _, err := hex.DecodeString(key); err != nil {
		return "", false
	}
	return layout.PrintEntry(s.dir, key), true
}

// whole reports whether data looks like a complete PDF: the header at the
// start and the end-of-file marker at the end.
func whole(data []byte) bool {
	return bytes.HasPrefix(data, []byte("%PDF-")) &&
		bytes.HasSuffix(bytes.TrimRight(data, "\r\n \t"), []byte("%%EOF"))
}
