package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter/internal/output"
)

// runPublish runs `curex publish args...` and returns the exit code and
// outputs. Until root.go registers the command, it runs it on its own with
// the same error handling as run.
func runPublish(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx := context.Background()
	if c, _, err := newRootCommand(&out, &errOut).Find([]string{"publish"}); err == nil && c.Name() == "publish" {
		code := run(ctx, append([]string{"publish"}, args...), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	g := &globals{logLevel: "info", logFormat: "text", stdout: &out, stderr: &errOut}
	cmd := newPublishCommand(g)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErr(err) })
	cmd.SetArgs(args)
	code := exitOK
	if err := cmd.ExecuteContext(ctx); err != nil {
		fmt.Fprintf(&errOut, "curex: %v\n", err)
		code = exitFailed
		var ee *exitError
		if errors.As(err, &ee) {
			code = ee.code
		}
	}
	return code, out.String(), errOut.String()
}

// writeOutput writes a small output folder with its manifest.json.
func writeOutput(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	m := &output.Manifest{Generator: "curex test"}
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(content))
		m.Files = append(m.Files, output.ManifestFile{Path: p, Size: int64(len(content)), SHA256: hex.EncodeToString(sum[:])})
	}
	data, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, output.ManifestName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func sampleOutput(n int) map[string]string {
	files := map[string]string{
		"index.html":               "<!doctype html><title>Catalog</title>",
		"assets/site.0123abcd.css": "body{}",
	}
	for i := range n {
		files[fmt.Sprintf("c/base/en/node-%02d/index.html", i)] = fmt.Sprintf("<!doctype html><title>Node %d</title>", i)
	}
	return files
}

var summaryLine = regexp.MustCompile(`^published (\S+) to (\S+): (\d+) uploaded \([\d.]+ k?B\), (\d+) deleted, (\d+) unchanged in [\d.]+m?s\n$`)

func TestPublishCommand(t *testing.T) {
	target := t.TempDir()
	url := "file://" + target + "?prefix=www"
	dir := writeOutput(t, sampleOutput(4))

	code, out, errOut := runPublish(t, dir, url)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := summaryLine.FindStringSubmatch(out)
	if m == nil || m[1] != dir || m[2] != "file://"+target || m[3] != "7" || m[4] != "0" || m[5] != "0" {
		t.Fatalf("summary %q", out)
	}
	if _, err := os.Stat(filepath.Join(target, "www", "assets", "site.0123abcd.css")); err != nil {
		t.Fatalf("not published: %v", err)
	}

	// Unchanged: nothing uploaded.
	code, out, _ = runPublish(t, "--gzip=false", "--concurrency", "2", dir, url)
	if m := summaryLine.FindStringSubmatch(out); code != exitOK || m == nil || m[3] != "0" || m[5] != "7" {
		t.Fatalf("republish: exit %d, %q", code, out)
	}

	// A dry run prints the plan and changes nothing.
	smaller := writeOutput(t, sampleOutput(2))
	code, out, errOut = runPublish(t, "--dry-run", smaller, url)
	if code != exitOK {
		t.Fatalf("dry run: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"1 to upload", "2 to delete", "upload www/manifest.json (changed", "delete www/c/base/en/node-03/index.html", "would publish " + smaller} {
		if !strings.Contains(out, want) {
			t.Errorf("dry-run output does not have %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(target, "www", "c", "base", "en", "node-03", "index.html")); err != nil {
		t.Errorf("dry run deleted: %v", err)
	}
}

func TestPublishMassDeleteRefused(t *testing.T) {
	url := "file://" + t.TempDir()
	if code, _, errOut := runPublish(t, writeOutput(t, sampleOutput(40)), url); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	few := writeOutput(t, sampleOutput(2))
	code, _, errOut := runPublish(t, few, url)
	if code != exitUsage || !strings.Contains(errOut, "--allow-mass-delete") || !strings.Contains(errOut, "38 of the 43 objects") {
		t.Fatalf("exit %d, stderr %q: want 2 naming --allow-mass-delete", code, errOut)
	}
	code, out, errOut := runPublish(t, "--allow-mass-delete", few, url)
	if m := summaryLine.FindStringSubmatch(out); code != exitOK || m == nil || m[4] != "38" {
		t.Fatalf("exit %d, %q %q", code, out, errOut)
	}
}

func TestPublishUsageErrors(t *testing.T) {
	site := writeOutput(t, sampleOutput(1))
	notSite := t.TempDir()
	if err := os.WriteFile(filepath.Join(notSite, "index.html"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{site}, "want a folder and a bucket URL"},
		{[]string{site, url, "extra"}, "want a folder and a bucket URL"},
		{[]string{site, "gs://bucket/site"}, `"gs"`},
		{[]string{site, "out"}, "scheme://bucket"},
		{[]string{filepath.Join(notSite, "missing"), url}, "missing"},
		{[]string{notSite, url}, "no manifest.json"},
		{[]string{"--concurrency", "0", site, url}, "--concurrency 0"},
		{[]string{"--no-such-flag", site, url}, "unknown flag"},
		{[]string{site, "file://" + site}, "overlaps"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, errOut := runPublish(t, tt.args...)
			if code != exitUsage || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stderr %q: want %d mentioning %q", code, errOut, exitUsage, tt.want)
			}
			if strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
				t.Fatalf("want one line of error, got %q", errOut)
			}
		})
	}
}

func TestPublishFailureExits1(t *testing.T) {
	target := t.TempDir()
	// A folder where a file must go makes that upload fail.
	if err := os.MkdirAll(filepath.Join(target, "index.html", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runPublish(t, writeOutput(t, sampleOutput(1)), "file://"+target)
	if code != exitFailed || !strings.Contains(errOut, `"index.html"`) || !strings.Contains(errOut, "nothing deleted") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestPublishFlagsForExport(t *testing.T) {
	var f publishFlags
	cmd := &cobra.Command{Use: "export"}
	f.register(cmd, true)
	for _, name := range []string{"gzip", "allow-mass-delete", "publish-concurrency"} {
		if cmd.Flags().Lookup(name) == nil {
			t.Errorf("export lacks --%s", name)
		}
	}
	for _, name := range []string{"dry-run", "force", "concurrency"} {
		if cmd.Flags().Lookup(name) != nil {
			t.Errorf("export has --%s from publish", name)
		}
	}
	f.concurrency = 0
	if err := f.check(context.Background(), "s3://b"); err == nil || !strings.Contains(err.Error(), "--publish-concurrency 0") {
		t.Errorf("check: %v", err)
	}
	a := publishStagingDir("/cache", "s3://b/site?region=eu-west-1")
	if b := publishStagingDir("/cache", "s3://b/site?region=us-east-1"); a != b || !strings.HasPrefix(a, filepath.Join("/cache", "publish")+string(filepath.Separator)) {
		t.Errorf("staging dirs %s, %s: want one per bucket and prefix under /cache/publish", a, b)
	}
	if c := publishStagingDir("/cache", "s3://b/other"); c == a {
		t.Error("two prefixes share a staging folder")
	}
}

// TestExportToBucket exports straight to a bucket (file://), then runs
// again from an empty cache with a request budget too small for every
// tree: the exports not fetched keep their objects in the bucket.
func TestExportToBucket(t *testing.T) {
	url := sandboxURL(t)
	bucket := t.TempDir()
	target := "file://" + filepath.ToSlash(bucket) + "?prefix=www/"
	t.Setenv("CURRICULUM_API_TOKEN", "sandbox-riverbend-token")
	export := func(cache string, extra ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		args := append([]string{"export", "--base-url", url, "--output", target, "--cache-dir", cache, "--formats", "html,json",
			"--progress", "none", "--rate-limit", "1000/1s"}, extra...)
		code := run(context.Background(), args, &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}
	if code, out := export(t.TempDir()); code != exitOK || !strings.Contains(out, "published") {
		t.Fatalf("exit %d: %s", code, out)
	}
	tree := filepath.Join(bucket, "www", "bundles", "introduction-to-computer-science", "summer-intensive", "ja", "tree.json")
	if _, err := os.Stat(tree); err != nil {
		t.Fatal(err)
	}
	// A fresh machine (empty cache), and a budget for discovery and a few
	// trees only: the rest fail, and their objects must stay.
	code, out := export(t.TempDir(), "--max-requests", "12")
	if code != exitPartial {
		t.Fatalf("exit %d, want %d: %s", code, exitPartial, out)
	}
	if _, err := os.Stat(tree); err != nil {
		t.Errorf("an export that was not fetched lost its objects: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(bucket, "www", "introduction-to-computer-science", "summer-intensive", "ja", "index.html")); err != nil {
		t.Errorf("an export that was not fetched lost its pages: %v", err)
	}
}
