//go:build !nopublish

package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	"gocloud.dev/blob/memblob"

	"github.com/curex/curex/exporter/internal/golden"
	"github.com/curex/curex/exporter/internal/output"
)

func newMem(t *testing.T) *blob.Bucket {
	t.Helper()
	b := memblob.OpenBucket(nil)
	t.Cleanup(func() { b.Close() })
	return b
}

// snapshot returns every object of the bucket with its content.
func snapshot(t *testing.T, b *blob.Bucket) map[string]string {
	t.Helper()
	ctx := context.Background()
	out := map[string]string{}
	iter := b.List(nil)
	for {
		obj, err := iter.Next(ctx)
		if err != nil {
			break
		}
		data, err := b.ReadAll(ctx, obj.Key)
		if err != nil {
			t.Fatal(err)
		}
		out[obj.Key] = string(data)
	}
	return out
}

// largeSite is defaultSpec with many nodes, so that removing a locale
// removes more objects than the deletion guard lets through.
func largeSite(locales ...string) map[string][]byte {
	return defaultSpec().with(func(s *siteSpec) {
		s.locales = locales
		for i := range 12 {
			s.nodes = append(s.nodes, fmt.Sprintf("extra-%02d", i))
		}
	}).files()
}

func TestMassDeleteRule(t *testing.T) {
	tests := []struct {
		del, existing int
		refused       bool
	}{
		{0, 0, false},
		{10, 10, false}, // at most MassDeleteMin: always allowed
		{11, 1000, false},
		{11, 44, false}, // exactly a quarter
		{11, 43, true},
		{250, 1000, false},
		{251, 1000, true},
		{1000, 1000, true},
	}
	for _, tt := range tests {
		if got := massDelete(tt.del, tt.existing); got != tt.refused {
			t.Errorf("massDelete(%d, %d) = %v, want %v", tt.del, tt.existing, got, tt.refused)
		}
	}
}

func TestMassDeleteGuard(t *testing.T) {
	ctx := context.Background()
	b := newMem(t)
	before := largeSite("en", "es", "fr")
	if _, err := PublishBucket(ctx, writeSite(t, before), b, "", Options{}); err != nil {
		t.Fatal(err)
	}
	snap := snapshot(t, b)
	after := largeSite("en")
	dir := writeSite(t, after)
	res, err := PublishBucket(ctx, dir, b, "", Options{})
	var mde *MassDeleteError
	if !errors.Is(err, ErrMassDelete) || !errors.As(err, &mde) {
		t.Fatalf("publish deleting two thirds of the bucket: err %v, want ErrMassDelete", err)
	}
	removed := len(removedPaths(before, after))
	if mde.Delete != removed || mde.Existing != len(before) {
		t.Errorf("error reports %d of %d, want %d of %d", mde.Delete, mde.Existing, removed, len(before))
	}
	if res == nil || len(res.Plan.Delete) != removed || res.Uploaded != 0 {
		t.Errorf("refused publish: result %+v", res)
	}
	if !maps.Equal(snap, snapshot(t, b)) {
		t.Fatal("a refused publish changed the bucket")
	}
	// A dry run shows the plan and says it would be refused.
	if res, err := PublishBucket(ctx, dir, b, "", Options{DryRun: true}); !errors.Is(err, ErrMassDelete) || res == nil || len(res.Plan.Delete) != removed {
		t.Errorf("dry run: %v, %+v", err, res)
	}
	res, err = PublishBucket(ctx, dir, b, "", Options{AllowMassDelete: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Deleted != removed {
		t.Errorf("deleted %d, want %d", res.Deleted, removed)
	}
	assertMirror(t, b, "", after, false)
}

func TestDryRunChangesNothing(t *testing.T) {
	ctx := context.Background()
	b := newMem(t)
	v1 := defaultSpec().files()
	if _, err := PublishBucket(ctx, writeSite(t, v1), b, "site/", Options{}); err != nil {
		t.Fatal(err)
	}
	snap := snapshot(t, b)
	v2 := defaultSpec().with(func(s *siteSpec) {
		s.locales = []string{"en", "es"}
		s.edits = map[string]string{"es/functions": "Funciones."}
	}).files()
	var events []Event
	res, err := PublishBucket(ctx, writeSite(t, v2), b, "site/", Options{DryRun: true, Progress: func(e Event) { events = append(events, e) }})
	if err != nil {
		t.Fatal(err)
	}
	if !res.DryRun || res.Uploaded != 0 || res.Deleted != 0 || len(events) != 0 {
		t.Errorf("dry run did something: %+v, events %v", res, events)
	}
	if !maps.Equal(snap, snapshot(t, b)) {
		t.Fatal("a dry run changed the bucket")
	}
	if got, want := uploadPaths(res.Plan), changedPaths(v1, v2); !slices.Equal(got, want) {
		t.Errorf("plan uploads %q, want %q", got, want)
	}
	var out bytes.Buffer
	if err := res.Plan.Print(&out, 0); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "dryrun.golden"), out.Bytes())

	out.Reset()
	if err := res.Plan.Print(&out, 2); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "... and 5 more uploads") || !strings.Contains(out.String(), "... and 8 more deletions") {
		t.Errorf("plan limited to 2 of each:\n%s", out.String())
	}
}

func TestGzip(t *testing.T) {
	ctx := context.Background()
	b := newMem(t)
	files := defaultSpec().files()
	dir := writeSite(t, files)
	if _, err := PublishBucket(ctx, dir, b, "", Options{Gzip: true}); err != nil {
		t.Fatal(err)
	}
	assertMirror(t, b, "", files, true) // content decompresses to the file
	for p, enc := range map[string]string{
		"index.html": "gzip", "algebra-1/base/en/search.json": "gzip", "sitemap.xml": "gzip", "robots.txt": "gzip",
		"bundles/algebra-1/base/en/markdown/numbers.md": "gzip", "algebra-1/cover.png": "",
	} {
		a, err := b.Attributes(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if a.ContentEncoding != enc {
			t.Errorf("%s: Content-Encoding %q, want %q", p, a.ContentEncoding, enc)
		}
		if raw, _ := b.ReadAll(ctx, p); enc == "gzip" && bytes.Equal(raw, files[p]) {
			t.Errorf("%s: stored uncompressed", p)
		}
	}
	// Compression is deterministic: nothing to do the second time.
	res, err := PublishBucket(ctx, dir, b, "", Options{Gzip: true})
	if err != nil || res.Uploaded != 0 {
		t.Fatalf("gzip republish: %v, %d uploaded", err, res.Uploaded)
	}
	// Turning gzip off re-uploads the text kinds, not the image.
	res, err = PublishBucket(ctx, dir, b, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(uploadPaths(res.Plan), "algebra-1/cover.png") || res.Uploaded != len(files)-1 {
		t.Errorf("gzip off: uploaded %q", uploadPaths(res.Plan))
	}
	assertMirror(t, b, "", files, false)
}

func TestForce(t *testing.T) {
	ctx := context.Background()
	b := newMem(t)
	files := defaultSpec().files()
	dir := writeSite(t, files)
	if _, err := PublishBucket(ctx, dir, b, "", Options{}); err != nil {
		t.Fatal(err)
	}
	res, err := PublishBucket(ctx, dir, b, "", Options{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Uploaded != len(files) || res.Plan.Upload[0].Reason != ReasonForced {
		t.Errorf("forced publish: %d uploaded of %d", res.Uploaded, len(files))
	}
}

func TestRefusesFoldersItCannotPublish(t *testing.T) {
	ctx := context.Background()
	b := newMem(t)
	files := defaultSpec().files()

	noManifest := maps.Clone(files)
	delete(noManifest, output.ManifestName)

	unsafe := maps.Clone(files)
	m := &output.Manifest{Files: []output.ManifestFile{{Path: "../outside.html", Size: 1, SHA256: "00"}}}
	unsafe[output.ManifestName], _ = m.Encode()

	incomplete := maps.Clone(files)
	delete(incomplete, "algebra-1/base/es/index.html")

	notJSON := maps.Clone(files)
	notJSON[output.ManifestName] = []byte("<html>")

	tests := []struct {
		name  string
		dir   string
		want  error
		words string
	}{
		{"no manifest.json", writeSite(t, noManifest), output.ErrNotOutput, "no manifest.json"},
		{"manifest.json not JSON", writeSite(t, notJSON), output.ErrNotOutput, "manifest.json"},
		{"unsafe manifest path", writeSite(t, unsafe), ErrUnsafePath, "../outside.html"},
		{"file missing", writeSite(t, incomplete), ErrIncomplete, "algebra-1/base/es/index.html"},
		{"no folder", filepath.Join(t.TempDir(), "missing"), os.ErrNotExist, "missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := PublishBucket(ctx, tt.dir, b, "", Options{})
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.words) {
				t.Fatalf("err %v: want %v mentioning %q", err, tt.want, tt.words)
			}
			if len(snapshot(t, b)) != 0 {
				t.Fatal("a refused publish wrote to the bucket")
			}
		})
	}
	if _, err := PublishBucket(ctx, writeSite(t, files), b, "../up/", Options{}); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("prefix ../up/: err %v, want ErrUnsafePath", err)
	}
}

// TestPathSafety checks that nothing outside the folder is read: a
// symbolic link to a file outside is skipped, hidden files and folders are
// not published.
func TestPathSafety(t *testing.T) {
	ctx := context.Background()
	b := newMem(t)
	files := defaultSpec().files()
	dir := writeSite(t, files)
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "leak.txt")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink(filepath.Dir(secret), filepath.Join(dir, "leakdir")); err != nil {
		t.Fatal(err)
	}
	if _, err := PublishBucket(ctx, dir, b, "", Options{}); err != nil {
		t.Fatal(err)
	}
	assertMirror(t, b, "", files, false) // exactly the files: no link, no hidden file
	for key := range snapshot(t, b) {
		if strings.Contains(key, "leak") || strings.HasPrefix(key, ".") {
			t.Errorf("published %s", key)
		}
	}
}

// TestManifestLast watches the bucket while a publish runs: hashed assets
// go first; until every other file is uploaded, the bucket's manifest.json
// is the previous one; stale objects are deleted only once the new
// manifest is in place.
func TestManifestLast(t *testing.T) {
	ctx := context.Background()
	b := newMem(t)
	v1 := defaultSpec().files()
	if _, err := PublishBucket(ctx, writeSite(t, v1), b, "", Options{}); err != nil {
		t.Fatal(err)
	}
	v2 := defaultSpec().with(func(s *siteSpec) { s.locales = []string{"en", "es"}; s.css = "p {}" }).files()
	manifest := func() []byte {
		data, err := b.ReadAll(ctx, output.ManifestName)
		if err != nil {
			t.Error(err)
		}
		return data
	}
	var ops []string
	_, err := PublishBucket(ctx, writeSite(t, v2), b, "", Options{Concurrency: 4, AllowMassDelete: true, Progress: func(e Event) {
		ops = append(ops, string(e.Op)+" "+e.Key)
		switch {
		case e.Op == OpUpload && e.Key != output.ManifestName:
			if !bytes.Equal(manifest(), v1[output.ManifestName]) {
				t.Errorf("after uploading %s, manifest.json is already the new one", e.Key)
			}
		default: // the manifest's upload or a deletion
			if !bytes.Equal(manifest(), v2[output.ManifestName]) {
				t.Errorf("%s %s before the new manifest.json is in place", e.Op, e.Key)
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if asset := "upload assets/site." + shortHash("p {}") + ".css"; len(ops) == 0 || ops[0] != asset {
		t.Errorf("the new hashed asset is not uploaded first: %q", ops)
	}
	last := slices.Index(ops, "upload "+output.ManifestName)
	if last < 0 || last != len(changedPaths(v1, v2))-1 {
		t.Errorf("manifest.json uploaded at %d of %q", last, ops)
	}
}

// TestFailedUploadDeletesNothing makes one upload fail for real (a folder
// stands where fileblob must write a file): the error names the object and
// the bucket, nothing is deleted and the manifest stays the previous one.
func TestFailedUploadDeletesNothing(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	url := "file://" + root + "?prefix=www/"
	v1 := defaultSpec().files()
	if _, err := Publish(ctx, writeSite(t, v1), url, Options{}); err != nil {
		t.Fatal(err)
	}
	v2 := defaultSpec().with(func(s *siteSpec) { s.locales = []string{"en"}; s.nodes = append(s.nodes, "blocked") }).files()
	if err := os.MkdirAll(filepath.Join(root, "www/algebra-1/base/en/blocked/index.html/x"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := Publish(ctx, writeSite(t, v2), url, Options{AllowMassDelete: true})
	if err == nil {
		t.Fatal("publish succeeded over a blocked key")
	}
	for _, want := range []string{`"www/algebra-1/base/en/blocked/index.html"`, "file://" + root, "nothing deleted"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	if strings.Contains(err.Error(), "prefix=") {
		t.Errorf("error %q shows the URL's query", err)
	}
	if res == nil || res.Deleted != 0 {
		t.Errorf("result %+v: want no deletion", res)
	}
	b, err := fileblob.OpenBucket(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got, _ := b.ReadAll(ctx, "www/"+output.ManifestName); !bytes.Equal(got, v1[output.ManifestName]) {
		t.Error("manifest.json replaced although an upload failed")
	}
	for _, p := range removedPaths(v1, v2) {
		if ok, _ := b.Exists(ctx, "www/"+p); !ok {
			t.Errorf("%s deleted although an upload failed", p)
		}
	}
}

func TestPublishFileTargetOverlap(t *testing.T) {
	dir := writeSite(t, defaultSpec().files())
	for _, url := range []string{"file://" + dir, "file://" + filepath.Join(dir, "www"), "file://" + filepath.Dir(dir)} {
		if _, err := Publish(context.Background(), dir, url, Options{}); !errors.Is(err, ErrBadURL) {
			t.Errorf("%s: err %v, want ErrBadURL", url, err)
		}
	}
}

func TestPublishMemURL(t *testing.T) {
	res, err := Publish(context.Background(), writeSite(t, defaultSpec().files()), "mem://site", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Target != "mem://site" || res.Uploaded != len(defaultSpec().files()) {
		t.Errorf("result %+v", res)
	}
}

func TestFormat(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1680: "1,680", 1234567: "1,234,567", -1200: "-1,200"} {
		if got := count(n); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0 B", 999: "999 B", 1000: "1.0 kB", 3_400_000: "3.4 MB", 12_000_000_000: "12.0 GB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
	dry := &Result{DryRun: true, Plan: &Plan{Upload: make([]Item, 3), Bytes: 2048, Delete: []string{"x"}}, Unchanged: 5, Duration: 3e6}
	if got, want := dry.Summary(), "3 to upload (2.0 kB), 1 to delete, 5 unchanged in 3ms (dry run)"; got != want {
		t.Errorf("dry-run summary %q, want %q", got, want)
	}
}

func TestKeepFoldersAreNeverDeleted(t *testing.T) {
	if !kept("a/b/c/index.html", []string{"a/b/c"}) || !kept("a/b/c/x/y", []string{"z", "a/b/c/"}) {
		t.Error("a file under a kept folder is not kept")
	}
	if kept("a/b/cd/index.html", []string{"a/b/c"}) || kept("a/b/c", []string{"a/b/c"}) || kept("x", nil) {
		t.Error("kept matches beyond its folders")
	}
}
