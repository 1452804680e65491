package cli

import (
	"bytes"
	"context"
	"runtime/debug"
	"strings"
	"testing"
)

func TestStampFrom(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{
			{Key: "-trimpath", Value: "true"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: "2026-11-26T01:55:00Z"},
			{Key: "vcs.modified", Value: modified},
		}
	}
	const rev = "358da07aaf1042c3a1d2e5b0c9f8e7d6c5b4a392"
	tests := []struct {
		name                 string
		ldVersion, ldCommit  string
		info                 *debug.BuildInfo
		wantVersion, wantRev string
	}{
		{
			name:      "release build: -ldflags wins over everything",
			ldVersion: "1.4.0", ldCommit: "358da07",
			info:        &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261126015500-358da07aaf10"}, Settings: vcs(rev, "true")},
			wantVersion: "1.4.0", wantRev: "358da07",
		},
		{
			name:        "go install @v1.4.0: the module version, no VCS",
			info:        &debug.BuildInfo{Main: debug.Module{Path: "github.com/curex/curex", Version: "v1.4.0"}},
			wantVersion: "1.4.0", wantRev: "unknown",
		},
		{
			name:        "go install @latest of a prerelease",
			info:        &debug.BuildInfo{Main: debug.Module{Version: "v1.5.0-rc.1"}},
			wantVersion: "1.5.0-rc.1", wantRev: "unknown",
		},
		{
			name:        "go install @main: a pseudo-version names the commit",
			info:        &debug.BuildInfo{Main: debug.Module{Version: "v1.4.1-0.20261126015500-358da07aaf10"}},
			wantVersion: "1.4.1-0.20261126015500-358da07aaf10", wantRev: "358da07aaf10",
		},
		{
			name:        "go build in a clean work tree with no tag",
			info:        &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261126015500-358da07aaf10"}, Settings: vcs(rev, "false")},
			wantVersion: "0.0.0-20261126015500-358da07aaf10", wantRev: rev,
		},
		{
			name:        "go build in a modified work tree",
			info:        &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261126015500-358da07aaf10+dirty"}, Settings: vcs(rev, "true")},
			wantVersion: "0.0.0-20261126015500-358da07aaf10+dirty", wantRev: rev + "+dirty",
		},
		{
			name:        "go build -buildvcs=false: (devel), no revision",
			info:        &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			wantVersion: "dev", wantRev: "unknown",
		},
		{
			name:        "-ldflags sets the version only",
			ldVersion:   "1.4.0",
			info:        &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false")},
			wantVersion: "1.4.0", wantRev: rev,
		},
		{
			name:        "a tagged version that merely ends like a revision is not a pseudo-version",
			info:        &debug.BuildInfo{Main: debug.Module{Version: "v1.0.0-abcdefabcdef"}},
			wantVersion: "1.0.0-abcdefabcdef", wantRev: "unknown",
		},
		{
			name:        "no build information",
			wantVersion: "dev", wantRev: "unknown",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := stampFrom(tt.ldVersion, tt.ldCommit, tt.info)
			if got.version != tt.wantVersion || got.commit != tt.wantRev {
				t.Errorf("stampFrom = version %q commit %q, want %q %q", got.version, got.commit, tt.wantVersion, tt.wantRev)
			}
		})
	}
}

// TestVersionFlag: curex --version prints what curex version prints.
func TestVersionFlag(t *testing.T) {
	runOut := func(args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, &out, &errOut); code != exitOK {
			t.Fatalf("curex %s: exit %d, stderr %q", strings.Join(args, " "), code, errOut.String())
		}
		return out.String()
	}
	want := runOut("version")
	if !strings.HasPrefix(want, "curex ") || !strings.Contains(want, " (commit ") || !strings.Contains(want, "go1.") {
		t.Fatalf("curex version printed %q", want)
	}
	if got := runOut("--version"); got != want {
		t.Errorf("curex --version printed %q, want %q", got, want)
	}
}
