// Package cli is the curex command: its subcommands, flags and settings,
// exit codes and reports. cmd/curex is its main; Main is the whole of it,
// so that the command runs in tests without a process of its own.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter/internal/crash"
)

// Exit codes (contract, see docs).
const (
	exitOK      = 0
	exitFailed  = 1
	exitUsage   = 2
	exitPartial = 3
	// exitSIGINT and exitSIGTERM are a run stopped by that signal: 128
	// plus the signal's number, as a shell reports a process it killed.
	exitSIGINT  = 130
	exitSIGTERM = 143
)

// Set by release builds through -ldflags "-X github.com/curex/curex/exporter/cli.version=...
// -X github.com/curex/curex/exporter/cli.commit=...";
// left empty, they come from the build information (version.go).
var (
	version string
	commit  string
)

// Main runs the command line args (without the program name) and returns
// the exit code, with Ctrl-C and SIGTERM stopping it (see notifyContext).
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := notifyContext(context.Background())
	defer stop()
	return run(ctx, args, stdout, stderr)
}

// interrupted is the cause of a context a signal cancelled.
type interrupted struct{ sig os.Signal }

func (e *interrupted) Error() string { return "interrupted by " + e.sig.String() }

// code is the exit code of a run the signal stopped.
func (e *interrupted) code() int {
	if e.sig == syscall.SIGTERM {
		return exitSIGTERM
	}
	return exitSIGINT
}

// notifyContext returns a context that the first SIGINT or SIGTERM
// cancels with an *interrupted cause naming it, so that the exit code can
// tell them apart. After that first signal the default handling comes
// back: a second Ctrl-C ends the process at once (a run killed so leaves
// the previous output too, and its staging folder, which the next run
// removes). stop releases the handler.
func notifyContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			signal.Stop(ch)
			cancel(&interrupted{sig: sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// run executes the command line and returns the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	g := &globals{stdout: stdout, stderr: stderr}
	return execute(ctx, g, newRoot(g), args)
}

// execute runs cmd, the root command made with g, on args; a panic becomes
// a crash report without secrets (recoverCrash).
func execute(ctx context.Context, g *globals, cmd *cobra.Command, args []string) (code int) {
	defer recoverCrash(g.stderr, &g.secrets, &code, g.jsonLog)
	stderr := g.stderr
	// Flag values complete only when the shell asks: cobra keeps the
	// completion functions in a table of its own for the process's life.
	if len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		registerCompletions(cmd)
	}
	// A flag error stops parsing before --log-format is read: the format
	// asked for is taken from the command line (or its variable) first,
	// so that even that error is a JSON record when JSON was asked for.
	if f, ok := logFormatArg(args); ok {
		g.logFormat = f
	} else if v := os.Getenv(envName("log_format")); v != "" {
		g.logFormat = v
	}
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(ctx)
	if g.stopProfile != nil {
		if perr := g.stopProfile(); perr != nil && err == nil {
			err = perr
		}
	}
	code, msg := exitOK, ""
	var pe *crash.PanicError
	var in *interrupted
	var ee *exitError
	switch {
	case err == nil:
	// A panic in one of the run's goroutines, recovered there: the same
	// report as a panic of the command.
	case errors.As(err, &pe):
		writeCrash(stderr, &g.secrets, pe.Value, pe.Stack, g.jsonLog())
		code, msg = exitFailed, fmt.Sprintf("internal error: %v", pe.Value)
	// A run a signal stopped: every stage checks the context, and the
	// output folder is only replaced by a run that finished.
	case errors.As(context.Cause(ctx), &in):
		// A publish cut short has changed its target already.
		msg = "interrupted; previous output untouched"
		if pc := (*publishCut)(nil); errors.As(err, &pc) {
			msg = pc.interruptedMessage()
		}
		code = in.code()
		g.fail(msg, code)
	default:
		code, msg = exitFailed, g.describe(err)
		if errors.As(err, &ee) {
			code = ee.code
		}
		g.fail(msg, code)
	}
	if serr := g.writeSummary(code, g.secrets.redact(msg)); serr != nil {
		if code == exitOK {
			code = exitFailed
		}
		g.fail(serr.Error(), code)
	}
	return code
}

// logFormatArg returns the value of the last --log-format on the command
// line, before any "--" (which ends the flags).
func logFormatArg(args []string) (string, bool) {
	v, ok := "", false
	for i, a := range args {
		switch {
		case a == "--":
			return v, ok
		case a == "--log-format" && i+1 < len(args):
			v, ok = args[i+1], true
		case strings.HasPrefix(a, "--log-format="):
			v, ok = strings.TrimPrefix(a, "--log-format="), true
		}
	}
	return v, ok
}

// exitError carries the exit code a failure maps to.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErr marks err as a usage or configuration error (exit 2).
func usageErr(err error) error { return &exitError{code: exitUsage, err: err} }

// noArgs rejects positional arguments as a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErr(fmt.Errorf("%s: unexpected argument %q (see '%s --help')", cmd.CommandPath(), args[0], cmd.CommandPath()))
	}
	return nil
}
