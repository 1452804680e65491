package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter/internal/publish"
	"github.com/curex/curex/exporter/internal/setting"
)

// This file holds the trust model of configuration files
// (docs/configuration.md, "Which file is trusted for what"): a file named
// by --config or CUREX_CONFIG is the operator's and may give any setting a
// file may give; a curex.yaml or curex.yml found in the working folder is
// the repository's (a clone, a pull request) and may not lower a guard,
// choose a secret, or make curex write outside the working folder. What
// each setting is, is a column of the one settings table (source.trust);
// checkDiscovered is the one gate a found file passes.

// trust is what a file found in the working folder may do with a setting.
type trust int

const (
	// anyFile: any file of settings may give it.
	anyFile trust = iota
	// lowersGuard: the setting turns off a protection (plain HTTP for the
	// token, private image addresses, drafts on a public site, deleting
	// most of a bucket); only the operator lowers a guard.
	lowersGuard
	// choosesSecret: the setting chooses what is sent as a secret (the
	// token's file); only the operator chooses it.
	choosesSecret
	// writesHere: the setting names a place curex writes; from a found
	// file it must be a relative path inside the working folder, through
	// no symbolic link.
	writesHere
)

// discoveredError is a setting that a configuration file found in the
// working folder may not give as it does. It is a usage error (exit 2).
type discoveredError struct {
	// Path and Line are the file and the line of the key.
	Path string
	Line int
	// Key is the setting's key, and Trust what the table says of it.
	Key   string
	Trust trust
	// Err says why a place to write was refused (writesHere only).
	Err error
}

// Error names the file, the line and the setting, why it was refused, and
// where the operator gives it instead.
func (e *discoveredError) Error() string {
	src := settings[e.Key]
	var instead []string
	if src.flag != "" {
		instead = append(instead, "--"+src.flag)
	}
	instead = append(instead, envName(e.Key))
	where := "give it with " + strings.Join(instead, ", ") + ", or in a file named with --config or " + envConfig
	var why string
	switch e.Trust {
	case lowersGuard:
		why = "lowers a guard"
	case choosesSecret:
		why = "chooses a secret"
	default:
		why = fmt.Sprintf("must name a place inside the working folder: %v", e.Err)
	}
	return fmt.Sprintf("%s:%d: %s: a %s found in the working folder is the repository's, and this setting %s; %s",
		e.Path, e.Line, e.Key, filepath.Base(e.Path), why, where)
}

// Unwrap returns why a place to write was refused.
func (e *discoveredError) Unwrap() error { return e.Err }

// checkDiscovered is the gate of a configuration file found in the
// working folder (path): it refuses, as a usage error, the first setting
// of list that such a file may not give (see trust), before any setting
// of the file is applied.
func checkDiscovered(path string, list []fileSetting) error {
	for _, v := range list {
		t := settings[v.key].trust
		switch t {
		case anyFile:
		case lowersGuard, choosesSecret:
			return usageErr(&discoveredError{Path: path, Line: v.line, Key: v.key, Trust: t})
		case writesHere:
			for _, p := range v.values {
				if err := insideWorkdir(p); err != nil {
					return usageErr(&discoveredError{Path: path, Line: v.line, Key: v.key, Trust: t, Err: err})
				}
			}
		}
	}
	return nil
}

// insideWorkdir checks that p ("" for none) names a place inside the
// working folder: a relative path, not a URL, that climbs out through no
// "..", and none of whose existing parts (the last included) is a
// symbolic link. Parts that do not exist yet are created by curex as
// folders.
func insideWorkdir(p string) error {
	switch {
	case p == "":
		return nil
	case publish.IsURL(p):
		return fmt.Errorf("%q is a URL", p)
	case filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`):
		return fmt.Errorf("%q is an absolute path", p)
	case !filepath.IsLocal(p):
		return fmt.Errorf("%q leaves the working folder", p)
	}
	cur := "."
	for part := range strings.SplitSeq(filepath.Clean(p), string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // the rest is made by curex, inside cur
		}
		if err != nil {
			return fmt.Errorf("%q: %w", p, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%q: %s is a symbolic link", p, cur)
		}
	}
	return nil
}

// announceLevel returns the log level and quiet flag that the
// announcement of a found file is logged with: a found file's own quiet
// or log_level cannot hide it (the operator's --quiet, --log-level or
// variables still do).
func announceLevel(level string, quiet bool, set map[string]fromFile) (string, bool) {
	if f, ok := set["quiet"]; ok && f.env == "" {
		quiet = false
	}
	if f, ok := set["log-level"]; ok && f.env == "" {
		level = "info"
	}
	return level, quiet
}

// discoveredOrigin returns the origin that a found file's base_url sends
// the token to ("" when the file gives no base_url this command reads).
func discoveredOrigin(cmd *cobra.Command, set map[string]fromFile) string {
	f, ok := set["base-url"]
	if !ok || f.env != "" {
		return ""
	}
	fl := cmd.Flags().Lookup("base-url")
	if fl == nil {
		return ""
	}
	return tokenOrigin(fl.Value.String())
}

// tokenOrigin returns the origin (scheme://host[:port]) of the API base
// URL, the one place the token is sent; "" when base is not an absolute
// URL (the exporter refuses it then, before any request).
func tokenOrigin(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme) + "://" + u.Host
}

// noteTokenOrigin records, for the summary, the origin of base that the
// token is about to be sent to and how base_url was given.
func (g *globals) noteTokenOrigin(base string) {
	r := g.report()
	r.TokenOrigin = tokenOrigin(base)
	r.BaseURLFrom, _ = g.spell(setting.BaseURL)
}

// namedConfigAnnotation, on a command, says that it reads a configuration
// file only when --config or CUREX_CONFIG names one, never one found in the
// working folder.
const namedConfigAnnotation = "curex-named-config-only"

// registerNamedConfig adds --config to a command that reads only a file
// the operator names (curex serve).
func registerNamedConfig(cmd *cobra.Command) {
	cmd.Flags().String("config", "", "a YAML file of settings (default: the one $"+envConfig+" names; never a curex.yaml found in the working folder); flags and environment win over it")
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[namedConfigAnnotation] = "true"
}

// namedConfigOnly reports whether cmd reads only a configuration file the
// operator names (registerNamedConfig).
func namedConfigOnly(cmd *cobra.Command) bool {
	return cmd.Annotations[namedConfigAnnotation] == "true"
}
