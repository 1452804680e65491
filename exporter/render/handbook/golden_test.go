package handbook

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/internal/golden"
)

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
			golden.Check(t, filepath.Join("testdata", strings.ReplaceAll(dir, "/", "-")+".golden.html"), []byte(got))
		})
	}
}
