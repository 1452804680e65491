package markdown

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/model"
)

// readZip returns the entries of a zip archive in order.
func readZip(t *testing.T, data []byte) []*zip.File {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return zr.File
}

// TestZipHoldsTheFiles checks that the archive holds exactly the bundle's
// files, in the order written, under one folder named after the export,
// with the tree's resolution time and fixed permissions.
func TestZipHoldsTheFiles(t *testing.T) {
	tr := sample(t, "algebra-1/houston-isd/ar")
	w, e := write(t, tr, Options{})
	files := w.bundleFiles(e)
	var order []string
	for _, name := range w.order {
		if rest, ok := strings.CutPrefix(name, e.Dir); ok {
			order = append(order, rest)
		}
	}
	if w.order[len(w.order)-1] != e.Zip {
		t.Errorf("the archive is written last, got order %q", w.order)
	}
	entries := readZip(t, w.files[e.Zip])
	if len(entries) != len(files) || len(entries) != e.Files {
		t.Fatalf("%d entries, %d files, Entry.Files %d", len(entries), len(files), e.Files)
	}
	for i, f := range entries {
		name, ok := strings.CutPrefix(f.Name, "algebra-1-houston-isd-ar/")
		if !ok {
			t.Errorf("entry %q is not under the export's folder", f.Name)
		}
		if name != order[i] {
			t.Errorf("entry %d is %q, want %q", i, name, order[i])
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, files[name]) {
			t.Errorf("entry %s differs from the file", name)
		}
		if f.Method != zip.Deflate || f.Mode() != 0o644 || !f.Modified.Equal(tr.ResolvedAt) {
			t.Errorf("entry %s: method %d, mode %v, modified %v", name, f.Method, f.Mode(), f.Modified)
		}
	}
}

// TestZipTime clamps resolution times to what zip can record.
func TestZipTime(t *testing.T) {
	for _, tc := range []struct{ in, want time.Time }{
		{time.Time{}, time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)},
		{time.Date(1979, 12, 31, 23, 0, 0, 0, time.UTC), time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)},
		{time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2106, 1, 1, 0, 0, 0, 0, time.UTC)},
		{time.Date(2026, 2, 24, 19, 20, 1, 999, time.FixedZone("CET", 3600)), time.Date(2026, 2, 24, 18, 20, 0, 0, time.UTC)},
	} {
		tr := testTree(testNode("n1", "One"))
		tr.ResolvedAt = tc.in
		w, e := write(t, tr, Options{})
		for _, f := range readZip(t, w.files[e.Zip]) {
			// MS-DOS times have a resolution of two seconds; the extended
			// timestamp field carries the exact second.
			if !f.Modified.Equal(tc.want) && !f.Modified.Equal(tc.want.Add(time.Second)) {
				t.Errorf("ResolvedAt %v: entry modified %v, want %v", tc.in, f.Modified, tc.want)
			}
		}
	}
}

// shuffled returns a deep copy of t whose attribute maps are filled in
// reverse key order and whose raw values are fresh slices.
func shuffled(t *model.Tree) *model.Tree {
	out := *t
	var cp func(ns []*model.Node) []*model.Node
	cp = func(ns []*model.Node) []*model.Node {
		var res []*model.Node
		for _, n := range ns {
			c := *n
			keys := slices.Sorted(maps.Keys(n.Attributes))
			slices.Reverse(keys)
			c.Attributes = make(map[string]json.RawMessage, len(keys))
			for _, k := range keys {
				c.Attributes[k] = slices.Clone(n.Attributes[k])
			}
			c.Children = cp(n.Children)
			res = append(res, &c)
		}
		return res
	}
	out.Nodes = cp(t.Nodes)
	return &out
}

// TestDeterministic writes the same trees twice, the second time with
// attribute maps filled in another order, and wants the same bytes.
func TestDeterministic(t *testing.T) {
	for _, dir := range []string{"algebra-1/texas/es", "introduction-to-computer-science/summer-intensive/ar"} {
		for _, hugo := range []bool{false, true} {
			tr := sample(t, dir)
			a, _ := write(t, tr, Options{Hugo: hugo})
			b, _ := write(t, shuffled(tr), Options{Hugo: hugo})
			if !slices.Equal(a.order, b.order) {
				t.Fatalf("%s: files written in another order", dir)
			}
			for name, data := range a.files {
				if !bytes.Equal(data, b.files[name]) {
					t.Errorf("%s: %s differs between two writes", dir, name)
				}
			}
		}
	}
}
