package chromium

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// EnvChromium names the environment variable that gives the path of the
// browser when [Options.ExecPath] is empty.
const EnvChromium = "CUREX_CHROMIUM"

// ErrNoBrowser is the error that Launch wraps when it finds no Chromium.
var ErrNoBrowser = errors.New("PDF needs headless Chromium: install Debian's chromium package (apt-get install chromium) or set " + EnvChromium + " to its path")

// ErrClosed is the error of a call on a browser that Close stopped.
var ErrClosed = errors.New("the browser is closed")

// closeTimeout bounds how long Close waits for Chromium to shut down
// gracefully before it kills the process.
const closeTimeout = 10 * time.Second

// Options configures Launch.
type Options struct {
	// ExecPath is the browser program: a path, or a name looked up on PATH.
	// Empty means $CUREX_CHROMIUM, then chromium, chromium-browser and
	// google-chrome on PATH.
	ExecPath string
	// Log receives debug records (launch, each document, close); nil
	// discards them.
	Log *slog.Logger
}

// Browser is one headless Chromium process. Its methods are safe for
// concurrent use; each call works in a tab of its own.
type Browser struct {
	// ctx is the chromedp context of the browser's first tab; every call
	// opens a tab from it. It ends with Close.
	ctx         context.Context
	cancel      context.CancelFunc
	cancelAlloc context.CancelFunc
	path        string
	version     string
	log         *slog.Logger
	// home is the browser's HOME, a temporary folder Close removes.
	home string

	closeOnce sync.Once
	closeErr  error
}

// Launch starts Chromium and returns once it answers. The browser runs until
// Close: ctx bounds the start only, so a deadline on ctx cannot stop the
// browser later (chromedp ties a browser to the context of its first run).
//
// Chromium runs headless with a fresh profile in a temporary folder, which
// Close removes, and with the flags --no-sandbox --disable-gpu
// --disable-dev-shm-usage --disable-quic --no-first-run
// --disable-background-networking --disable-component-update --disable-sync.
// The sandbox is always off: it does not start as root nor in most
// containers and CI runners, and the browser only opens documents that curex
// wrote itself. Chromium does not inherit curex's environment: it gets
// PATH, the locale (LANG, LANGUAGE, LC_*), TZ, TMPDIR and fontconfig's
// variables, and a temporary HOME of its own, never the API token or
// cloud credentials.
func Launch(ctx context.Context, o Options) (*Browser, error) {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	path, err := findBrowser(o.ExecPath)
	if err != nil {
		return nil, fmt.Errorf("launch chromium: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("launch %s: %w", path, err)
	}
	start := time.Now()
	home, err := os.MkdirTemp("", "curex-chromium-home-")
	if err != nil {
		return nil, fmt.Errorf("launch %s: %w", path, err)
	}
	flags := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		// Chromium gets none of curex's environment but what it needs:
		// never the API token, nor cloud credentials (see browserEnv).
		chromedp.NoInheritEnv,
		chromedp.Env(browserEnv(os.Environ(), home)...),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-breakpad", true),
		// Frames stay in the process of their page, so the request
		// interception of the page's tab sees their requests too.
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints,IsolateOrigins,site-per-process"),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("password-store", "basic"),
		chromedp.Flag("use-mock-keychain", true),
	}
	// The browser must outlive ctx: it lives in a context of its own, and
	// ctx may only stop the start.
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.WithoutCancel(ctx), flags...)
	bctx, cancel := chromedp.NewContext(allocCtx,
		chromedp.WithLogf(func(f string, a ...any) { log.Debug("chromedp: " + fmt.Sprintf(f, a...)) }),
		chromedp.WithErrorf(func(f string, a ...any) { log.Debug("chromedp error: " + fmt.Sprintf(f, a...)) }),
	)
	stop := context.AfterFunc(ctx, cancel)
	err = chromedp.Do(bctx) // starts the browser, with no deadline
	if !stop() {
		err = ctx.Err()
	}
	if err != nil {
		cancel()
		cancelAlloc()
		_ = os.RemoveAll(home)
		return nil, fmt.Errorf("launch %s: %w", path, err)
	}
	var version string
	err = chromedp.Do(bctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		v, err := cdp.Call(ctx, t, browser.GetVersion, cdp.Empty{})
		version = v.Product + " " + v.Revision
		return err
	}))
	if err != nil {
		cancel()
		cancelAlloc()
		_ = os.RemoveAll(home)
		return nil, fmt.Errorf("launch %s: version: %w", path, err)
	}
	log.Debug("chromium started", "path", path, "version", version, "took", time.Since(start).Round(time.Millisecond))
	return &Browser{ctx: bctx, cancel: cancel, cancelAlloc: cancelAlloc, path: path, version: version, log: log, home: home}, nil
}

// browserEnvKeep are the variables of curex's environment Chromium gets
// (with the LC_ ones): what finds programs, fonts, the language and the
// time zone. Everything else stays out, whatever its name: the API token
// (CURRICULUM_API_TOKEN), CUREX_*, cloud credentials (AWS_*, AZURE_*,
// GOOGLE_*), proxies with passwords in them.
var browserEnvKeep = map[string]bool{
	"PATH": true, "LANG": true, "LANGUAGE": true, "TZ": true,
	"FONTCONFIG_FILE": true, "FONTCONFIG_PATH": true, "TMPDIR": true,
}

// browserEnv is Chromium's whole environment: the variables of environ
// (NAME=value) that browserEnvKeep names or that start with LC_, and HOME
// set to home, a folder of its own.
func browserEnv(environ []string, home string) []string {
	var env []string
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if ok && (browserEnvKeep[name] || strings.HasPrefix(name, "LC_")) {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home)
}

// Find returns the browser program Launch would start with
// Options{ExecPath: execPath}, or an error wrapping ErrNoBrowser: callers
// use it to offer PDF only where it can work.
func Find(execPath string) (string, error) { return findBrowser(execPath) }

// findBrowser resolves the browser program: explicit, then $CUREX_CHROMIUM,
// then the usual names on PATH.
func findBrowser(explicit string) (string, error) {
	name, from := explicit, "ExecPath"
	if name == "" {
		name, from = os.Getenv(EnvChromium), EnvChromium
	}
	if name != "" {
		p, err := exec.LookPath(name)
		if err != nil {
			return "", fmt.Errorf("no browser at %s (%s): %w", name, from, ErrNoBrowser)
		}
		return p, nil
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no chromium, chromium-browser or google-chrome on PATH: %w", ErrNoBrowser)
}

// Path returns the browser program that Launch started.
func (b *Browser) Path() string { return b.path }

// Version returns the running browser's product and revision, such as
// "HeadlessChrome/148.0.7778.96 @abc123": what a PDF printed by another
// version may differ by.
func (b *Browser) Version() string { return b.version }

// Close stops the browser, waits for it to exit and removes its temporary
// profile. Calls still running fail with ErrClosed. Close is idempotent.
func (b *Browser) Close() error {
	b.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(b.ctx, closeTimeout)
		defer cancel()
		err := chromedp.Cancel(ctx) // graceful Browser.close, then wait
		b.cancel()
		b.cancelAlloc() // waits until the profile folder is removed
		_ = os.RemoveAll(b.home)
		if err != nil && !errors.Is(err, context.Canceled) {
			b.closeErr = fmt.Errorf("close %s: %w", b.path, err)
		}
		b.log.Debug("chromium stopped", "path", b.path)
	})
	return b.closeErr
}

// inTab runs fn in a new tab, which it closes afterwards. Every request of
// the tab passes the gate of access before it loads (see Access). The tab
// ends when ctx ends; the error then wraps ctx.Err(). op and what name the
// call in the error ("pdf /tmp/a.html").
func (b *Browser) inTab(ctx context.Context, op, what string, access Access, fn func(tab context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s %s: %w", op, what, err)
	}
	if b.ctx.Err() != nil {
		return fmt.Errorf("%s %s: %w", op, what, ErrClosed)
	}
	start := time.Now()
	tab, cancel := chromedp.NewContext(b.ctx)
	stop := context.AfterFunc(ctx, cancel)
	g := &gate{access: access, log: b.log}
	err := g.open(tab)
	if err == nil {
		err = fn(tab)
	}
	stop()
	cancel() // closes the tab, which ends the gate
	g.wait()
	if n := g.count(); n > 0 {
		b.log.Debug(op+": requests refused", "page", what, "refused", n)
	}
	if err != nil {
		switch {
		case ctx.Err() != nil:
			err = ctx.Err()
		case b.ctx.Err() != nil:
			err = ErrClosed
		}
		return fmt.Errorf("%s %s: %w", op, what, err)
	}
	b.log.Debug(op, "page", what, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// fileURL turns a local path into a file:// URL.
func fileURL(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), nil
}
