package html

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGolden compares whole pages of the sample site with testdata/.
func TestGolden(t *testing.T) {
	t.Parallel()
	_, w := rendered(t)
	for _, tc := range []struct{ name, page string }{
		{"catalog", "index.html"},
		{"landing", "algebra-1/index.html"},
		{"toc-texas-es", "algebra-1/texas/es/index.html"},
		{"node-texas-es", "algebra-1/texas/es/alg-u1-l1/index.html"},
		{"node-houston-ar-rtl", "algebra-1/houston-isd/ar/alg-u1-l1/index.html"},
		{"node-houston-ar-fallback", "algebra-1/houston-isd/ar/alg-hou-l1/index.html"},
		{"notfound", "404.html"},
		{"robots", "robots.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := w.files[tc.page]
			if !ok {
				t.Fatalf("%s not written", tc.page)
			}
			golden := filepath.Join("testdata", tc.name+".golden"+filepath.Ext(tc.page))
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s (run go test -update to accept):\n%s", tc.page, golden, firstDiff(string(want), string(got)))
			}
		})
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var a, b string
		if i < len(wl) {
			a = wl[i]
		}
		if i < len(gl) {
			b = gl[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n- " + a + "\n+ " + b
		}
	}
	return ""
}

// TestGoldenTree compares every file of one whole rendered tree (Texas in
// Spanish: its contents page, every node page and its search index) with
// one golden file, each file under a "==> path <==" line.
func TestGoldenTree(t *testing.T) {
	t.Parallel()
	_, w := rendered(t)
	const dir = "algebra-1/texas/es/"
	var paths []string
	for p := range w.files {
		if strings.HasPrefix(p, dir) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	if len(paths) < 20 {
		t.Fatalf("only %d files under %s", len(paths), dir)
	}
	var got bytes.Buffer
	for _, p := range paths {
		got.WriteString("==> " + p + " <==\n")
		got.Write(w.files[p])
		got.WriteString("\n")
	}
	golden := filepath.Join("testdata", "tree-texas-es.golden.txt")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("the pages of %s differ from %s (run go test -update to accept):\n%s", dir, golden, firstDiff(string(want), got.String()))
	}
}
