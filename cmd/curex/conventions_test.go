package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestDidYouMean: a mistyped command is a usage error (exit 2) that
// suggests the nearest commands, as cobra does, whether or not flags
// follow it; a word near no command gets no suggestion.
func TestDidYouMean(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		suggest string // "" for none
	}{
		{[]string{"exprot"}, "export"},
		{[]string{"exprot", "--base-url", "http://127.0.0.1:1", "--output", "x"}, "export"},
		{[]string{"biuld"}, "build"},
		{[]string{"pubish", "out", "mem://"}, "publish"},
		{[]string{"whoamii"}, "whoami"},
		{[]string{"frobnicate"}, ""},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tt.args, &out, &errOut)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d: %s", code, exitUsage, errOut.String())
			}
			msg := errOut.String()
			if !strings.HasPrefix(msg, "curex: unknown command \""+tt.args[0]+"\"") {
				t.Errorf("stderr %q does not name the unknown command", msg)
			}
			hasHint := strings.Contains(msg, "Did you mean this?")
			if tt.suggest == "" {
				if hasHint {
					t.Errorf("suggested something for %q: %q", tt.args[0], msg)
				}
				return
			}
			if !hasHint || !strings.Contains(msg, "\n\t"+tt.suggest+"\n") {
				t.Errorf("stderr %q does not suggest %q", msg, tt.suggest)
			}
		})
	}
}
