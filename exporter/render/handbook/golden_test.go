package handbook

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden compares the handbooks of two sample exports with
// testdata/: Spanish (left to right, one fallback node) and the Houston ISD
// variant in Arabic (right to left, many fallback nodes, two variant
// levels).
func TestGolden(t *testing.T) {
	t.Parallel()
	r := newRenderer(t, Options{})
	for _, dir := range []string{"algebra-1/texas/es", "algebra-1/houston-isd/ar"} {
		t.Run(dir, func(t *testing.T) {
			tr, info := sample(t, dir)
			got := render(t, r, tr, info)
			checkDocument(t, got)
			golden := filepath.Join("testdata", strings.ReplaceAll(dir, "/", "-")+".golden.html")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s (run go test -update to accept):\n%s", dir, golden, firstDiff(string(want), got))
			}
		})
	}
}
