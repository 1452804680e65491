package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/publish"
	"github.com/curex/curex/exporter/internal/serve"
	"github.com/curex/curex/exporter/internal/serve/live"
	"github.com/curex/curex/exporter/internal/setting"
	"github.com/curex/curex/exporter/internal/watch"
)

// devFlags are the flags of curex dev: build's, and where to listen.
type devFlags struct {
	export   exportFlags
	cacheDir string
	addr     string
}

// newDevCommand is curex dev: build from the cache, serve, and build
// again on each change to the theme or the configuration.
//
// It is a command of its own rather than serve --watch: serve previews
// any built folder and reads only a configuration file the operator
// names (a curex.yaml where it runs is not asked what the preview's
// policy allows), while a live preview is a build (build's flags, its
// configuration file found in the working folder, its cache) that is
// served; serve stays as it was.
func newDevCommand(g *globals) *cobra.Command {
	d := &devFlags{}
	cmd := devCommand(d)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return runDev(cmd.Context(), g, cmd, d) }
	return cmd
}

// devCommand is curex dev's command and flags, bound to d, with no
// action: runDev makes a fresh one to read the settings again.
func devCommand(d *devFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dev",
		Short: "Build from the cache, serve, and rebuild on each theme or settings change",
		Long: `dev is curex build and curex serve in one, for theme work: it renders the
output from the cache (no API request, no token), serves it on loopback,
and watches the theme folder (--theme) and the configuration file. On a
change it renders again (a change to the configuration file reads the
settings again first) and reloads the pages open in the browser. A change
that does not build (a template error) is shown in the terminal and over
the open pages, and the last good site stays served. The output folder
gets exactly what curex build writes: the reload script is added to the
pages as they are sent, never to the files. Ctrl-C stops.`,
		Example: `  curex dev --theme mytheme --output site/
  curex dev --config curex.yaml --formats html --addr 127.0.0.1:9000`,
		Args: noArgs,
	}
	d.export.registerOutput(cmd)
	cmd.Flags().Lookup("concurrency").Usage = fmt.Sprintf("trees read from the cache at once, 1 to %d", maxConcurrency)
	registerConfig(cmd)
	cmd.Flags().StringVar(&d.cacheDir, "cache-dir", defaultCacheDir(), "the ETag cache an earlier export filled")
	cmd.Flags().StringVar(&d.addr, "addr", defaultServeAddr, "address to listen on (host:port); a change to it needs a restart")
	return cmd
}

// config is the build d's flags ask for.
func (d *devFlags) config(g *globals) (exporter.Config, error) {
	var c exporter.Config
	if publish.IsURL(d.export.output) {
		return c, usageErr(setting.Errorf(setting.Output, "%q: curex dev writes a local folder; publish with curex build --output URL", d.export.output))
	}
	if err := d.export.outputConfig(g, &c); err != nil {
		return c, err
	}
	if !slices.Contains(c.Formats, "html") {
		return c, usageErr(setting.Errorf(setting.Formats, "%q: curex dev previews the website: add html", strings.Join(c.Formats, ",")))
	}
	c.CacheDir = d.cacheDir
	c.Generator = generator()
	return c, nil
}

// devSession is one curex dev: the build it renders, the site it serves.
type devSession struct {
	g       *globals
	cmd     *cobra.Command // the command as run: the flags typed
	live    *live.Server
	cfgFile string // the configuration file read, absolute; "" for none

	mu sync.Mutex // guards c (the watcher's goroutine rebuilds)
	c  exporter.Config
}

// runDev builds, serves and watches until ctx ends (Ctrl-C).
func runDev(ctx context.Context, g *globals, cmd *cobra.Command, d *devFlags) error {
	c, err := d.config(g)
	if err != nil {
		return err
	}
	cfgFile, _, err := configPath(cmd)
	if err != nil {
		return err
	}
	if cfgFile != "" {
		if cfgFile, err = filepath.Abs(cfgFile); err != nil {
			return usageErr(fmt.Errorf("configuration file: %w", err))
		}
	}
	log, err := g.logger()
	if err != nil {
		return err
	}
	// What the session's builds keep between them (the stemmers of the
	// search index): a save renders again only what it must.
	c.Warm = exporter.NewWarm()
	s := &devSession{g: g, cmd: cmd, live: live.New(), cfgFile: cfgFile, c: c}
	defer s.live.Close()
	if err := s.first(ctx); err != nil {
		return err
	}
	wctx, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	n, err := watch.Notify(wctx)
	if err != nil {
		return err
	}
	targets := s.targets()
	// Watched before the address is printed: a change made once the
	// server answers is never missed.
	if err := n.Watch(targets); err != nil {
		return usageErr(err)
	}
	watching := make(chan error, 1)
	go func() {
		watching <- watch.Run(wctx, watch.Options{Targets: targets, Source: n, Rebuild: s.rebuild, Log: log})
	}()
	err = listenAndServe(ctx, g, c.Output, d.addr, cmd.Flags().Changed("addr"), s.live, func() { _ = s.live.Close() })
	stopWatching()
	<-watching // a build under way stops, leaving the output as it was
	return err
}

// targets are the files the session's build reads that are watched.
func (s *devSession) targets() watch.Targets {
	s.mu.Lock()
	defer s.mu.Unlock()
	return watch.Targets{ThemeDir: s.c.ThemeDir, ConfigFile: s.cfgFile}
}

// first builds once before serving. A build that fails on the settings or
// the cache ends the command; one that fails otherwise (a template that
// does not execute) serves the output already there, if any, with the
// failure over its pages.
func (s *devSession) first(ctx context.Context) error {
	start := time.Now()
	sum, err := exporter.Build(ctx, s.c)
	if err == nil {
		failed := s.report("built", start, sum)
		if err := s.publish(); err != nil {
			return err
		}
		if failed != "" {
			s.live.Fail(failed)
		}
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ce *exporter.ConfigError
	var me *exporter.MissingError
	if errors.As(err, &ce) || errors.As(err, &me) {
		return runError(err)
	}
	if perr := s.publish(); perr != nil {
		return err // nothing to serve: the build's failure is the news
	}
	s.fail(err)
	return nil
}

// rebuild takes in one burst of changes (watch.Options.Rebuild).
func (s *devSession) rebuild(ctx context.Context, ch watch.Change) watch.Targets {
	if ch.Kinds.Has(watch.Config) {
		c, err := s.reload(ctx)
		if err != nil {
			s.fail(err)
			return s.targets()
		}
		s.mu.Lock()
		c.Warm = s.c.Warm // the session's, whatever the settings now
		s.c = c
		s.mu.Unlock()
	}
	s.mu.Lock()
	c := s.c
	s.mu.Unlock()
	start := time.Now()
	sum, err := exporter.Build(ctx, c)
	switch {
	case ctx.Err() != nil:
	case err != nil:
		s.fail(err)
	default:
		failed := s.report("rebuilt ("+ch.Kinds.String()+": "+changed(ch.Paths)+")", start, sum)
		if err := s.publish(); err != nil {
			s.fail(err)
		} else if failed != "" {
			s.live.Fail(failed)
		}
	}
	return s.targets()
}

// changed names the files of a change, the first few.
func changed(paths []string) string {
	const show = 3
	names := make([]string, 0, show)
	for i, p := range paths {
		if i == show {
			names = append(names, fmt.Sprintf("and %d more", len(paths)-show))
			break
		}
		names = append(names, filepath.Base(p))
	}
	return strings.Join(names, ", ")
}

// publish serves the output folder as it is now.
func (s *devSession) publish() error {
	s.mu.Lock()
	c := s.c
	s.mu.Unlock()
	h, err := serve.New(c.Output, serve.Options{ScriptOrigins: c.Site.Origins(), Types: exporter.Formats().MediaTypes(), Inject: live.Snippet})
	if err != nil {
		return err
	}
	s.live.Publish(h)
	return nil
}

// fail says in the terminal and over the open pages that a build failed,
// and that the last good site is still served.
func (s *devSession) fail(err error) {
	msg := api.Printable(s.g.describe(err))
	fmt.Fprintf(s.g.stderr, "curex dev: %s\ncurex dev: still serving the last good site; fix it and save to rebuild\n", msg)
	s.live.Fail(msg)
}

// report prints one line for a build that succeeded, with the exports
// that failed alone (their previous version kept), and returns those
// failures as one message ("" for none) for the open pages.
func (s *devSession) report(what string, start time.Time, sum *exporter.Summary) string {
	if !s.g.quiet {
		fmt.Fprintf(s.g.stdout, "%s in %s: %d trees; files: %d written, %d unchanged\n",
			what, time.Since(start).Round(time.Millisecond), sum.Written+sum.Reused, sum.FilesWritten, sum.FilesUnchanged)
	}
	if len(sum.Failures) > 0 {
		var parts []string
		for _, f := range sum.Failures {
			parts = append(parts, f.Export.Dir()+": "+s.g.describe(f.Err))
		}
		msg := api.Printable(strings.Join(parts, "\n"))
		fmt.Fprintf(s.g.stderr, "curex dev: %d exports failed and kept their previous version:\n%s\n", len(sum.Failures), msg)
		return msg
	}
	return ""
}

// reload reads the settings again as a fresh start of the command would:
// the flags typed, then the environment and the configuration file as
// they are now.
func (s *devSession) reload(ctx context.Context) (exporter.Config, error) {
	d := &devFlags{}
	fresh := devCommand(d)
	fresh.SetContext(ctx)
	var err error
	s.cmd.Flags().Visit(func(fl *pflag.Flag) {
		if _, set := s.g.fromFile[fl.Name]; set || err != nil {
			return // from the file or the environment: read again below
		}
		to := fresh.Flags().Lookup(fl.Name)
		if to == nil {
			return
		}
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			err = to.Value.(pflag.SliceValue).Replace(sv.GetSlice())
		} else {
			err = to.Value.Set(fl.Value.String())
		}
		to.Changed = true
	})
	if err != nil {
		return exporter.Config{}, err
	}
	g := &globals{logLevel: s.g.logLevel, logFormat: s.g.logFormat, quiet: s.g.quiet, stdout: s.g.stdout, stderr: s.g.stderr, cmd: fresh}
	if g.fromFile, err = applyConfig(fresh); err != nil {
		return exporter.Config{}, err
	}
	return d.config(g)
}
