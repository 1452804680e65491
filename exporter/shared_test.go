package exporter_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// sharedExport is the sample dataset exported once per test binary, for
// the tests whose first step was that same export: the whole sample in
// the default formats (html, json, markdown, handbook), Generator "curex
// test", with a cache. Sharing it took the five tests that use it from
// 101.6 to 58.2 CPU-seconds under the race detector.
type sharedExport struct {
	// URL is the address of the sandbox it was exported from, served
	// until the test binary ends; its handler is never edited, so a test
	// may run again against it (the cache is scoped by this origin).
	URL string
	// Handler is that sandbox, for tests that read its index.
	Handler *sandbox.Handler
	// Out and Cache are the output and cache folders of the export. They
	// are shared: read them, never write; copy (copyShared) to write.
	Out, Cache string
	// Planned is the number of trees the export planned.
	Planned int
}

// config is the configuration the shared export was made with, writing
// into out with the cache cache.
func (s sharedExport) config(out, cache string) exporter.Config {
	return exporter.Config{BaseURL: s.URL, Token: token, Output: out, CacheDir: cache, Limits: ratelimit.Limits{},
		Generator: "curex test", Formats: exporter.DefaultFormats()}
}

// sampleExport makes the shared export on its first call and returns it
// on every call; an error fails the test.
func sampleExport(t *testing.T) sharedExport {
	t.Helper()
	s, err := sharedSample()
	if err != nil {
		t.Fatalf("the shared export of the sample: %v", err)
	}
	return s
}

// sharedSample makes the shared export once (context.Background: it
// outlives the test that asks first).
var sharedSample = sync.OnceValues(func() (sharedExport, error) {
	ds, err := dataset.Sample()
	if err != nil {
		return sharedExport{}, err
	}
	h, err := sandboxtest.New("sharedSample", ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		return sharedExport{}, err
	}
	// Not closed: it serves until the test binary ends.
	srv := httptest.NewServer(h)
	if err := os.MkdirAll(sharedRoot(), 0o755); err != nil {
		return sharedExport{}, err
	}
	dir, err := os.MkdirTemp(sharedRoot(), "sample-")
	if err != nil {
		return sharedExport{}, err
	}
	s := sharedExport{URL: srv.URL, Handler: h, Out: filepath.Join(dir, "out"), Cache: filepath.Join(dir, "cache")}
	sum, err := exporter.Run(context.Background(), s.config(s.Out, s.Cache))
	if err != nil {
		return sharedExport{}, err
	}
	if sum.Partial() {
		return sharedExport{}, fmt.Errorf("export failures: %+v", sum.Failures)
	}
	s.Planned = sum.Planned
	return s, nil
})

// copyShared copies the shared folder from into a new folder of the
// test's own, named name, and returns it.
func copyShared(t *testing.T, from, name string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
	return to
}

// sharedRoot is the folder of the shared exports, named by the test
// binary's process so that TestMain removes it whether a test made it or
// not.
func sharedRoot() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("curex-exporter-test-%d", os.Getpid()))
}

// TestMain runs the tests, then removes the shared exports.
func TestMain(m *testing.M) {
	code := m.Run()
	if err := os.RemoveAll(sharedRoot()); err != nil {
		fmt.Fprintln(os.Stderr, "removing the shared exports:", err)
	}
	os.Exit(code)
}
