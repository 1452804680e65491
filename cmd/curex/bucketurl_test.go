package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestExportChecksBucketURLBeforeAnyRequest: curex export --output URL
// with a query parameter the bucket's driver does not take (a typo) is a
// usage error before the first API request, not after a whole export
// (before: every tree fetched, then "open s3://…: unknown query
// parameter" at the publish, exit 1).
func TestExportChecksBucketURLBeforeAnyRequest(t *testing.T) {
	url, requests := countingSandbox(t)
	t.Setenv("CURRICULUM_API_TOKEN", "sandbox-riverbend-token")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	tests := []struct{ url, want string }{
		{"s3://my-site/www?regoin=eu-west-1", "regoin"},
		{"s3://my-site/www?region=eu-west-1&use_path_styl=true", "use_path_styl"},
		{"s3://my-site/www?region=eu-west-1&use_path_style=maybe", "use_path_style"},
		{"file://" + t.TempDir() + "?create_dirs=true", "create_dirs"},
		{"mem://?color=blue", "color"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			requests.Store(0)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"export", "--base-url", url, "--output", tt.url,
				"--cache-dir", t.TempDir(), "--formats", "json", "--progress", "none"}, &stdout, &stderr)
			if code != exitUsage || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q: want %d naming %q", code, stderr.String(), exitUsage, tt.want)
			}
			if n := requests.Load(); n != 0 {
				t.Errorf("%d API requests before the URL was refused, want 0", n)
			}
		})
	}
}
