// Package mathcache keeps Temml's MathML between runs, so that a rebuild
// (curex build, the next night's export, a new theme) converts only the
// formulas it has not seen: converting one takes a few milliseconds of
// JavaScript, reading it back a few microseconds. A site of 5,000 pages
// with a formula or two on each spent two thirds of its build converting.
//
// The store is a folder of files (--cache-dir/math), one per conversion,
// named by a key that package mathml makes from everything the conversion
// depends on (Temml's code, its options, the expression, inline or
// display), in folders by the key's first two characters. It holds
// Temml's output as Temml wrote it: mathml sanitizes what it reads back,
// so a change to curex's sanitizer needs no new key. Entries are written
// atomically (without a flush: a lost entry costs one conversion); an
// entry no run used for a while is removed by Prune.
package mathcache

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/curex/curex/exporter/internal/atomicfile"
)

// header starts every entry, followed by the length of the MathML in
// bytes and a newline: a short or foreign file is a miss, not MathML.
const header = "curex-math 1 "

// touchAfter is how old an entry's mark of use may get before a Get
// renews it: renewing on every read would double a rebuild's system calls
// for a mark Prune reads in months.
const touchAfter = 24 * time.Hour

// Store is a folder of conversions. Its methods are safe for concurrent
// use, by several goroutines and several processes.
type Store struct {
	dir string
	now func() time.Time
}

// Open opens, or creates, the store in dir. now gives the time entries are
// used at (for Prune); nil means time.Now.
func Open(dir string, now func() time.Time) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("math cache: %w", err)
	}
	if now == nil {
		now = time.Now
	}
	return &Store{dir: dir, now: now}, nil
}

// Get returns the MathML kept under key. A missing, short or damaged entry,
// or a key that is not a lowercase hexadecimal string of at least 16
// characters, is a miss.
func (s *Store) Get(key string) (string, bool) {
	path, ok := s.path(key)
	if !ok {
		return "", false
	}
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", false
	}
	data, err := io.ReadAll(io.LimitReader(f, info.Size()+1))
	if err != nil {
		return "", false
	}
	body, ok := parse(data)
	if !ok {
		return "", false
	}
	if now := s.now(); now.Sub(info.ModTime()) > touchAfter {
		_ = os.Chtimes(path, now, now) // a failure only makes Prune drop it sooner
	}
	return body, true
}

// Put keeps mathml under key.
func (s *Store) Put(key, mathml string) error {
	path, ok := s.path(key)
	if !ok {
		return fmt.Errorf("math cache: malformed key %q", key)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("math cache: %w", err)
	}
	data := make([]byte, 0, len(header)+12+len(mathml))
	data = append(data, header...)
	data = strconv.AppendInt(data, int64(len(mathml)), 10)
	data = append(data, '\n')
	data = append(data, mathml...)
	if err := atomicfile.WriteUnsynced(path, data); err != nil {
		return fmt.Errorf("math cache: %w", err)
	}
	return nil
}

// Prune removes the entries not used (by Get or Put) within the last
// unused, give or take a day (Get renews its mark of use once a day), and
// temporary files a crash left (older than an hour, so a Put of another
// run under way is not disturbed). It returns how many entries it removed.
func (s *Store) Prune(unused time.Duration) (int, error) {
	cutoff := s.now().Add(-unused)
	tempCutoff := s.now().Add(-time.Hour)
	removed := 0
	var errs []error
	err := filepath.WalkDir(s.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			errs = append(errs, err)
			return nil
		}
		if d.IsDir() {
			return nil
		}
		name := d.Name()
		temp := atomicfile.IsTemp(name)
		if !temp && !isKey(name) {
			return nil // not ours
		}
		info, err := d.Info()
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			return nil
		}
		limit := cutoff
		if temp {
			limit = tempCutoff
		}
		if !info.Mode().IsRegular() || !info.ModTime().Before(limit) {
			return nil
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			return nil
		}
		if !temp {
			removed++
		}
		return nil
	})
	if err := errors.Join(append(errs, err)...); err != nil {
		return removed, fmt.Errorf("math cache: prune: %w", err)
	}
	return removed, nil
}

// path returns the file of key; false when key is no key.
func (s *Store) path(key string) (string, bool) {
	if !isKey(key) {
		return "", false
	}
	return filepath.Join(s.dir, key[:2], key), true
}

// isKey reports whether name is lowercase hexadecimal, 16 to 128
// characters long.
func isKey(name string) bool {
	if len(name) < 16 || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// parse returns the MathML of an entry's bytes; false when they are not a
// whole entry.
func parse(data []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(header))
	if !ok {
		return "", false
	}
	num, body, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return "", false
	}
	n, err := strconv.Atoi(string(num))
	if err != nil || n != len(body) {
		return "", false
	}
	return string(body), true
}
