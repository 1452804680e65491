//go:build !nopublish

package publish

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"

	"github.com/curex/curex/exporter/internal/output"
)

// ownersFiles are what a site's owner keeps in the bucket beside curex's
// output, written by other tools (no curex metadata).
var ownersFiles = map[string]string{
	"CNAME":                   "www.example.org\n",
	"ads.txt":                 "google.com, pub-0000000000000000, DIRECT\n",
	"google1234abcd.html":     "google-site-verification: google1234abcd.html\n",
	"reports/annual-2025.pdf": "%PDF-1.7 the owner's report\n",
}

// ownedBackends open a bucket the test can seed with objects of its own,
// and publish to it: memblob through PublishBucket, and a folder through
// a file:// URL (seeded as plain files, the way an owner puts them there).
func ownedBackends() []struct {
	name string
	open func(t *testing.T) (seed func(key, data string, meta map[string]string), b *blob.Bucket, publish func(dir string, o Options) (*Result, error))
} {
	return []struct {
		name string
		open func(t *testing.T) (seed func(key, data string, meta map[string]string), b *blob.Bucket, publish func(dir string, o Options) (*Result, error))
	}{
		{"memblob", func(t *testing.T) (func(string, string, map[string]string), *blob.Bucket, func(string, Options) (*Result, error)) {
			b := newMem(t)
			seed := func(key, data string, meta map[string]string) {
				if err := b.WriteAll(context.Background(), key, []byte(data), &blob.WriterOptions{Metadata: meta}); err != nil {
					t.Fatal(err)
				}
			}
			return seed, b, func(dir string, o Options) (*Result, error) {
				return PublishBucket(context.Background(), dir, b, "", o)
			}
		}},
		{"file", func(t *testing.T) (func(string, string, map[string]string), *blob.Bucket, func(string, Options) (*Result, error)) {
			root := t.TempDir()
			b, err := fileblob.OpenBucket(root, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { b.Close() })
			seed := func(key, data string, meta map[string]string) {
				if meta != nil { // written by a tool that keeps metadata (curex)
					if err := b.WriteAll(context.Background(), key, []byte(data), &blob.WriterOptions{Metadata: meta}); err != nil {
						t.Fatal(err)
					}
					return
				}
				full := filepath.Join(root, filepath.FromSlash(key))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			return seed, b, func(dir string, o Options) (*Result, error) {
				return Publish(context.Background(), dir, "file://"+root, o)
			}
		}},
	}
}

// TestFirstPublishLeavesOwnersFiles: a first publish into a bucket that
// already holds the owner's files deletes none of them and says what it
// left alone (before: all four deleted, the guard being under its 10).
func TestFirstPublishLeavesOwnersFiles(t *testing.T) {
	for _, be := range ownedBackends() {
		t.Run(be.name, func(t *testing.T) {
			seed, b, publish := be.open(t)
			for k, v := range ownersFiles {
				seed(k, v, nil)
			}
			site := defaultSpec().files()
			res, err := publish(writeSite(t, site), Options{})
			if err != nil {
				t.Fatal(err)
			}
			snap := snapshot(t, b)
			for k, v := range ownersFiles {
				if snap[k] != v {
					t.Errorf("the owner's %s: %q after the publish", k, snap[k])
				}
			}
			if res.Deleted != 0 || len(res.Plan.Delete) != 0 {
				t.Errorf("deleted %d: %q", res.Deleted, res.Plan.Delete)
			}
			want := slices.Sorted(maps.Keys(ownersFiles))
			if !slices.Equal(res.Plan.LeftAlone, want) {
				t.Errorf("Plan.LeftAlone = %q, want %q", res.Plan.LeftAlone, want)
			}
			if s := res.Summary(); !strings.Contains(s, "4 left alone (not written by curex)") {
				t.Errorf("summary %q does not say what it left alone", s)
			}
			// The next publish, without a locale, deletes that locale's
			// pages (listed by the bucket's manifest) and still nothing of
			// the owner's.
			smaller := defaultSpec().with(func(s *siteSpec) { s.locales = []string{"en", "es"} }).files()
			res, err = publish(writeSite(t, smaller), Options{AllowMassDelete: true})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := res.Plan.Delete, removedPaths(site, smaller); !slices.Equal(got, want) {
				t.Errorf("second publish deleted %q, want %q", got, want)
			}
			snap = snapshot(t, b)
			for k, v := range ownersFiles {
				if snap[k] != v {
					t.Errorf("the owner's %s: %q after the second publish", k, snap[k])
				}
			}
		})
	}
}

// TestDeletesOnlyWhatCurexWrote: a stale object is deleted when the
// bucket's previous manifest.json lists it (even without curex metadata:
// a copy made by another tool) or when it carries curex's checksum
// metadata (written by an interrupted publish the manifest does not
// know); any other object is left alone.
func TestDeletesOnlyWhatCurexWrote(t *testing.T) {
	for _, be := range ownedBackends() {
		t.Run(be.name, func(t *testing.T) {
			seed, b, publish := be.open(t)
			site := defaultSpec().files()
			prev := &output.Manifest{Generator: "curex 0.1.0", Files: []output.ManifestFile{{Path: "old/listed.html"}}}
			for p := range site {
				prev.Files = append(prev.Files, output.ManifestFile{Path: p})
			}
			data, err := json.Marshal(prev)
			if err != nil {
				t.Fatal(err)
			}
			seed(output.ManifestName, string(data), nil)
			seed("old/listed.html", "listed by the previous manifest", nil)
			seed("old/interrupted.html", "written by curex, not in a manifest", map[string]string{metaSHA256: strings.Repeat("0", 64)})
			seed("old/owners.html", "the owner's", nil)
			res, err := publish(writeSite(t, site), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"old/interrupted.html", "old/listed.html"}; !slices.Equal(res.Plan.Delete, want) {
				t.Errorf("deleted %q, want %q", res.Plan.Delete, want)
			}
			if want := []string{"old/owners.html"}; !slices.Equal(res.Plan.LeftAlone, want) {
				t.Errorf("left alone %q, want %q", res.Plan.LeftAlone, want)
			}
			if snapshot(t, b)["old/owners.html"] != "the owner's" {
				t.Error("the owner's file is gone")
			}
		})
	}
}

// TestFileTargetNeverWritesThroughSymlink: a folder inside a file://
// target that is a symbolic link (to a folder elsewhere) is never written
// or deleted through: the publish is refused before anything is written
// (before: fileblob followed the link and wrote the pages into the folder
// it points to).
func TestFileTargetNeverWritesThroughSymlink(t *testing.T) {
	for _, tt := range []struct {
		name string
		link string // a path inside the target made a link to outside
	}{
		{"a page's folder", "algebra-1"},
		{"a nested folder", "algebra-1/base"},
		{"a page itself", "index.html"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			site := defaultSpec().files()
			target, outside := t.TempDir(), t.TempDir()
			full := filepath.Join(target, filepath.FromSlash(tt.link))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			dest := filepath.Join(outside, "victim")
			if !strings.HasSuffix(tt.link, ".html") {
				if err := os.Mkdir(dest, 0o755); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(dest, []byte("the victim"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(dest, full); err != nil {
				t.Fatal(err)
			}
			_, err := Publish(context.Background(), writeSite(t, site), "file://"+target, Options{})
			if !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("err = %v, want ErrUnsafePath naming the symbolic link", err)
			}
			var written []string
			_ = filepath.WalkDir(outside, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && p != dest {
					written = append(written, p)
				}
				return nil
			})
			if len(written) > 0 {
				t.Errorf("written through the link: %q", written)
			}
			if data, err := os.ReadFile(dest); err == nil && string(data) != "the victim" {
				t.Errorf("the link's target now holds %q", data)
			}
			if _, err := os.Stat(filepath.Join(target, "index.html")); tt.link != "index.html" && err == nil {
				t.Error("the refused publish wrote into the target")
			}
		})
	}
}
