package diskcache

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const key = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// clock is a settable time for the store's marks of use.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// kinds are the ways curex keeps entries: as the math, code and print
// caches open their stores.
var kinds = map[string]Options{
	"framed, fanned out": {Name: "math cache", Header: "curex-test 1", Fanout: true, TouchAfter: 24 * time.Hour},
	"bare, flat, durable": {Name: "print cache", Ext: ".pdf", Durable: true,
		Valid: func(b []byte) bool { return bytes.HasPrefix(b, []byte("%PDF-")) }},
	"in memory too": {Name: "code cache", Header: "curex-test 1", Fanout: true, MemoryBytes: 1 << 20},
}

func TestPutGet(t *testing.T) {
	for name, o := range kinds {
		t.Run(name, func(t *testing.T) {
			s, err := Open(filepath.Join(t.TempDir(), "c"), o)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := s.Get(key); ok {
				t.Fatal("an empty store had an entry")
			}
			for _, v := range []string{"%PDF-<math><mi>x</mi></math>", "%PDF-", "%PDF-line\nbreaks\n"} {
				if err := s.Put(key, []byte(v)); err != nil {
					t.Fatal(err)
				}
				if got, ok := s.Get(key); !ok || string(got) != v {
					t.Errorf("Get after Put(%q) = %q, %v", v, got, ok)
				}
				// Another process's store over the same folder reads it.
				other, err := Open(s.dir, o)
				if err != nil {
					t.Fatal(err)
				}
				if got, ok := other.Get(key); !ok || string(got) != v {
					t.Errorf("another store's Get after Put(%q) = %q, %v", v, got, ok)
				}
			}
		})
	}
}

func TestBadKeysAndDamagedEntriesMiss(t *testing.T) {
	o := kinds["framed, fanned out"]
	dir := filepath.Join(t.TempDir(), "math")
	s, err := Open(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"", "short", "../../../../etc/passwd", strings.ToUpper(key), key + "/x", strings.Repeat("a", 129)} {
		if err := s.Put(k, []byte("x")); err == nil {
			t.Errorf("Put(%q) accepted the key", k)
		}
		if _, ok := s.Get(k); ok {
			t.Errorf("Get(%q) found something", k)
		}
	}
	whole := string(Frame(o.Header, []byte("<math><mi>x</mi></math>")))
	path := filepath.Join(dir, key[:2], key)
	for name, data := range map[string]string{
		"empty":          "",
		"foreign":        "<math><mi>x</mi></math>",
		"truncated":      whole[:len(whole)-3],
		"longer":         whole + "x",
		"no count":       o.Header + " \nabc",
		"other header":   "curex-test 2" + whole[len(o.Header):],
		"flipped byte":   whole[:len(whole)-2] + "X" + whole[len(whole)-1:],
		"bad checksum":   strings.Replace(whole, " 23 ", " 23 0", 1),
		"leading zeroes": strings.Replace(whole, " 23 ", " 023 ", 1),
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		if got, ok := s.Get(key); ok {
			t.Errorf("%s entry: Get = %q, want a miss", name, got)
		}
	}
	if err := os.WriteFile(path, []byte(whole), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.Get(key); !ok || string(got) != "<math><mi>x</mi></math>" {
		t.Errorf("whole entry: Get = %q, %v", got, ok)
	}
}

func TestValidRefusesBodies(t *testing.T) {
	o := kinds["bare, flat, durable"]
	s, err := Open(t.TempDir(), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(key, []byte("<html>")); err == nil {
		t.Error("Put kept a body Valid refuses")
	}
	if err := os.WriteFile(filepath.Join(s.dir, key+".pdf"), []byte("<html>"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(key); ok {
		t.Error("Get returned a body Valid refuses")
	}
}

func TestPruneRemovesOnlyUnused(t *testing.T) {
	for name, o := range kinds {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "c")
			c := &clock{t: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
			o.Now = c.now
			o.MemoryBytes = 0 // Get must read the files
			s, err := Open(dir, o)
			if err != nil {
				t.Fatal(err)
			}
			old, used, fresh := key, "1"+key[1:], "2"+key[1:]
			for _, k := range []string{old, used, fresh} {
				if err := s.Put(k, []byte("%PDF-")); err != nil {
					t.Fatal(err)
				}
			}
			setTime := func(path string, at time.Time) {
				if err := os.Chtimes(path, at, at); err != nil {
					t.Fatal(err)
				}
			}
			setTime(s.path(old), c.t.Add(-40*24*time.Hour))
			setTime(s.path(used), c.t.Add(-40*24*time.Hour))
			setTime(s.path(fresh), c.t.Add(-2*24*time.Hour))
			// A Get renews the mark of an entry older than TouchAfter.
			if _, ok := s.Get(used); !ok {
				t.Fatal("used entry missing")
			}
			// A temporary file a crash left, files that are not the store's.
			leftovers := map[string]bool{".tmp-123": false, "README": true, filepath.Join("zz", "sub", key): true}
			for name := range leftovers {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, nil, 0o600); err != nil {
					t.Fatal(err)
				}
				setTime(p, c.t.Add(-400*24*time.Hour))
			}
			n, err := s.Prune(30 * 24 * time.Hour)
			if err != nil || n != 1 {
				t.Fatalf("Prune = %d, %v; want 1 removed", n, err)
			}
			for k, want := range map[string]bool{old: false, used: true, fresh: true} {
				if _, ok := s.Get(k); ok != want {
					t.Errorf("entry %s… kept = %v, want %v", k[:4], ok, want)
				}
			}
			for name, kept := range leftovers {
				if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != kept {
					t.Errorf("%s: kept = %v, want %v", name, err == nil, kept)
				}
			}
		})
	}
}

// TestPruneEvery prunes when the store was never pruned or was pruned
// longer ago than every, and otherwise reads nothing: an entry unused
// for long stays until the day is over.
func TestPruneEvery(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	c := &clock{t: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	o := kinds["framed, fanned out"]
	o.Now = c.now
	s, err := Open(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	unused, day := 30*24*time.Hour, 24*time.Hour
	stale := func(k string) {
		t.Helper()
		if err := s.Put(k, []byte("x")); err != nil {
			t.Fatal(err)
		}
		at := c.t.Add(-40 * 24 * time.Hour)
		if err := os.Chtimes(s.path(k), at, at); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name    string
		advance time.Duration
		want    int
	}{
		{"never pruned", 0, 1},
		{"an hour later", time.Hour, 0},
		{"a day later", day, 1},
		{"the clock went back", -3 * day, 1},
		{"an hour after that", time.Hour, 0},
	} {
		c.t = c.t.Add(tt.advance)
		stale("3" + key[1:])
		if n, err := s.PruneEvery(unused, day); err != nil || n != tt.want {
			t.Errorf("%s: PruneEvery = %d, %v; want %d removed", tt.name, n, err, tt.want)
		}
	}
	if n, err := s.Prune(unused); err != nil || n != 1 {
		t.Errorf("Prune after: %d, %v; want the entry PruneEvery left", n, err)
	}
}

// TestMemoryIsBounded: a store in memory keeps at most MemoryBytes, the
// entries used last, and is safe for concurrent use.
func TestMemoryIsBounded(t *testing.T) {
	s, err := Open("", Options{MemoryBytes: 10 * (64 + 100 + memOverhead)})
	if err != nil {
		t.Fatal(err)
	}
	keyOf := func(i int) string {
		return strings.Repeat("0", 60) + strings.Repeat(string("0123456789abcdef"[i%16]), 4)
	}
	body := bytes.Repeat([]byte("x"), 100)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			if err := s.Put(keyOf(i), body); err != nil {
				t.Error(err)
			}
			s.Get(keyOf(i))
		})
	}
	wg.Wait()
	if s.mem.size > s.mem.max || s.mem.order.Len() != 10 {
		t.Errorf("memory holds %d entries, %d bytes; want 10, at most %d", s.mem.order.Len(), s.mem.size, s.mem.max)
	}
	if err := s.Put(keyOf(0), bytes.Repeat([]byte("x"), 40*100)); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.Get(keyOf(0)); ok {
		t.Errorf("Get = %d bytes; want a miss: the entry is larger than the memory, and the one before it was replaced", len(got))
	}
	if n, err := s.Prune(0); n != 0 || err != nil {
		t.Errorf("Prune of a store in memory = %d, %v", n, err)
	}
}

// FuzzUnframe: Unframe never panics, accepts only what Frame makes, and
// gives back what Frame was given.
func FuzzUnframe(f *testing.F) {
	const header = "curex-code 1"
	f.Add(Frame(header, []byte("<span class=\"k\">def</span>")))
	f.Add(Frame(header, nil))
	f.Add([]byte(header + " 3 00000000\nabc"))
	f.Add([]byte(header + " -1 00000000\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		body, ok := Unframe(header, data)
		if !ok {
			return
		}
		if again := Frame(header, body); !bytes.Equal(again, data) {
			t.Fatalf("Unframe(%q) = %q, which Frame makes %q", data, body, again)
		}
	})
}
