package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNopublishBuild builds curex with -tags nopublish, the build for
// people who copy the output with rclone or aws s3 sync, and checks that
// publish and export --output URL refuse every bucket URL up front (exit
// 2) saying how this curex was built.
func TestNopublishBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds curex with -tags nopublish")
	}
	bin := filepath.Join(t.TempDir(), "curex")
	// Without a symbol table or DWARF, as a release links it: the link
	// is most of the test's time, and go version -m reads the modules
	// from the build information, which stays.
	build := exec.Command("go", "build", "-tags", "nopublish", "-ldflags=-s -w", "-o", bin, "github.com/curex/curex/cmd/curex")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -tags nopublish: %v\n%s", err, out)
	}
	if out, err := exec.Command("go", "version", "-m", bin).Output(); err != nil || bytes.Contains(out, []byte("aws-sdk-go-v2")) || bytes.Contains(out, []byte("azure-sdk-for-go")) {
		t.Errorf("the nopublish build links the bucket SDKs (%v):\n%s", err, out)
	}
	site := t.TempDir()
	if err := os.WriteFile(filepath.Join(site, "index.html"), []byte("<!doctype html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
	}{
		{"publish to s3", []string{"publish", site, "s3://bucket/www?region=eu-west-1"}},
		{"publish to a folder URL", []string{"publish", site, "file:///tmp/curex-nopublish"}},
		{"export to a bucket", []string{"export", "--base-url", "https://api.example.org", "--output", "azblob://container/www"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, tt.args...)
			cmd.Env = append(os.Environ(), "CURRICULUM_API_TOKEN=unused")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitUsage {
				t.Fatalf("curex %s: %v, want exit %d; stderr %q", strings.Join(tt.args, " "), err, exitUsage, stderr.String())
			}
			if !strings.Contains(stderr.String(), "built without publishing (-tags nopublish)") || !strings.Contains(stderr.String(), "rclone") {
				t.Errorf("stderr %q does not say this curex was built without publishing", stderr.String())
			}
		})
	}
}
