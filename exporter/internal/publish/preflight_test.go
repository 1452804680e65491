//go:build !nopublish

package publish

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// clearAWSEnv gives the test an AWS environment of its own: no variable
// of the machine's, no file of its home, and no instance metadata service
// (nothing reaches the network).
func clearAWSEnv(t *testing.T) string {
	t.Helper()
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE",
		"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE",
		"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"} {
		t.Setenv(k, "")
	}
	dir := t.TempDir()
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	return dir
}

// TestS3RegionAndCredentialsBeforeAnyRequest (issue 26 §5): an s3://
// URL with no region exported everything and then failed with the SDK's
// "Invalid region: region was not a valid DNS name"; with no credentials
// it failed with a long error of the instance metadata service. CheckURL
// (curex export runs it before its first API request) and Publish now
// refuse both at once, naming what to set.
func TestS3RegionAndCredentialsBeforeAnyRequest(t *testing.T) {
	const creds = "[default]\naws_access_key_id = AKIATEST\naws_secret_access_key = notasecret\n"
	for _, tc := range []struct {
		name  string
		url   string
		env   map[string]string
		files map[string]string // config, credentials
		want  error             // nil: accepted
		says  []string
	}{
		{name: "no region", url: "s3://bucket/www", want: ErrNoRegion,
			says: []string{"s3://bucket/www", "?region=", "AWS_REGION"}},
		{name: "no region, credentials given", url: "s3://bucket/www",
			env: map[string]string{"AWS_ACCESS_KEY_ID": "AKIATEST", "AWS_SECRET_ACCESS_KEY": "notasecret"}, want: ErrNoRegion},
		{name: "no credentials", url: "s3://bucket/www?region=eu-west-1", want: ErrNoCredentials,
			says: []string{"s3://bucket/www", "AWS_ACCESS_KEY_ID", "AWS_PROFILE", "?anonymous=true"}},
		{name: "no credentials, region from the environment", url: "s3://bucket/www",
			env: map[string]string{"AWS_REGION": "eu-west-1"}, want: ErrNoCredentials},
		{name: "region and keys from the environment", url: "s3://bucket/www",
			env: map[string]string{"AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "AKIATEST", "AWS_SECRET_ACCESS_KEY": "notasecret"}},
		{name: "a profile's region and credentials", url: "s3://bucket/www?profile=site",
			files: map[string]string{"config": "[profile site]\nregion = eu-west-1\n", "credentials": strings.Replace(creds, "default", "site", 1)}},
		{name: "a public bucket", url: "s3://bucket/www?region=us-east-1&anonymous=true"},
		{name: "an S3-compatible server still needs a region", url: "s3://bucket/www?endpoint=http://127.0.0.1:9&use_path_style=true",
			env: map[string]string{"AWS_ACCESS_KEY_ID": "AKIATEST", "AWS_SECRET_ACCESS_KEY": "notasecret"}, want: ErrNoRegion},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := clearAWSEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			for name, body := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := CheckURL(context.Background(), tc.url)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("CheckURL: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("CheckURL: %v, want %v", err, tc.want)
			}
			for _, w := range tc.says {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			for _, sdk := range []string{"IMDS", "imds", "metadata", "169.254", "operation error", "notasecret"} {
				if strings.Contains(err.Error(), sdk) {
					t.Errorf("error %q carries %q", err, sdk)
				}
			}
			// Publish passes the same gate before it lists anything.
			if _, perr := Publish(context.Background(), writeSite(t, defaultSpec().files()), tc.url, Options{}); !errors.Is(perr, tc.want) {
				t.Errorf("Publish: %v, want %v", perr, tc.want)
			}
		})
	}
}
