// Package etagcachetest checks the folder of an ETag cache from the
// outside, for tests that kill or damage a run and then look at what it
// left. Only tests import it, so none of it ships in the curex binary.
package etagcachetest

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/curex/curex/exporter/internal/atomicfile"
	"github.com/curex/curex/exporter/internal/etagcache/internal/entry"
)

// Verify reads every entry of the cache folder dir (an
// etagcache.DiskCache's) and checks it as DiskCache.Get would: header,
// lengths, checksum, and that the file is where its key belongs. It
// returns the number of good entries and the files that are not
// (leftover temporary files of an interrupted Put are neither). Verify
// changes nothing.
func Verify(dir string) (good int, bad []string, err error) {
	dir, err = filepath.Abs(dir)
	if err != nil {
		return 0, nil, fmt.Errorf("cache: verify: %w", err)
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// Entries live in the 256 folders 00 to ff; other folders
			// (state/, a publishing copy) hold no entry.
			if p != dir && (filepath.Dir(p) != dir || !isHexByte(d.Name())) {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Dir(p) == dir || atomicfile.IsTemp(d.Name()) || strings.Contains(d.Name(), ".tmp-") /* before atomicfile */ {
			return nil
		}
		data, _, err := entry.ReadFile(p)
		if err == nil {
			var e entry.Entry
			if e, err = entry.Decode(data); err == nil && entry.Path(dir, e.Key) != p {
				err = entry.ErrCorrupt
			}
		}
		if err != nil {
			bad = append(bad, p)
			return nil
		}
		good++
		return nil
	})
	if err != nil {
		return good, bad, fmt.Errorf("cache: verify: %w", err)
	}
	return good, bad, nil
}

// isHexByte reports whether name is two lower-case hex digits, the name of
// an entry folder.
func isHexByte(name string) bool {
	if len(name) != 2 {
		return false
	}
	for _, r := range name {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}
