package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// buildStamp is what curex says of its own build: the release version and
// commit, each from -ldflags when a release build set them (GoReleaser,
// make build), else from the build information the go command records
// (see stampFrom).
type buildStamp struct {
	version string // "1.2.3", "0.0.0-20261126015500-358da07aaf10" or "dev"
	commit  string // a revision, "+dirty" appended for a modified tree, or "unknown"
}

// currentStamp is the stamp of the running binary.
func currentStamp() buildStamp {
	info, _ := debug.ReadBuildInfo()
	return stampFrom(version, commit, info)
}

// stampFrom chooses the version and commit to print. ldVersion and
// ldCommit are the values -ldflags set ("" when it set none); info is the
// binary's build information (nil when it has none).
//
// Without -ldflags the version is the main module's: the tag for
// `go install github.com/curex/curex/cmd/curex@v1.2.3` (v1.2.3), or the
// pseudo-version that go build stamps from the work tree's VCS (Go 1.24
// and later; "+dirty" when it has changes); "(devel)" and no version at
// all become "dev". The commit is vcs.revision when go build recorded one
// (not with -buildvcs=false, nor for go install of a module version), then
// the commit named inside a pseudo-version, else "unknown". A leading "v"
// is dropped, as release archives name versions without it.
func stampFrom(ldVersion, ldCommit string, info *debug.BuildInfo) buildStamp {
	s := buildStamp{version: ldVersion, commit: ldCommit}
	var modVersion, revision string
	modified := false
	if info != nil {
		modVersion = info.Main.Version
		for _, kv := range info.Settings {
			switch kv.Key {
			case "vcs.revision":
				revision = kv.Value
			case "vcs.modified":
				modified = kv.Value == "true"
			}
		}
	}
	if s.version == "" {
		s.version = "dev"
		if modVersion != "" && modVersion != "(devel)" {
			s.version = strings.TrimPrefix(modVersion, "v")
		}
	}
	if s.commit == "" {
		switch {
		case revision != "":
			s.commit = revision
			if modified {
				s.commit += "+dirty"
			}
		case pseudoRevision(modVersion) != "":
			s.commit = pseudoRevision(modVersion)
		default:
			s.commit = "unknown"
		}
	}
	return s
}

// pseudoRevision returns the 12-hex-digit commit prefix a pseudo-version
// such as v0.0.0-20261126015500-358da07aaf10 (or v1.2.4-0.2026...-358da07aaf10,
// with a +dirty suffix) ends with, or "" when v is not a pseudo-version.
func pseudoRevision(v string) string {
	v, _, _ = strings.Cut(v, "+")
	i := strings.LastIndexByte(v, '-')
	if i < 0 {
		return ""
	}
	rev, rest := v[i+1:], v[:i]
	if len(rev) != 12 || strings.Trim(rev, "0123456789abcdef") != "" {
		return ""
	}
	// The part before the revision ends with a 14-digit UTC timestamp.
	j := strings.LastIndexAny(rest, "-.")
	if j < 0 || len(rest)-j-1 != 14 || strings.Trim(rest[j+1:], "0123456789") != "" {
		return ""
	}
	return rev
}

// String is the line curex version and curex --version print.
func (s buildStamp) String() string {
	return fmt.Sprintf("curex %s (commit %s, %s, %s/%s)", s.version, s.commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// setVersion gives root a --version flag that prints what curex version
// prints (cobra prints it before any other work, configuration included).
func setVersion(root *cobra.Command) {
	root.Version = currentStamp().String()
	root.SetVersionTemplate("{{.Version}}\n")
}

func newVersionCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and Go version",
		Long: `version prints curex's version and commit, and the Go version and platform it
was built with: a release's version, the module version that go install
recorded, or "dev" with the commit of a build from a work tree. curex
--version prints the same line.`,
		Example: `  curex version
  curex --version`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintln(g.stdout, currentStamp())
			return err
		},
	}
}

// generator names this curex in what it writes (the pages' generator
// meta tag, manifest.json): "curex 1.2.0", or "curex dev".
func generator() string { return "curex " + currentStamp().version }
