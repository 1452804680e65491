package output

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/afero"
)

// TestCancelledWriterStops cancels a run's context at each stage of a
// writer's life: before a page is written, in the middle of carrying over
// a folder of 50 files, and just before the commit. From then on every
// Write, CarryOver and Commit fails with context.Canceled, the carry-over
// stops at the next file, and after Abort the previous output is as it
// was with nothing beside it.
func TestCancelledWriterStops(t *testing.T) {
	for _, at := range []string{"write", "carry", "commit"} {
		t.Run(at, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "out")
			prev := map[string]string{}
			for i := range 50 {
				prev[fmt.Sprintf("c/v/es/n%02d/index.html", i)] = fmt.Sprintf("page %d", i)
			}
			run(t, root, prev, true)
			before := tree(t, root)

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			w, err := BeginContext(ctx, afero.NewOsFs(), root)
			if err != nil {
				t.Fatal(err)
			}
			carried := 0
			w.hook = func(step string) {
				if step != "carry" {
					return
				}
				carried++
				if at == "carry" && carried == 3 {
					cancel()
				}
			}
			if at == "write" {
				cancel()
			}
			err = w.Write("c/v/en/index.html", []byte("new"))
			if at == "write" != errors.Is(err, context.Canceled) {
				t.Fatalf("Write: %v", err)
			}
			_, err = w.CarryOver("c/v/es")
			if at != "commit" && !errors.Is(err, context.Canceled) {
				t.Fatalf("CarryOver: %v, want context.Canceled", err)
			}
			if at == "carry" && carried != 3 {
				t.Errorf("%d files carried over, the last after the cancellation", carried)
			}
			cancel()
			if err := w.Commit(&Manifest{Generator: "test"}); !errors.Is(err, context.Canceled) {
				t.Fatalf("Commit: %v, want context.Canceled", err)
			}
			if err := w.Abort(); err != nil {
				t.Fatal(err)
			}
			if after := tree(t, root); after != before {
				t.Errorf("the output changed:\n%s\nwant:\n%s", after, before)
			}
			entries, err := os.ReadDir(filepath.Dir(root))
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 {
				t.Errorf("beside the output: %v", entries)
			}
		})
	}
}
