package exporter_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/output"
)

// TestPlantedLinksAndEditsNeverReachTheSite exports, then plants in the
// output what a careless or hostile user could: a page edited at the same
// size, a tree.json and a changes.json replaced by links to files outside
// (a secret, a forged history). The next run, with nothing changed
// upstream, renders those exports again: no byte from outside and no link
// reaches the output, and manifest.json lists every file with its bytes.
func TestPlantedLinksAndEditsNeverReachTheSite(t *testing.T) {
	t.Parallel()
	// The first export: a copy of the shared export of the sample.
	shared := sampleExport(t)
	out := copyShared(t, shared.Out, "out")
	dir := filepath.Dir(out)
	cfg := shared.config(out, copyShared(t, shared.Cache, "cache"))
	cfg.Revalidate = fresh.Policy{Mode: fresh.Always}
	var trees, changes, pages []string
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.Name() == "tree.json":
			trees = append(trees, p)
		case d.Name() == "changes.json":
			changes = append(changes, p)
		case d.Name() == "index.html" && strings.Count(strings.TrimPrefix(p, out), "/") == 5:
			pages = append(pages, p)
		}
		return nil
	})
	if err != nil || len(trees) < 2 || len(changes) < 3 || len(pages) == 0 {
		t.Fatalf("%d trees, %d changes, %d pages (%v)", len(trees), len(changes), len(pages), err)
	}
	secret := filepath.Join(dir, "secret.json")
	forged := filepath.Join(dir, "forged.json")
	mustWrite(t, secret, `{"SECRET": true}`)
	mustWrite(t, forged, `{"curriculum_id":"x","entries":[{"date":"2020-01-01T00:00:00Z","etag":"\"e\"","previous_etag":"","added":[{"id":"n1","title":"SECRET"}]}]}`)
	// The same size, other bytes.
	page, err := os.ReadFile(pages[0])
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, pages[0], strings.Repeat("X", len(page)))
	for _, link := range []struct{ at, to string }{{trees[0], secret}, {changes[2], forged}} {
		if err := os.Remove(link.at); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(link.to, link.at); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			t.Errorf("%s is a link in the new output", p)
			return nil
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), "SECRET") || strings.Contains(string(b), strings.Repeat("X", 64)) {
			t.Errorf("%s holds bytes planted in the previous output", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkManifestOnDisk(t, out)
}

func mustWrite(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkManifestOnDisk checks that out's manifest.json is curex's and lists
// every file with its size and checksum.
func checkManifestOnDisk(t *testing.T, out string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, output.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := output.ParseOwnManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	got := files(t, out)
	for _, f := range m.Files {
		b, ok := got[filepath.Join(out, filepath.FromSlash(f.Path))]
		sum := sha256.Sum256([]byte(b))
		if !ok || int64(len(b)) != f.Size || hex.EncodeToString(sum[:]) != f.SHA256 {
			t.Errorf("%s: not as manifest.json lists it", f.Path)
		}
	}
	if len(got) != len(m.Files)+1 {
		t.Errorf("%d files on disk, the manifest lists %d", len(got), len(m.Files))
	}
}
