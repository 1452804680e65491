package crash

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// at returns s[i]: out of range, a runtime error.
func at(s []int, i int) int { return s[i] }

func TestRecover(t *testing.T) {
	tests := []struct {
		name  string
		fn    func() error
		value string // the panic's value, "" for no panic
		err   error  // the error kept when there is no panic
	}{
		{"no panic", func() error { return nil }, "", nil},
		{"an error, no panic", func() error { return errors.New("plain") }, "", errors.New("plain")},
		{"a panic", func() error { panic("boom") }, "boom", nil},
		{"a runtime error", func() error { return fmt.Errorf("%d", at(nil, 1)) }, "index out of range", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			var wg sync.WaitGroup
			wg.Go(func() {
				defer Recover(&err)
				err = tc.fn()
			})
			wg.Wait()
			var pe *PanicError
			if tc.value == "" {
				if errors.As(err, &pe) {
					t.Fatalf("got %v, want no panic error", err)
				}
				if (err == nil) != (tc.err == nil) || err != nil && err.Error() != tc.err.Error() {
					t.Fatalf("got %v, want %v", err, tc.err)
				}
				return
			}
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *PanicError", err)
			}
			if !strings.Contains(pe.Error(), tc.value) || !strings.Contains(string(pe.Stack), "crash.TestRecover") {
				t.Errorf("error %q, stack %q: want the value and the goroutine's stack", pe.Error(), pe.Stack)
			}
		})
	}
}
