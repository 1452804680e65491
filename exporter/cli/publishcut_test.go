package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"
)

// cancelOnLine is a writer that cancels, with cause, once a line holding
// marker has been written to it.
type cancelOnLine struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	marker string
	cancel func()
	once   sync.Once
}

func (w *cancelOnLine) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.marker) {
		w.once.Do(w.cancel)
	}
	return len(p), nil
}

func (w *cancelOnLine) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestInterruptedPublishSaysWhatItChanged: a publish that a signal stops
// after its first upload has changed the target, so the message must not
// say "previous output untouched" (before: it did); one stopped before
// any upload still says so.
func TestInterruptedPublishSaysWhatItChanged(t *testing.T) {
	tests := []struct {
		name, marker string
		want         []string
		notWant      string
	}{
		{name: "after the first upload", marker: `msg="publish: upload"`,
			want:    []string{"curex: interrupted while publishing: ", " objects uploaded and 0 deleted at file://", "publish again to finish"},
			notWant: "untouched"},
		{name: "before any upload", marker: `msg="publish: plan"`,
			want: []string{"curex: interrupted; previous output untouched"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := t.TempDir()
			dir := writeOutput(t, sampleOutput(40))
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			stderr := &cancelOnLine{marker: tt.marker, cancel: func() { cancel(&interrupted{sig: os.Interrupt}) }}
			var stdout bytes.Buffer
			code := run(ctx, []string{"publish", "--log-level", "debug", "--concurrency", "1", dir, "file://" + target}, &stdout, stderr)
			if code != exitSIGINT {
				t.Fatalf("exit %d, want %d: %s", code, exitSIGINT, stderr)
			}
			last := stderr.String()
			if i := strings.LastIndex(strings.TrimSuffix(last, "\n"), "\n"); i >= 0 {
				last = last[i+1:]
			}
			for _, w := range tt.want {
				if !strings.Contains(last, w) {
					t.Errorf("last line %q lacks %q", last, w)
				}
			}
			if tt.notWant != "" && strings.Contains(last, tt.notWant) {
				t.Errorf("last line %q says %q", last, tt.notWant)
			}
		})
	}
}
