// Package watch turns changes to the files a site is built from (the
// theme folder and the configuration file) into rebuilds, for
// `curex dev`.
//
// It has three parts: Targets.Classify says what a changed path is to a
// build (a template, an asset, the theme's words, the configuration, or
// nothing the renderers read: render.IsThemeFile decides, the same rule
// the renderers read the theme by); Run gathers a burst of changes (an
// editor's save is often several events) until none has come for the
// debounce interval, and then calls the rebuild once with what the burst
// changed; Notify is the Source of real changes, from the operating
// system through fsnotify. Run takes any Source and reads time through
// the time package alone, so tests drive it with a channel of paths
// inside a testing/synctest bubble.
package watch

import (
	"context"
	"log/slog"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/render"
)

// Kind is what a changed file is to a build; a Change holds several.
type Kind uint8

// The kinds of change, from the least to the most work to take in.
const (
	// Asset is a file under the theme's assets/ (a stylesheet, a
	// script, an image, an icon).
	Asset Kind = 1 << iota
	// Words is the theme's words, i18n/*.json.
	Words
	// Template is one of the theme's templates (its top-level *.html).
	Template
	// Config is the configuration file: the settings are read again and
	// the export planned again.
	Config
)

// Has tells whether k holds every kind of x.
func (k Kind) Has(x Kind) bool { return k&x == x && x != 0 }

// String names the kinds k holds: "asset+template".
func (k Kind) String() string {
	var parts []string
	for _, n := range []struct {
		k    Kind
		name string
	}{{Asset, "asset"}, {Words, "words"}, {Template, "template"}, {Config, "configuration"}} {
		if k.Has(n.k) {
			parts = append(parts, n.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}

// Change is what one burst of changes touched.
type Change struct {
	// Kinds are the kinds of the files changed.
	Kinds Kind
	// Paths are the files changed, each once, in the order first seen.
	Paths []string
}

// Targets are the files a build reads that are watched.
type Targets struct {
	// ThemeDir is the theme folder (--theme), "" for none.
	ThemeDir string
	// ConfigFile is the configuration file (curex.yaml), "" for none.
	ConfigFile string
}

// Classify tells what the file at p is to a build, and false when no
// build reads it: a file outside the targets, a file of the theme folder
// the renderers never read (a README, a reference copy), or an editor's
// scratch file (a hidden name, a backup ending in "~").
func (t Targets) Classify(p string) (Kind, bool) {
	p = filepath.Clean(p)
	if t.ConfigFile != "" && p == filepath.Clean(t.ConfigFile) {
		return Config, true
	}
	if t.ThemeDir == "" {
		return 0, false
	}
	rel, err := filepath.Rel(filepath.Clean(t.ThemeDir), p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return 0, false
	}
	name := filepath.ToSlash(rel)
	for part := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, "~") {
			return 0, false
		}
	}
	switch {
	case !render.IsThemeFile(name):
		return 0, false
	case strings.HasPrefix(name, layout.Assets+"/"):
		return Asset, true
	case !strings.Contains(name, "/") && path.Ext(name) == ".html":
		return Template, true
	}
	return Words, true
}

// Source delivers the paths of files that changed.
type Source interface {
	// Events are the paths of changed files (created, written, removed
	// or renamed).
	Events() <-chan string
	// Errors are the source's failures, such as a lost event queue; Run
	// logs them and goes on.
	Errors() <-chan error
	// Watch makes t the files watched from now on.
	Watch(t Targets) error
}

// DefaultDebounce is how long Run waits after a change for more before it
// rebuilds: an editor's save (write, rename, chmod) comes as one burst.
const DefaultDebounce = 100 * time.Millisecond

// Options configure Run.
type Options struct {
	// Targets are the files watched at the start.
	Targets Targets
	// Source delivers the changes.
	Source Source
	// Debounce is the quiet time that ends a burst (DefaultDebounce when
	// zero).
	Debounce time.Duration
	// Rebuild takes in one burst's change and returns the files to
	// watch from then on (a new configuration may name another theme).
	// Run calls it from its own goroutine, one call at a time; changes
	// made while it runs make the next burst.
	Rebuild func(ctx context.Context, c Change) Targets
	// Log receives the source's errors (slog.Default() when nil).
	Log *slog.Logger
}

// Run watches until ctx ends, calling o.Rebuild once for each burst of
// changes to files a build reads, and returns ctx's error. It fails at
// once only when the source cannot watch o.Targets.
func Run(ctx context.Context, o Options) error {
	log := o.Log
	if log == nil {
		log = slog.Default()
	}
	wait := o.Debounce
	if wait <= 0 {
		wait = DefaultDebounce
	}
	targets := o.Targets
	if err := o.Source.Watch(targets); err != nil {
		return err
	}
	var (
		pending Change
		seen    = map[string]bool{}
		timer   = time.NewTimer(wait)
	)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-o.Source.Errors():
			log.Warn("watch: changes may have been missed", "err", err)
		case p := <-o.Source.Events():
			k, ok := targets.Classify(p)
			if !ok {
				continue
			}
			pending.Kinds |= k
			if !seen[p] {
				seen[p] = true
				pending.Paths = append(pending.Paths, p)
			}
			timer.Reset(wait)
		case <-timer.C:
			if pending.Kinds == 0 {
				continue
			}
			c := pending
			pending, seen = Change{}, map[string]bool{}
			next := o.Rebuild(ctx, c)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if next != targets {
				if err := o.Source.Watch(next); err != nil {
					log.Warn("watch: cannot watch the new targets; still watching the old ones", "theme", next.ThemeDir, "config", next.ConfigFile, "err", err)
					continue
				}
				targets = next
			}
		}
	}
}
