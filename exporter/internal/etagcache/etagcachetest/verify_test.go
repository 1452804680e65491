package etagcachetest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/curex/curex/exporter/internal/etagcache"
	"github.com/curex/curex/exporter/internal/etagcache/etagcachetest"
	"github.com/curex/curex/exporter/internal/etagcache/internal/entry"
)

func TestVerify(t *testing.T) {
	dir := t.TempDir()
	c, err := etagcache.OpenDiskCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"/a", "/b", "/c"} {
		if err := c.Put(k, `"e"`, []byte("body of "+k)); err != nil {
			t.Fatal(err)
		}
	}
	// Folders beside the entries (the run state, a publishing copy) hold
	// no entries.
	for _, f := range []string{"state/state.json", "state/journal.jsonl", "publish/x/index.html", "README"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("not an entry"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if good, bad, err := etagcachetest.Verify(dir); err != nil || good != 3 || len(bad) != 0 {
		t.Fatalf("Verify = %d, %v, %v; want 3 good entries", good, bad, err)
	}
	// Damage one entry and leave a temporary file behind.
	p := entry.Path(dir, "/b")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 0xff
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p+".tmp-123", []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	good, bad, err := etagcachetest.Verify(dir)
	if err != nil || good != 2 || len(bad) != 1 || bad[0] != p {
		t.Fatalf("Verify = %d, %v, %v; want 2 good and %s bad", good, bad, err, p)
	}
}
