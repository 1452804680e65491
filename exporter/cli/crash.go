package cli

import (
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
)

// secrets holds the values that must never be printed (the API token once
// a command has read it), so that a crash report can take them out.
type secrets struct {
	mu   sync.Mutex
	list []string
}

// add registers s; an empty s is ignored.
func (s *secrets) add(v string) {
	if v == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(s.list, v)
}

// redact replaces every registered secret in text with [redacted].
func (s *secrets) redact(text string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.list {
		text = strings.ReplaceAll(text, v, "[redacted]")
	}
	return text
}

// recoverCrash, deferred by run, turns a panic of the command into a
// report on stderr, with every secret taken out of the panic's value and
// of the stack, and exit code 1: the output folder is as the last complete
// run left it (the export commits atomically), so the report is what a
// user files as a bug. The run's own goroutines recover their panics
// (crash.Recover) and return them as *crash.PanicError, which execute
// reports the same way.
func recoverCrash(stderr io.Writer, s *secrets, code *int, jsonLog func() bool) {
	v := recover()
	if v == nil {
		return
	}
	writeCrash(stderr, s, v, debug.Stack(), jsonLog())
	*code = exitFailed
}

// writeCrash prints the report of a panic with value v and stack, every
// secret taken out; asJSON makes it one log record (--log-format json).
func writeCrash(stderr io.Writer, s *secrets, v any, stack []byte, asJSON bool) {
	const what = "internal error (a bug in curex; the previous output is intact; please report it with what follows)"
	if asJSON {
		slog.New(slog.NewJSONHandler(stderr, nil)).Error(what, "panic", s.redact(fmt.Sprint(v)), "stack", s.redact(string(stack)), "exit_code", exitFailed)
		return
	}
	report := fmt.Sprintf("curex: %s: %v\n\n%s", what, v, stack)
	fmt.Fprint(stderr, s.redact(report))
}
