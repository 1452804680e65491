package changes

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/curex/curex/exporter/internal/atomicfile"
	"github.com/curex/curex/exporter/internal/model"
)

// Store keeps the snapshot of every exported tree in a folder next to the
// cache, one file per tree and ETag, so that the next export can compare
// against the tree it replaces.
type Store struct {
	dir string
}

// OpenStore opens the snapshots kept in dir, creating it (mode 0700).
func OpenStore(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("snapshots: %w", err)
	}
	return &Store{dir: dir}, nil
}

func (s *Store) name(key model.Key, etag string) string {
	k := sha256.Sum256([]byte(key.String()))
	t := sha256.Sum256([]byte(etag))
	return filepath.Join(s.dir, hex.EncodeToString(k[:10])+"-"+hex.EncodeToString(t[:10])+".json")
}

// Get returns the snapshot of e's tree with the given ETag.
func (s *Store) Get(e model.Export, etag string) (Snapshot, bool) {
	data, err := os.ReadFile(s.name(e.Key(), etag))
	if err != nil {
		return Snapshot{}, false
	}
	var snap Snapshot
	if json.Unmarshal(data, &snap) != nil || snap.ETag != etag {
		return Snapshot{}, false
	}
	return snap, true
}

// Put keeps snap as the snapshot of e's tree with snap's ETag (a
// temporary file, then a rename).
func (s *Store) Put(e model.Export, snap Snapshot) error {
	data, err := json.Marshal(snap)
	if err != nil {
		return fmt.Errorf("snapshot of %s: %w", e.Dir(), err)
	}
	name := s.name(e.Key(), snap.ETag)
	// A snapshot lost to a power cut costs one "What's new" diff (Get
	// refuses a short or empty file): no flush per tree.
	if err := atomicfile.WriteUnsynced(name, data); err != nil {
		return fmt.Errorf("snapshot of %s: %w", e.Dir(), err)
	}
	return nil
}

// Prune removes every snapshot but those of the given trees (by
// model.Export.Key) and ETags, the exports of the output just committed,
// and leftover temporary files.
func (s *Store) Prune(keep map[model.Key]string) error {
	want := map[string]bool{}
	for key, etag := range keep {
		want[filepath.Base(s.name(key, etag))] = true
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("snapshots: %w", err)
	}
	for _, d := range entries {
		if n := d.Name(); !want[n] && (strings.HasSuffix(n, ".json") || atomicfile.IsTemp(n)) {
			_ = os.Remove(filepath.Join(s.dir, n))
		}
	}
	return nil
}
