// Package crash turns a panic in one of curex's goroutines into an error
// that reaches the command, which reports it without secrets (the token)
// and exits 1, instead of the runtime printing the panic's value and
// ending the process from whatever goroutine it happened in.
package crash

import (
	"fmt"
	"runtime/debug"
)

// PanicError is a recovered panic: its value and the stack of the
// goroutine that panicked. Callers treat it as a bug in curex: the run
// stops and nothing is committed.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("internal error: %v", e.Value) }

// Recover, deferred at the top of a goroutine, turns a panic into a
// *PanicError in *err (replacing what was there). It must be called
// directly by defer.
func Recover(err *error) {
	if v := recover(); v != nil {
		*err = &PanicError{Value: v, Stack: debug.Stack()}
	}
}
