package exporter_test

import (
	"io/fs"
	"path/filepath"
	"sync"
	"testing"

	"github.com/spf13/afero"

	"github.com/curex/curex/exporter/internal/render/jsonbundle/treeschema"
)

// bundleValidator is the schema of tree.json, compiled once for the tests.
var bundleValidator = sync.OnceValues(treeschema.NewValidator)

// checkBundlesOn validates every bundles/**/tree.json of the output folder
// out on fsys against docs/schema/tree.schema.json (the validator of
// jsonbundle), reports each one that does not match, and fails unless it
// found exactly want bundles: one per export.
func checkBundlesOn(t *testing.T, fsys afero.Fs, out string, want int) {
	t.Helper()
	v, err := bundleValidator()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(out, "bundles")
	n := 0
	err = afero.Walk(fsys, root, func(p string, info fs.FileInfo, err error) error {
		if err != nil || info.IsDir() || info.Name() != "tree.json" {
			return err
		}
		data, err := afero.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		n++
		if err := v.Validate(data); err != nil {
			rel, _ := filepath.Rel(out, p)
			t.Errorf("%s: schema: %v", filepath.ToSlash(rel), err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Errorf("%s: %d JSON bundles, want %d", out, n, want)
	}
}

// checkBundles is checkBundlesOn for an output folder on disk.
func checkBundles(t *testing.T, out string, want int) {
	t.Helper()
	checkBundlesOn(t, afero.NewOsFs(), out, want)
}
