package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/api"
)

// TestBuildCurriculumFlag (issue 25): after a full export, `curex build
// --curriculum 101` (or algebra-1) exited 1, "cache lacks
// …/curricula/101/variants". The selection flags work in build as in
// export: the same trees, exit 0, no request.
func TestBuildCurriculumFlag(t *testing.T) {
	url := sandboxURL(t)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	cache := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"export", "--base-url", url, "--output", filepath.Join(t.TempDir(), "full"),
		"--cache-dir", cache, "--formats", "json", "--progress", "none"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("export exit %d: %s", code, stderr.String())
	}
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--curriculum", "101"}, "built 16 of 16 trees"},
		{[]string{"--curriculum", "algebra-1"}, "built 16 of 16 trees"},
		{[]string{"--curriculum", "algebra-1", "--variants", "Texas", "--locales", "es"}, "built 1 of 1 trees"},
		{[]string{"--variants", "base"}, "built 8 of 8 trees"},
		{[]string{"--locales", "en"}, "built 7 of 7 trees"},
	} {
		t.Run(strings.Join(tc.flags, " "), func(t *testing.T) {
			stdout.Reset()
			stderr.Reset()
			args := append([]string{"build", "--cache-dir", cache, "--output", filepath.Join(t.TempDir(), "built"), "--formats", "json", "--progress", "none"}, tc.flags...)
			if code := run(context.Background(), args, &stdout, &stderr); code != exitOK || !strings.Contains(stdout.String(), tc.want) {
				t.Fatalf("build %s: exit %d, stdout %q, stderr %q; want exit 0 and %q", strings.Join(tc.flags, " "), code, stdout.String(), stderr.String(), tc.want)
			}
		})
	}
}
