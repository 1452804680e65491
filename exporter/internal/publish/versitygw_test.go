//go:build !nopublish

package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/build"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"gocloud.dev/blob"
)

// The versitygw release the tests run against; `make tools` installs it.
const versitygwInstall = "go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"

const (
	vgwAccess = "curex-test-access"
	vgwSecret = "curex-test-secret-key"
)

// findVersitygw returns the versitygw binary: $CUREX_VERSITYGW, else
// versitygw on PATH, else $(go env GOPATH)/bin/versitygw. It skips the test
// when there is none, or fails it when CUREX_REQUIRE_TOOLS=1. With -short
// (make check), which runs no external program, it skips.
func findVersitygw(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no versitygw (make test runs it)")
	}
	if p := os.Getenv("CUREX_VERSITYGW"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("CUREX_VERSITYGW=%s: %v", p, err)
		}
		return p
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	for _, gopath := range filepath.SplitList(build.Default.GOPATH) {
		p := filepath.Join(gopath, "bin", "versitygw")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	msg := "versitygw (an S3-compatible server) is not installed: `make tools` installs it (" + versitygwInstall + "), or set CUREX_VERSITYGW"
	if os.Getenv("CUREX_REQUIRE_TOOLS") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// startVersitygw starts versitygw in posix mode over a temporary folder on
// a free loopback port, waits until it answers, and stops it when the test
// ends. It returns the endpoint (http://127.0.0.1:PORT).
func startVersitygw(t *testing.T, extra ...string) string {
	t.Helper()
	bin := findVersitygw(t)
	var lastErr error
	for range 3 { // the free port may be taken between probe and start
		endpoint, err := tryStartVersitygw(t, bin, extra)
		if err == nil {
			return endpoint
		}
		lastErr = err
	}
	t.Fatalf("versitygw did not start: %v", lastErr)
	return ""
}

func tryStartVersitygw(t *testing.T, bin string, extra []string) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := ln.Addr().String()
	ln.Close()
	root := t.TempDir()
	args := []string{"--access", vgwAccess, "--secret", vgwSecret, "--port", addr, "--quiet", "posix"}
	args = append(args, extra...)
	args = append(args, root)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY_ID=", "ROOT_SECRET_ACCESS_KEY=", "VGW_PORT=")
	var logs bytes.Buffer // one writer for both: exec then writes from one goroutine
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("start %s: %w", bin, err)
	}
	exited := make(chan struct{})
	var exitErr atomic.Value
	go func() {
		if err := cmd.Wait(); err != nil {
			exitErr.Store(err)
		}
		close(exited)
	}()
	// stop kills the server: its folder is a temporary one, there is
	// nothing to flush, and a graceful stop waits up to 10 s for
	// connections the SDK keeps alive.
	stop := func() {
		_ = cmd.Process.Kill()
		<-exited
	}
	endpoint := "http://" + addr
	client := &http.Client{Timeout: 2 * time.Second}
	for attempt := 0; attempt < 200; attempt++ { // bounded readiness poll: about 10 s at most
		select {
		case <-exited:
			return "", fmt.Errorf("versitygw exited (%v): %s", exitErr.Load(), logs.String())
		default:
		}
		resp, err := client.Get(endpoint + "/")
		if err == nil {
			resp.Body.Close() // any answer (403 without credentials) means it serves
			t.Cleanup(stop)
			return endpoint, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	return "", fmt.Errorf("versitygw did not answer on %s: %s", addr, logs.String())
}

// s3URL is the bucket URL of versitygw at endpoint, with a path prefix.
func s3URL(endpoint, bucket, prefix string) string {
	return "s3://" + bucket + "/" + prefix + "?endpoint=" + endpoint + "&region=us-east-1&use_path_style=true&disable_https=true"
}

// setS3Env gives the AWS SDK the test server's credentials and nothing of
// the machine's own configuration.
func setS3Env(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AWS_ACCESS_KEY_ID", vgwAccess)
	t.Setenv("AWS_SECRET_ACCESS_KEY", vgwSecret)
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}

// openS3 opens bucket on versitygw, creating it first (gocloud cannot
// create buckets: the S3 client underneath does).
func openS3(t *testing.T, endpoint, bucket string) *blob.Bucket {
	t.Helper()
	ctx := context.Background()
	b, err := blob.OpenBucket(ctx, s3URL(endpoint, bucket, ""))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	var client *s3.Client
	if !b.As(&client) {
		t.Fatal("s3blob bucket does not expose its *s3.Client")
	}
	if _, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)}); err != nil {
		t.Fatalf("create bucket %s: %v", bucket, err)
	}
	return b
}

func versitygwBackend(name string, md5 bool, extra ...string) backend {
	return backend{name: name, md5: md5, open: func(t *testing.T) (*blob.Bucket, func(context.Context, string, Options) (*Result, error)) {
		setS3Env(t)
		endpoint := startVersitygw(t, extra...)
		bucket := "curex-" + strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name()))
		if len(bucket) > 63 {
			bucket = bucket[:63]
		}
		bucket = strings.TrimRight(bucket, "-")
		b := openS3(t, endpoint, bucket)
		url := s3URL(endpoint, bucket, strings.TrimSuffix(scenarioPrefix, "/"))
		return b, func(ctx context.Context, dir string, o Options) (*Result, error) {
			return Publish(ctx, dir, url, o)
		}
	}}
}

// TestVersitygwFindsNoBucket checks the error for a bucket that does not
// exist: it names the bucket and keeps the URL's query out.
func TestVersitygwFindsNoBucket(t *testing.T) {
	setS3Env(t)
	endpoint := startVersitygw(t)
	dir := writeSite(t, defaultSpec().files())
	_, err := Publish(context.Background(), dir, s3URL(endpoint, "no-such-bucket", "site"), Options{})
	if err == nil {
		t.Fatal("publish to a missing bucket succeeded")
	}
	if !strings.Contains(err.Error(), "s3://no-such-bucket/site") || strings.Contains(err.Error(), "use_path_style") {
		t.Errorf("error %q: want the bucket named, without the URL's query", err)
	}
	if errors.Is(err, ErrBadURL) {
		t.Errorf("a missing bucket is not a bad URL: %v", err)
	}
}
