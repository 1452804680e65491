package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/crash"
)

// TestCrashReportHasNoToken makes a command read the token the way export,
// plan and whoami do, then panic with values that carry it, in the command
// or in a goroutine of its own: the report names the bug, shows the stack,
// and never the token.
func TestCrashReportHasNoToken(t *testing.T) {
	const tok = "crash-test-token-5f3a9c"
	t.Setenv("CURRICULUM_API_TOKEN", tok)
	tests := []struct {
		name string
		run  func(c exporter.Config) error
		want string
	}{
		{"error wrapping the token", func(c exporter.Config) error {
			panic(fmt.Errorf("request with Authorization: Bearer %s failed", c.Token))
		}, "Bearer [redacted] failed"},
		{"the whole configuration", func(c exporter.Config) error { panic(fmt.Sprintf("%+v", c)) }, "Token:[redacted]"},
		{"a runtime error", func(c exporter.Config) error {
			parts := strings.Split(c.Token, "-")
			fmt.Println(parts[len(parts)]) // out of range
			return nil
		}, "index out of range [4] with length 4"},
		// A panic in one of the run's goroutines comes back as an error
		// (crash.Recover), wrapped on its way up.
		{"in a worker goroutine", func(c exporter.Config) error {
			var err error
			var wg sync.WaitGroup
			wg.Go(func() {
				defer crash.Recover(&err)
				panic(fmt.Errorf("page for token %s", c.Token))
			})
			wg.Wait()
			return fmt.Errorf("website: %w", err)
		}, "page for token [redacted]"},
	}
	for _, tt := range tests {
		for _, format := range []string{"text", "json"} {
			t.Run(tt.name+"/"+format, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				g := &globals{stdout: &stdout, stderr: &stderr}
				root := newRoot(g)
				f := &apiFlags{}
				boom := &cobra.Command{Use: "boom", RunE: func(cmd *cobra.Command, _ []string) error {
					c := exporter.Config{}
					if err := f.config(g, &c); err != nil {
						return err
					}
					return tt.run(c)
				}}
				f.register(boom)
				root.AddCommand(boom)
				code := execute(context.Background(), g, root, []string{"boom", "--base-url", "https://api.example.org", "--log-format", format})
				out := stdout.String() + stderr.String()
				if code != exitFailed {
					t.Errorf("exit code %d, want %d", code, exitFailed)
				}
				if strings.Contains(out, tok) {
					t.Fatalf("the crash report shows the token:\n%s", out)
				}
				wants := []string{"curex: internal error", tt.want, "goroutine ", "crash_test.go"}
				if format == "json" {
					// One record a line, the stack a field of one.
					wants[0] = `"msg":"internal error`
					for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
						if !json.Valid([]byte(line)) {
							t.Errorf("prose on stderr under --log-format json: %q", line)
						}
					}
				}
				for _, want := range wants {
					if !strings.Contains(out, want) {
						t.Errorf("the crash report lacks %q:\n%s", want, out)
					}
				}
			})
		}
	}
}

func TestSecretsRedact(t *testing.T) {
	var s secrets
	s.add("")
	s.add("abc")
	s.add("xyz")
	for in, want := range map[string]string{
		"":                 "",
		"no secret here":   "no secret here",
		"abc and xyz, abc": "[redacted] and [redacted], [redacted]",
	} {
		if got := s.redact(in); got != want {
			t.Errorf("redact(%q) = %q, want %q", in, got, want)
		}
	}
}
