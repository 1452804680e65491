//go:build !nopublish

package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	"gocloud.dev/blob/memblob"

	"github.com/curex/curex/exporter/internal/output"
)

// backend is a bucket the scenarios publish to.
type backend struct {
	name string
	// md5 is true when listings give the MD5 of what was stored, so
	// unchanged objects need no attribute reads.
	md5 bool
	// open prepares an empty bucket and returns a handle for inspecting
	// it (keys in full) and a function that publishes a folder to the
	// prefix "site/" of the same bucket.
	open func(t *testing.T) (inspect *blob.Bucket, publish func(ctx context.Context, dir string, o Options) (*Result, error))
}

const scenarioPrefix = "site/"

func memBackend(name string, opts *memblob.Options) backend {
	return backend{name: name, md5: opts == nil || !opts.NoMD5, open: func(t *testing.T) (*blob.Bucket, func(context.Context, string, Options) (*Result, error)) {
		b := memblob.OpenBucket(opts)
		t.Cleanup(func() { b.Close() })
		return b, func(ctx context.Context, dir string, o Options) (*Result, error) {
			return PublishBucket(ctx, dir, b, scenarioPrefix, o)
		}
	}}
}

func fileBackend() backend {
	return backend{name: "fileblob", md5: true, open: func(t *testing.T) (*blob.Bucket, func(context.Context, string, Options) (*Result, error)) {
		dir := t.TempDir()
		b, err := fileblob.OpenBucket(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		url := "file://" + dir + "?prefix=" + scenarioPrefix
		return b, func(ctx context.Context, site string, o Options) (*Result, error) {
			return Publish(ctx, site, url, o)
		}
	}}
}

// backends are the buckets every scenario runs against: memblob (with and
// without MD5s in listings), fileblob through a file:// URL, and a real S3
// server (versitygw) through an s3:// URL, with MD5 ETags and with
// checksum ETags. The versitygw ones are skipped when it is not installed
// (unless CUREX_REQUIRE_TOOLS=1).
func backends() []backend {
	return []backend{
		memBackend("memblob", nil),
		memBackend("memblob-nomd5", &memblob.Options{NoMD5: true}),
		fileBackend(),
		versitygwBackend("versitygw", true),
		versitygwBackend("versitygw-checksum-etag", false, "--data-integrity-etag"),
	}
}

// TestScenarios publishes a site's life to every backend: a first publish,
// an unchanged republish, a changed node, a removed locale, and a publish
// interrupted midway followed by a good one; plain and with gzip.
func TestScenarios(t *testing.T) {
	for _, be := range backends() {
		for _, gz := range []bool{false, true} {
			name := be.name
			if gz {
				name += "/gzip"
			}
			t.Run(name, func(t *testing.T) { runScenarios(t, be, gz) })
		}
	}
}

func runScenarios(t *testing.T, be backend, gz bool) {
	ctx := context.Background()
	inspect, publish := be.open(t)
	// Objects a publish must leave alone: outside the prefix, and hidden
	// under it.
	for _, key := range []string{"other/keep.txt", scenarioPrefix + ".well-known/keep.txt"} {
		if err := inspect.WriteAll(ctx, key, []byte("not curex's"), nil); err != nil {
			t.Fatal(err)
		}
	}
	opts := Options{Gzip: gz, Concurrency: 3}

	v1 := defaultSpec().files()
	v2 := defaultSpec().with(func(s *siteSpec) { s.edits = map[string]string{"en/linear-equations": "Now with slopes."} }).files()
	v3 := defaultSpec().with(func(s *siteSpec) {
		s.edits = map[string]string{"en/linear-equations": "Now with slopes."}
		s.locales = []string{"en", "es"}
	}).files()
	v4 := defaultSpec().with(func(s *siteSpec) {
		s.edits = map[string]string{"en/linear-equations": "Now with slopes."}
		s.locales = []string{"en", "es"}
		s.css = "body { font-family: sans-serif; }\n" // a new asset name: every page changes
	}).files()

	steps := []struct {
		name       string
		prev, next map[string][]byte
	}{
		{"first publish", nil, v1},
		{"unchanged republish", v1, v1},
		{"changed node", v1, v2},
		{"removed locale", v2, v3},
	}
	for _, st := range steps {
		ok := t.Run(st.name, func(t *testing.T) {
			res, err := publish(ctx, writeSite(t, st.next), opts)
			if err != nil {
				t.Fatal(err)
			}
			wantUp := changedPaths(st.prev, st.next)
			wantDel := withPrefix(scenarioPrefix, removedPaths(st.prev, st.next))
			if got := uploadPaths(res.Plan); !slices.Equal(got, wantUp) {
				t.Errorf("uploaded %q\nwant %q", got, wantUp)
			}
			if !slices.Equal(res.Plan.Delete, wantDel) {
				t.Errorf("deleted %q\nwant %q", res.Plan.Delete, wantDel)
			}
			if res.Uploaded != len(wantUp) || res.Deleted != len(wantDel) || res.Unchanged != len(st.next)-len(wantUp) {
				t.Errorf("result %d uploaded, %d deleted, %d unchanged; want %d, %d, %d",
					res.Uploaded, res.Deleted, res.Unchanged, len(wantUp), len(wantDel), len(st.next)-len(wantUp))
			}
			if st.name == "unchanged republish" {
				want := 0
				if !be.md5 {
					want = len(st.next)
				}
				if res.Plan.Checked != want {
					t.Errorf("%d objects decided by their attributes, want %d", res.Plan.Checked, want)
				}
			}
			if n := len(res.Plan.Upload); n > 0 && res.Plan.Upload[n-1].Path != output.ManifestName {
				t.Errorf("manifest.json is not the last upload: %q", res.Plan.Upload[n-1].Path)
			}
			assertMirror(t, inspect, scenarioPrefix, st.next, gz)
		})
		if !ok {
			return
		}
	}

	const doneBeforeCancel = 3
	ok := t.Run("interrupted publish", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		o := opts
		uploads := 0
		o.Progress = func(e Event) {
			if e.Op == OpUpload {
				if uploads++; uploads == doneBeforeCancel {
					cancel()
				}
			}
		}
		res, err := publish(cctx, writeSite(t, v4), o)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("publish canceled midway: err %v", err)
		}
		if res == nil || res.Uploaded < doneBeforeCancel || res.Deleted != 0 {
			t.Fatalf("result %+v: want at least %d uploads and no deletion", res, doneBeforeCancel)
		}
		// The previous manifest and everything it names are still there.
		got, _ := readObject(t, inspect, scenarioPrefix+output.ManifestName)
		if !bytes.Equal(got, v3[output.ManifestName]) {
			t.Error("manifest.json was replaced by an interrupted publish")
		}
		for p := range v3 {
			if ok, err := inspect.Exists(ctx, scenarioPrefix+p); err != nil || !ok {
				t.Errorf("%s named by the previous manifest is gone (err %v)", p, err)
			}
		}
	})
	if !ok {
		return
	}
	t.Run("publish after interruption", func(t *testing.T) {
		res, err := publish(ctx, writeSite(t, v4), opts)
		if err != nil {
			t.Fatal(err)
		}
		changed := changedPaths(v3, v4)
		if res.Uploaded > len(changed)-doneBeforeCancel || res.Uploaded+res.Unchanged != len(v4) {
			t.Errorf("%d uploaded, %d unchanged: want at most %d uploads (%d changed files, %d done before), %d files in all",
				res.Uploaded, res.Unchanged, len(changed)-doneBeforeCancel, len(changed), doneBeforeCancel, len(v4))
		}
		if want := withPrefix(scenarioPrefix, removedPaths(v3, v4)); !slices.Equal(res.Plan.Delete, want) {
			t.Errorf("deleted %q, want %q", res.Plan.Delete, want)
		}
		assertMirror(t, inspect, scenarioPrefix, v4, gz)
	})
	for _, key := range []string{"other/keep.txt", scenarioPrefix + ".well-known/keep.txt"} {
		if ok, err := inspect.Exists(ctx, key); err != nil || !ok {
			t.Errorf("%s, which is not curex's, is gone (err %v)", key, err)
		}
	}
}

func ExampleResult_Summary() {
	r := &Result{Uploaded: 12, Bytes: 3_400_000, Deleted: 2, Unchanged: 1680, Duration: 1234e6}
	fmt.Println(r.Summary())
	// Output: 12 uploaded (3.4 MB), 2 deleted, 1,680 unchanged in 1.2s
}
