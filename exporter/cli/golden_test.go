package cli

import (
	"bytes"
	"context"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/golden"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// wholeExport is the export the whole-output golden file holds: Algebra 1
// in its Texas variant, in Spanish, in every format but pdf (which needs
// Chromium), with the site-wide files that export writes.
var wholeExport = []string{
	"--curriculum", "101", "--variants", "Texas", "--locales", "es",
	"--formats", "html,markdown,json,handbook",
	"--site-url", "https://curriculum.example.org/",
}

// renderKey matches the render key in manifest.json.
var renderKey = regexp.MustCompile(`"render_key": "[0-9a-f]{64}"`)

// wholeExportDate is the SOURCE_DATE_EPOCH of the golden export
// (2026-02-24T18:30:00Z, after the sample's last edit), so that nothing in
// it depends on when the test runs.
const wholeExportDate = "1771957800"

// TestExportGolden runs `curex export` of one curriculum, one variant and
// one locale against the in-process sandbox and compares every file it
// writes with testdata/export-algebra-1-texas-es.txtar, so that a change
// to what curex writes shows in one diff. Binary files (the Markdown
// zip, images) stand as their size and SHA-256. Run with -update to
// rewrite the archive, then review it with git diff.
func TestExportGolden(t *testing.T) {
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	// The resource form of records, whatever CUREX_SANDBOX_RECORDS says:
	// the ETags in the archive are those the resource form gives.
	h, err := sandbox.New(ds, sandbox.Options{Limits: ratelimit.Limits{}, Records: sandbox.RecordsResource})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	out := filepath.Join(t.TempDir(), "out")
	args := append([]string{"export", "--base-url", srv.URL, "--output", out, "--cache-dir", t.TempDir(), "--progress", "none"}, wholeExport...)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	t.Setenv("SOURCE_DATE_EPOCH", wholeExportDate)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), args, &stdout, &stderr); code != exitOK {
		t.Fatalf("export exit %d: %s", code, stderr.String())
	}

	files := map[string][]byte{}
	err = filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(out, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("the export wrote %d files", len(files))
	}
	// The render key hashes the program itself, so it changes with every
	// build: the archive keeps its shape, not its value.
	if n := len(renderKey.FindAll(files["manifest.json"], -1)); n != 1 {
		t.Fatalf("manifest.json has %d render keys, want 1", n)
	}
	files["manifest.json"] = renderKey.ReplaceAll(files["manifest.json"], []byte(`"render_key": "(varies by build)"`))
	comment := "The files `curex export " + strings.Join(wholeExport, " ") + "`\n" +
		"writes from the sample sandbox (SOURCE_DATE_EPOCH=" + wholeExportDate + "). Binary files stand as\n" +
		"their digest. Rewrite: go test ./exporter/cli/ -run '^TestExportGolden$' -update\n"
	golden.CheckFiles(t, filepath.Join("testdata", "export-algebra-1-texas-es.txtar"), golden.FromMap(comment, files))
}
