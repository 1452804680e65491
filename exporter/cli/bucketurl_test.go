package cli

import (
	"bytes"
	"context"
	"path/filepath"
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

// TestExportChecksBucketRegionAndCredentials (issue 26 §5): curex export
// --output s3://bucket/www with no region exported everything and then
// failed with the SDK's text; with no credentials, with a long error of
// the instance metadata service. Both are usage errors before the first
// API request, naming what to set. Offline: no metadata service, no AWS
// file of the machine's.
func TestExportChecksBucketRegionAndCredentials(t *testing.T) {
	url, requests := countingSandbox(t)
	t.Setenv("CURRICULUM_API_TOKEN", "sandbox-riverbend-token")
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE",
		"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE",
		"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI"} {
		t.Setenv(k, "")
	}
	dir := t.TempDir()
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	for _, tc := range []struct {
		name, url string
		says      []string
	}{
		{"no region", "s3://my-site/www", []string{"s3://my-site/www", "no region", "?region=", "AWS_REGION"}},
		{"no credentials", "s3://my-site/www?region=eu-west-1", []string{"s3://my-site/www", "no credentials", "AWS_ACCESS_KEY_ID", "AWS_PROFILE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requests.Store(0)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"export", "--base-url", url, "--output", tc.url,
				"--cache-dir", t.TempDir(), "--formats", "json", "--progress", "none"}, &stdout, &stderr)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitUsage, stderr.String())
			}
			for _, w := range tc.says {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q does not say %q", stderr.String(), w)
				}
			}
			if strings.Contains(stderr.String(), "metadata") || strings.Contains(stderr.String(), "operation error") {
				t.Errorf("stderr carries the SDK's text: %q", stderr.String())
			}
			if n := requests.Load(); n != 0 {
				t.Errorf("%d API requests before the bucket was refused, want 0", n)
			}
		})
	}
}
