package mathcache

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const key = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// clock is a settable time for the store's marks of use.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestPutGet(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "math"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(key); ok {
		t.Fatal("an empty store had an entry")
	}
	for _, v := range []string{"<math><mi>x</mi></math>", "", "line\nbreaks\n"} {
		if err := s.Put(key, v); err != nil {
			t.Fatal(err)
		}
		if got, ok := s.Get(key); !ok || got != v {
			t.Errorf("Get after Put(%q) = %q, %v", v, got, ok)
		}
	}
}

func TestBadKeysAndDamagedEntriesMiss(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "math")
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"", "short", "../../../../etc/passwd", strings.ToUpper(key), key + "/x", strings.Repeat("a", 129)} {
		if err := s.Put(k, "x"); err == nil {
			t.Errorf("Put(%q) accepted the key", k)
		}
		if _, ok := s.Get(k); ok {
			t.Errorf("Get(%q) found something", k)
		}
	}
	path := filepath.Join(dir, key[:2], key)
	for name, data := range map[string]string{
		"empty":     "",
		"foreign":   "<math><mi>x</mi></math>",
		"truncated": header + "20\n<math><mi>x</mi>",
		"longer":    header + "2\nabc",
		"no count":  header + "\nabc",
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
}

func TestPruneRemovesOnlyUnused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "math")
	c := &clock{t: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	s, err := Open(dir, c.now)
	if err != nil {
		t.Fatal(err)
	}
	old, used, fresh := key, "1"+key[1:], "2"+key[1:]
	for _, k := range []string{old, used, fresh} {
		if err := s.Put(k, "<math/>"); err != nil {
			t.Fatal(err)
		}
	}
	// Files' times are the file system's; set them as the clock says.
	setTime := func(k string, at time.Time) {
		if err := os.Chtimes(filepath.Join(dir, k[:2], k), at, at); err != nil {
			t.Fatal(err)
		}
	}
	setTime(old, c.t.Add(-40*24*time.Hour))
	setTime(used, c.t.Add(-40*24*time.Hour))
	setTime(fresh, c.t.Add(-2*24*time.Hour))
	// A Get renews the mark of an entry older than a day.
	if _, ok := s.Get(used); !ok {
		t.Fatal("used entry missing")
	}
	other := filepath.Join(dir, "README")
	if err := os.WriteFile(other, []byte("not an entry"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(other, c.t.Add(-400*24*time.Hour), c.t.Add(-400*24*time.Hour)); err != nil {
		t.Fatal(err)
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
	if _, err := os.Stat(other); err != nil {
		t.Errorf("Prune removed a file that is not an entry: %v", err)
	}
}
