//go:build gcs

package publish

import (
	"context"
	"slices"
	"testing"
)

// TestGSURLs: with -tags gcs, gs:// URLs are accepted and checked like
// the others. Nothing opens a bucket here: without credentials the Google
// client would ask the cloud metadata server, which no test may reach.
func TestGSURLs(t *testing.T) {
	if !slices.Contains(Schemes(), "gs") {
		t.Fatalf("Schemes() = %v, want gs", Schemes())
	}
	for raw, want := range map[string]target{
		"gs://my-bucket/site":                {display: "gs://my-bucket/site", open: "gs://my-bucket", prefix: "site/"},
		"gs://my-bucket?prefix=www/":         {display: "gs://my-bucket", open: "gs://my-bucket", prefix: "www/"},
		"gs://my-bucket/a/b?access_id=x%40y": {display: "gs://my-bucket/a/b", open: "gs://my-bucket?access_id=x%40y", prefix: "a/b/"},
	} {
		got, err := parseURL(raw)
		if err != nil || got != want {
			t.Errorf("parseURL(%q) = %+v, %v; want %+v", raw, got, err, want)
		}
	}
	for _, bad := range []string{"gs:///site", "gs://bucket/../x", "gs://user:pw@bucket"} {
		if err := CheckURL(context.Background(), bad); err == nil {
			t.Errorf("CheckURL(%q) accepted", bad)
		}
	}
}
