// Package diskcache is the one store of keyed entries that curex keeps
// between runs in its cache folder (--cache-dir): the printed PDFs
// (pdf/), Temml's MathML (math/) and highlighted code (code/) are each a
// Store over a folder of their own, with options that say how that kind
// is kept.
//
// An entry is one file, named by its key (lowercase hexadecimal, made by
// the user of the store from everything the entry depends on), written
// atomically (package atomicfile), either with a flush to disk (Durable)
// or without one (a lost entry costs a little work). A framed kind
// (Options.Header) writes the header, the body's length and its CRC-32C
// before the body, so a short, foreign or damaged file is a miss, not an
// entry; Options.Valid checks what a kind's body must be on top of that.
// A damaged entry is logged at debug level and treated as a miss.
//
// Every entry carries a mark of use, its file's modification time: Put
// sets it, Get renews it once it is older than Options.TouchAfter, and
// Prune removes the entries not used for a while, with the temporary
// files a crash left behind.
//
// A Store may keep entries in memory too (Options.MemoryBytes, bounded),
// so a run that asks for the same entry again (the same code block in
// every format) reads no file; with no folder it is a store in memory
// alone.
package diskcache

import (
	"bytes"
	"container/list"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/curex/curex/exporter/internal/atomicfile"
	"github.com/curex/curex/exporter/internal/plainfile"
)

// Cache is what the users of a Store need of it; a test may give them a
// fake instead.
type Cache interface {
	// Get returns the entry kept under key; the caller must not modify it.
	Get(key string) ([]byte, bool)
	// Put keeps data under key.
	Put(key string, data []byte) error
}

// Options say how a Store keeps its kind of entry. The zero value keeps
// bare bodies, without a flush, in one flat folder, renewing the mark of
// use on every Get.
type Options struct {
	// Name names the store in errors and logs ("math cache").
	Name string
	// Header, when set, frames every entry (see the package doc); it
	// names the kind and the version of its format ("curex-math 2").
	Header string
	// Valid, when set, checks a body given to Put or read back: a body
	// it refuses is never written, and is a miss when read.
	Valid func(body []byte) bool
	// Ext ends the name of every entry's file (".pdf").
	Ext string
	// Fanout puts each entry in a folder named by its key's first two
	// characters, so no folder holds too many files.
	Fanout bool
	// Durable flushes every entry to disk as it is written.
	Durable bool
	// TouchAfter is how old an entry's mark of use may get before a Get
	// renews it: renewing on every read would double a rebuild's system
	// calls for a mark Prune reads in weeks. Zero renews on every Get.
	TouchAfter time.Duration
	// MemoryBytes, when positive, keeps up to that many bytes of entries
	// in memory as well (the least recently used go first).
	MemoryBytes int
	// Now gives the time entries are used at; nil means time.Now.
	Now func() time.Time
	// Log receives the damaged entries met (debug); nil discards them.
	Log *slog.Logger
}

// Store is a folder of entries of one kind. Its methods are safe for
// concurrent use, by several goroutines and several processes.
type Store struct {
	dir string
	o   Options
	mem *memory
}

// Open opens, or creates, the store in dir. An empty dir gives a store
// in memory alone (Options.MemoryBytes bounds it; zero keeps nothing).
func Open(dir string, o Options) (*Store, error) {
	if o.Name == "" {
		o.Name = "cache"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("%s: %w", o.Name, err)
		}
	}
	s := &Store{dir: dir, o: o}
	if o.MemoryBytes > 0 {
		s.mem = newMemory(o.MemoryBytes)
	}
	return s, nil
}

// Get returns the body kept under key, which the caller must not modify.
// A missing or damaged entry, or a key that is not one (see IsKey), is a
// miss.
func (s *Store) Get(key string) ([]byte, bool) {
	if !IsKey(key) {
		return nil, false
	}
	if body, ok := s.mem.get(key); ok {
		return body, true
	}
	if s.dir == "" {
		return nil, false
	}
	path := s.path(key)
	body, modified, ok := s.read(path)
	if !ok {
		return nil, false
	}
	if now := s.o.Now(); now.Sub(modified) > s.o.TouchAfter {
		_ = os.Chtimes(path, now, now) // a failure only makes Prune drop it sooner
	}
	s.mem.put(key, body)
	return body, true
}

// read returns the body of the entry at path and its mark of use; false
// when there is none, or a damaged one (logged).
func (s *Store) read(path string) ([]byte, time.Time, bool) {
	// One read of the size the file has: entries are replaced whole
	// (written aside and renamed), never grown in place, so a short read
	// is a damaged entry, not one still being written.
	data, modified, err := plainfile.ReadFile(path)
	if err != nil {
		return nil, time.Time{}, false
	}
	body := data
	if s.o.Header != "" {
		var ok bool
		if body, ok = Unframe(s.o.Header, data); !ok {
			s.o.Log.Debug("damaged cache entry treated as a miss", "cache", s.o.Name, "file", path)
			return nil, time.Time{}, false
		}
	}
	if s.o.Valid != nil && !s.o.Valid(body) {
		s.o.Log.Debug("invalid cache entry treated as a miss", "cache", s.o.Name, "file", path)
		return nil, time.Time{}, false
	}
	return body, modified, true
}

// Put keeps body under key.
func (s *Store) Put(key string, body []byte) error {
	if !IsKey(key) {
		return fmt.Errorf("%s: malformed key %q", s.o.Name, key)
	}
	if s.o.Valid != nil && !s.o.Valid(body) {
		return fmt.Errorf("%s: refused entry %s", s.o.Name, key)
	}
	s.mem.put(key, bytes.Clone(body))
	if s.dir == "" {
		return nil
	}
	path := s.path(key)
	if s.o.Fanout {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return fmt.Errorf("%s: %w", s.o.Name, err)
		}
	}
	data := body
	if s.o.Header != "" {
		data = Frame(s.o.Header, body)
	}
	write := atomicfile.WriteUnsynced
	if s.o.Durable {
		write = atomicfile.Write
	}
	if err := write(path, data); err != nil {
		return fmt.Errorf("%s: %w", s.o.Name, err)
	}
	now := s.o.Now()
	_ = os.Chtimes(path, now, now) // the mark of use, by the store's clock
	return nil
}

// Prune removes the entries not used (by Get or Put) within the last
// unused, give or take Options.TouchAfter, and temporary files a crash
// left (older than an hour, so a Put of another run under way is not
// disturbed). Files that are not the store's are left alone. It returns
// how many entries it removed.
func (s *Store) Prune(unused time.Duration) (int, error) {
	if s.dir == "" {
		return 0, nil
	}
	now := s.o.Now()
	cutoff, tempCutoff := now.Add(-unused), now.Add(-time.Hour)
	removed := 0
	var errs []error
	err := filepath.WalkDir(s.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			return nil
		}
		if d.IsDir() {
			if path != s.dir && (!s.o.Fanout || filepath.Dir(path) != s.dir) {
				return filepath.SkipDir // not ours
			}
			return nil
		}
		name := d.Name()
		temp := atomicfile.IsTemp(name)
		if !temp && !s.isEntry(name) {
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
		return removed, fmt.Errorf("%s: prune: %w", s.o.Name, err)
	}
	return removed, nil
}

// PrunedMark is the name of the file in a store's folder whose
// modification time says when PruneEvery last pruned it (not an entry:
// Prune leaves it alone).
const PrunedMark = "pruned"

// PruneEvery prunes as Prune does, at most once per every: when the
// store's mark of the last pruning is younger than every, it removes
// nothing and reads no folder. A store of many entries that every run
// prunes walks them all each time (8,400 files read a tenth of a second
// of a build); pruned daily, an entry lives no more than a day past
// unused. The mark is set once the pruning succeeded.
func (s *Store) PruneEvery(unused, every time.Duration) (int, error) {
	if s.dir == "" {
		return 0, nil
	}
	mark := filepath.Join(s.dir, PrunedMark)
	now := s.o.Now()
	if info, err := os.Stat(mark); err == nil && now.Sub(info.ModTime()) < every && !info.ModTime().After(now) {
		return 0, nil
	}
	n, err := s.Prune(unused)
	if err != nil {
		return n, err
	}
	if err := os.WriteFile(mark, nil, 0o644); err != nil {
		return n, fmt.Errorf("%s: prune: %w", s.o.Name, err)
	}
	if err := os.Chtimes(mark, now, now); err != nil {
		return n, fmt.Errorf("%s: prune: %w", s.o.Name, err)
	}
	return n, nil
}

// Name names the store (Options.Name).
func (s *Store) Name() string { return s.o.Name }

// path returns the file of key, a key.
func (s *Store) path(key string) string {
	if s.o.Fanout {
		return filepath.Join(s.dir, key[:2], key+s.o.Ext)
	}
	return filepath.Join(s.dir, key+s.o.Ext)
}

// isEntry reports whether name is the name of an entry's file.
func (s *Store) isEntry(name string) bool {
	key, ok := strings.CutSuffix(name, s.o.Ext)
	return ok && IsKey(key)
}

// IsKey reports whether key can name an entry: lowercase hexadecimal, 16
// to 128 characters long (a SHA-256 in hex is 64).
func IsKey(key string) bool {
	if len(key) < 16 || len(key) > 128 {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// castagnoli is the CRC-32C table of the frames' checksums.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Frame returns body framed by header: the header, a space, the body's
// length in decimal, a space, its CRC-32C in 8 lowercase hexadecimal
// digits and a newline, then the body.
func Frame(header string, body []byte) []byte {
	data := make([]byte, 0, len(header)+32+len(body))
	data = append(data, header...)
	data = append(data, ' ')
	data = strconv.AppendInt(data, int64(len(body)), 10)
	data = fmt.Appendf(data, " %08x\n", crc32.Checksum(body, castagnoli))
	return append(data, body...)
}

// Unframe returns the body of data, an entry that Frame made with
// header; false when data is not one whole (a short, foreign or damaged
// file). The body shares data's memory.
func Unframe(header string, data []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(header+" "))
	if !ok {
		return nil, false
	}
	line, body, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return nil, false
	}
	num, sum, ok := bytes.Cut(line, []byte{' '})
	if !ok || len(num) == 0 || len(num) > 12 || len(sum) != 8 {
		return nil, false
	}
	n, err := strconv.ParseUint(string(num), 10, 63)
	if err != nil || n != uint64(len(body)) || strconv.FormatUint(n, 10) != string(num) {
		return nil, false
	}
	want, err := strconv.ParseUint(string(sum), 16, 32)
	if err != nil || fmt.Sprintf("%08x", want) != string(sum) || uint32(want) != crc32.Checksum(body, castagnoli) {
		return nil, false
	}
	return body, true
}

// memory is a bounded least-recently-used map of entries; a nil memory
// keeps nothing.
type memory struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List // of *memEntry, most recent first
	m     map[string]*list.Element
}

type memEntry struct {
	key  string
	body []byte
}

// memOverhead is what one entry costs besides its key and body, roughly.
const memOverhead = 128

func newMemory(max int) *memory {
	return &memory{max: max, order: list.New(), m: map[string]*list.Element{}}
}

func (e *memEntry) cost() int { return len(e.key) + len(e.body) + memOverhead }

func (m *memory) get(key string) ([]byte, bool) {
	if m == nil {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.m[key]
	if !ok {
		return nil, false
	}
	m.order.MoveToFront(el)
	return el.Value.(*memEntry).body, true
}

func (m *memory) put(key string, body []byte) {
	if m == nil {
		return
	}
	e := &memEntry{key: key, body: body}
	m.mu.Lock()
	defer m.mu.Unlock()
	if el, ok := m.m[key]; ok {
		m.size -= el.Value.(*memEntry).cost()
		m.order.Remove(el)
		delete(m.m, key)
	}
	if e.cost() > m.max {
		return // larger than the whole memory: not kept
	}
	m.m[key] = m.order.PushFront(e)
	m.size += e.cost()
	for m.size > m.max {
		last := m.order.Back()
		old := last.Value.(*memEntry)
		m.order.Remove(last)
		delete(m.m, old.key)
		m.size -= old.cost()
	}
}
