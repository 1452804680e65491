package etagcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/curex/curex/exporter/internal/etagcache/internal/entry"
)

func dcOpen(t testing.TB) *DiskCache {
	t.Helper()
	c, err := OpenDiskCache(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func dcBody(n int, seed uint64) []byte {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	b := make([]byte, n)
	_, _ = rand.NewChaCha8(s).Read(b)
	return b
}

func TestOpenDiskCache(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	c, err := OpenDiskCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("cache folder: %v, %v", fi, err)
	}
	if c.Dir() != dir || !filepath.IsAbs(c.Dir()) {
		t.Errorf("Dir() = %q, want %q", c.Dir(), dir)
	}
	if _, err := OpenDiskCache(""); err == nil {
		t.Error("OpenDiskCache(\"\") succeeded")
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenDiskCache(file); err == nil {
		t.Error("OpenDiskCache on a file succeeded")
	}
}

// TestDiskCacheRoundTrip stores and reads back entries of every shape.
func TestDiskCacheRoundTrip(t *testing.T) {
	tests := []struct {
		name, key, etag string
		body            []byte
	}{
		{"plain", "/api/v1/curricula/101/resolved?locale=en", `"0123456789abcdef"`, []byte(`{"data":{}}`)},
		{"odd key", "/api/v1/x?q=ä ö/../../etc/passwd\x00\n\r\t😀%2F", `W/"weak"`, []byte("x")},
		{"empty key", "", `"e"`, []byte("body")},
		{"empty body", "/empty", `"e"`, []byte{}},
		{"empty ETag", "/no-etag", "", []byte("body")},
		{"large body", "/large", `"large"`, dcBody(5<<20, 1)},
		{"long key", strings.Repeat("k", entry.MaxKey), `"e"`, []byte("b")},
	}
	c := dcOpen(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := c.Put(tt.key, tt.etag, tt.body); err != nil {
				t.Fatal(err)
			}
			etag, body, ok := c.Get(tt.key)
			if !ok || etag != tt.etag || !bytes.Equal(body, tt.body) {
				t.Fatalf("Get = %q, %d bytes, %v; want %q, %d bytes", etag, len(body), ok, tt.etag, len(tt.body))
			}
			sum := sha256.Sum256([]byte(tt.key))
			name := hex.EncodeToString(sum[:])
			fi, err := os.Stat(filepath.Join(c.Dir(), name[:2], name))
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("entry file: %v, %v", fi, err)
			}
		})
	}
	// The body returned is the caller's.
	_, body, _ := c.Get("/api/v1/curricula/101/resolved?locale=en")
	body[0] = 'X'
	if _, again, _ := c.Get("/api/v1/curricula/101/resolved?locale=en"); again[0] != '{' {
		t.Error("changing a returned body changed the cache")
	}
}

func TestDiskCacheMissOverwriteDelete(t *testing.T) {
	c := dcOpen(t)
	if _, _, ok := c.Get("/nothing"); ok {
		t.Fatal("hit on an empty cache")
	}
	for i := range 3 {
		if err := c.Put("/k", fmt.Sprintf(`"v%d"`, i), []byte(strings.Repeat("b", 100-i*40))); err != nil {
			t.Fatal(err)
		}
	}
	if etag, body, ok := c.Get("/k"); !ok || etag != `"v2"` || string(body) != strings.Repeat("b", 20) {
		t.Fatalf("after overwrites: %q %q %v", etag, body, ok)
	}
	if _, _, ok := c.Get("/K"); ok {
		t.Error("keys are case-insensitive")
	}
	if err := c.Delete("/k"); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := c.Get("/k"); ok {
		t.Error("hit after Delete")
	}
	if err := c.Delete("/k"); err != nil {
		t.Errorf("Delete of a missing entry: %v", err)
	}
}

func TestDiskCachePutRejects(t *testing.T) {
	c := dcOpen(t)
	if err := c.Put(strings.Repeat("k", entry.MaxKey+1), `"e"`, nil); err == nil {
		t.Error("a key over the limit was stored")
	}
	if err := c.Put("/k", strings.Repeat("e", entry.MaxETag+1), nil); err == nil {
		t.Error("an ETag over the limit was stored")
	}
}

// TestDiskCacheCorrupt damages an entry file in many ways: each is a miss,
// and the file is removed.
func TestDiskCacheCorrupt(t *testing.T) {
	const key = "/api/v1/curricula/101"
	tests := []struct {
		name   string
		damage func(data []byte) []byte
	}{
		{"flip a magic byte", func(d []byte) []byte { d[0] ^= 1; return d }},
		{"wrong magic", func(d []byte) []byte { copy(d, "GARBAGE!"); return d }},
		{"wrong version", func(d []byte) []byte { d[9] = 2; return d }},
		{"flags set", func(d []byte) []byte { d[15] = 1; return d }},
		{"flip a key length byte", func(d []byte) []byte { d[11] ^= 1; return d }},
		{"flip a body length byte", func(d []byte) []byte { d[23] ^= 1; return d }},
		{"flip a checksum byte", func(d []byte) []byte { d[30] ^= 0x80; return d }},
		{"flip a key byte", func(d []byte) []byte { d[entry.HeaderLen+3] ^= 1; return d }},
		{"flip an ETag byte", func(d []byte) []byte { d[entry.HeaderLen+len(key)+1] ^= 1; return d }},
		{"flip a body byte", func(d []byte) []byte { d[len(d)-1] ^= 1; return d }},
		{"truncated to nothing", func(d []byte) []byte { return d[:0] }},
		{"truncated in the header", func(d []byte) []byte { return d[:10] }},
		{"truncated in the body", func(d []byte) []byte { return d[:len(d)-1] }},
		{"a byte too many", func(d []byte) []byte { return append(d, 0) }},
		{"another key's entry", func([]byte) []byte {
			return entry.Encode(entry.Entry{Key: "/api/v1/curricula/102", ETag: `"e"`, Body: []byte("{}")})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dcOpen(t)
			if err := c.Put(key, `"etag"`, []byte(`{"data":{"id":"101"}}`)); err != nil {
				t.Fatal(err)
			}
			path := c.path(key)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, tt.damage(data), 0o600); err != nil {
				t.Fatal(err)
			}
			if etag, body, ok := c.Get(key); ok {
				t.Fatalf("damaged entry read as %q %q", etag, body)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("damaged entry not removed: %v", err)
			}
			// The cache works on.
			if err := c.Put(key, `"new"`, []byte("{}")); err != nil {
				t.Fatal(err)
			}
			if etag, _, ok := c.Get(key); !ok || etag != `"new"` {
				t.Errorf("after repair: %q %v", etag, ok)
			}
		})
	}
}

// TestDiskCacheIgnoresLeftovers checks that the temporary file of an
// interrupted Put, or a folder in an entry's place, is never read.
func TestDiskCacheIgnoresLeftovers(t *testing.T) {
	c := dcOpen(t)
	const key = "/k"
	path := c.path(key)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	leftover := path + ".tmp-123456"
	half := entry.Encode(entry.Entry{Key: key, ETag: `"half"`, Body: []byte("half a body")})
	if err := os.WriteFile(leftover, half[:len(half)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := c.Get(key); ok {
		t.Fatal("a leftover temporary file was read")
	}
	if err := c.Put(key, `"full"`, []byte("full body")); err != nil {
		t.Fatal(err)
	}
	if etag, body, ok := c.Get(key); !ok || etag != `"full"` || string(body) != "full body" {
		t.Fatalf("Get = %q %q %v", etag, body, ok)
	}
	if _, err := os.Stat(leftover); err != nil {
		t.Errorf("the leftover was touched: %v", err)
	}
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp-*"))
	if len(matches) != 1 {
		t.Errorf("temporary files: %v, want only the leftover", matches)
	}

	dirKey := "/dir"
	if err := os.MkdirAll(c.path(dirKey), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := c.Get(dirKey); ok {
		t.Error("a folder read as an entry")
	}
}

// TestDiskCacheConcurrent hammers a few keys from many goroutines and two
// caches over the same folder (as two processes would): every hit is an
// ETag and body written together.
func TestDiskCacheConcurrent(t *testing.T) {
	dir := t.TempDir()
	var caches [2]*DiskCache
	for i := range caches {
		c, err := OpenDiskCache(dir)
		if err != nil {
			t.Fatal(err)
		}
		caches[i] = c
	}
	keys := []string{"/a", "/b", "/c", "/d", "/e"}
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			c := caches[g%2]
			r := rand.New(rand.NewPCG(uint64(g), 2))
			for range 60 {
				key := keys[r.IntN(len(keys))]
				if r.IntN(2) == 0 {
					body := dcBody(r.IntN(16<<10), r.Uint64())
					sum := sha256.Sum256(body)
					if err := c.Put(key, key+"/"+hex.EncodeToString(sum[:]), body); err != nil {
						t.Error(err)
						return
					}
					continue
				}
				etag, body, ok := c.Get(key)
				if !ok {
					continue
				}
				sum := sha256.Sum256(body)
				if etag != key+"/"+hex.EncodeToString(sum[:]) {
					t.Errorf("Get(%q): ETag %q does not go with its body", key, etag)
				}
			}
		})
	}
	wg.Wait()
	for _, key := range keys {
		if _, _, ok := caches[0].Get(key); !ok {
			t.Errorf("no entry for %q after the run", key)
		}
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "*", "*.tmp-*"))
	if len(matches) != 0 {
		t.Errorf("temporary files left: %v", matches)
	}
}
