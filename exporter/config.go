package exporter

import (
	"github.com/curex/curex/exporter/internal/render/i18n"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/curex/curex/exporter/internal/assets"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/cartridge"
	"github.com/curex/curex/exporter/internal/setting"
	"github.com/curex/curex/exporter/ratelimit"
)

// Config is everything a run needs. Zero values take the documented
// defaults where one exists.
type Config struct {
	BaseURL   string
	Token     string
	AllowHTTP bool
	// Output is the output folder.
	Output  string
	Formats []string
	// Registry lists the formats the run knows (--formats names them);
	// nil is Formats(). A build with formats of its own passes its
	// registry here.
	Registry *render.Registry
	// CacheDir holds the ETag cache.
	CacheDir string
	Limits   ratelimit.Limits
	Filter   fetch.Filter
	// Concurrency is the number of trees fetched at once (default 4).
	Concurrency int
	// MaxTreeNodes is the most nodes one tree may hold (0:
	// fetch.DefaultMaxTreeNodes); a larger tree fails alone.
	MaxTreeNodes int
	// MaxRequests stops the run cleanly after that many requests (0: none).
	MaxRequests int64
	// Deadline, when not zero, is when the run stops sending requests
	// (--deadline); trees not fetched by then are treated as by
	// MaxRequests.
	Deadline time.Time
	// Revalidate is how trees whose signals did not change are
	// revalidated (--revalidate, --revalidate-within); the zero value is
	// rolling revalidation within fresh.DefaultWindow.
	Revalidate fresh.Policy
	// Generator names the program in manifest.json ("curex 0.1.0").
	Generator string
	// SiteURL is the site's absolute address (--site-url) for the sitemap
	// and canonical links; empty means none.
	SiteURL string
	// Site is the publisher's identity on the website: title, logo,
	// colours, footer, scripts, per-locale overrides (site_* settings).
	Site render.Identity
	// HideAttributes are attribute keys shown by no format and indexed by
	// no search (hide_attributes): teacher notes, internal codes.
	HideAttributes []string
	// AttributeOrder are attribute keys every format shows first, in this
	// order, after a node's lead text; the others follow in curex's order
	// (attribute_order). A key no node has is passed over.
	AttributeOrder []string
	// AttributeLabels are the publisher's labels of attribute keys: by
	// key, then by locale code ("es", "pt-BR"), the label every format
	// shows (attribute_labels). A label for a language labels its
	// regional locales too.
	AttributeLabels map[string]map[string]string
	// ThemeDir overrides templates and assets of the website (--theme).
	ThemeDir string
	// Paper is the handbook's paper size: "a4" (default) or "letter".
	Paper string
	// PDFTimeout bounds the printing of one handbook to PDF (default
	// DefaultPDFTimeout); a handbook that takes longer fails its export
	// only (its previous PDF kept), instead of holding the run up.
	PDFTimeout time.Duration
	// MarkdownHugo writes Markdown bundles in the Hugo content layout
	// (_index.md section pages) instead of the code-host layout.
	MarkdownHugo bool
	// CartridgeVersion is the Common Cartridge version of the cartridge
	// format: "1.1" (default, cartridge.DefaultVersion) or "1.3".
	CartridgeVersion string
	Log              *slog.Logger
	// Progress receives progress events; nil reports nothing.
	Progress Progress
	// Transport is the base HTTP transport (tests pass the sandbox's).
	Transport http.RoundTripper
	// Fs is the file system output is written to (default: the OS).
	Fs afero.Fs
	// Assets is AssetsLocal (the default: content images are fetched,
	// checked and kept under assets/content/) or AssetsRemote (pages
	// load them from their URLs).
	Assets string
	// AllowPrivateAssets lets content images come from private and
	// loopback addresses (tests, a server on this machine).
	AllowPrivateAssets bool
	// AssetHosts are "ip:port" addresses images may come from whatever
	// their address: the demo lets its own sandbox through, and no other
	// private address.
	AssetHosts []string
	// AssetTransport, when set, fetches the images instead of curex's
	// own transport, which checks each address it dials (tests that serve
	// images without a socket).
	AssetTransport http.RoundTripper
	// ImageBudget caps the images of a tree and of the run; zero fields
	// take assets' defaults (assets.DefaultTreeImages ...).
	ImageBudget assets.Budget
	// Warm, when set, is what builds in this process keep between them
	// (curex dev passes one for its session): see Warm. Nil keeps
	// nothing; output is the same either way.
	Warm *Warm
	// SourceDate, when not zero, is the date of the content, shown
	// instead of the trees' resolved_at (the CLI reads SOURCE_DATE_EPOCH
	// into it): output then depends on nothing but the content.
	SourceDate time.Time
}

// ConfigError is a problem with the configuration; the command line maps
// it to the usage exit code.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// checkAPI checks what talking to the API needs: an address and a token.
func (c *Config) checkAPI() error {
	if c.BaseURL == "" {
		return &ConfigError{setting.Errorf(setting.BaseURL, "no API base URL")}
	}
	if c.Token == "" {
		return &ConfigError{setting.Errorf(setting.Token, "no API token")}
	}
	return nil
}

// check checks the rest of c and fills in the defaults.
func (c *Config) check() error {
	if len(c.Formats) == 0 {
		c.Formats = c.registry().Defaults()
	}
	if err := c.registry().Check(c.Formats); err != nil {
		return &ConfigError{err}
	}
	switch c.Paper {
	case "":
		c.Paper = "a4"
	case "a4", "letter":
	default:
		return &ConfigError{setting.Errorf(setting.Paper, "%q: want a4 or letter", c.Paper)}
	}
	if err := c.Site.Check(); err != nil {
		return &ConfigError{err}
	}
	if err := c.checkAttributes(); err != nil {
		return err
	}
	v, err := cartridge.ParseVersion(c.CartridgeVersion)
	if err != nil {
		return &ConfigError{setting.Errorf(setting.CartridgeVersion, "%w", err)}
	}
	c.CartridgeVersion = string(v)
	if c.Concurrency <= 0 {
		c.Concurrency = 4
	}
	if err := c.checkAssets(); err != nil {
		return err
	}
	if c.PDFTimeout <= 0 {
		c.PDFTimeout = DefaultPDFTimeout
	}
	if c.Limits == nil {
		c.Limits = ratelimit.Default()
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Generator == "" {
		c.Generator = "curex" // manifest.json must name curex to be replaced again
	}
	if c.Progress == nil {
		c.Progress = nopProgress{}
	}
	if c.Fs == nil {
		c.Fs = afero.NewOsFs()
	}
	if c.Transport == nil {
		c.Transport = http.DefaultTransport
	}
	return nil
}

// checkAttributes checks the attribute settings: each key of
// AttributeOrder non-empty and without spaces around it, each label of
// AttributeLabels usable (i18n.AttributeLabels.Check).
func (c *Config) checkAttributes() error {
	for _, k := range c.AttributeOrder {
		if k == "" || strings.TrimSpace(k) != k {
			return &ConfigError{setting.Errorf(setting.AttributeOrder, "%q: want an attribute key, such as teacher_notes", k)}
		}
	}
	if err := i18n.AttributeLabels(c.AttributeLabels).Check(); err != nil {
		return &ConfigError{setting.Errorf(setting.AttributeLabels, "%w", err)}
	}
	return nil
}

// words are the run's words: the built-in ones with the publisher's
// attribute labels, which check has checked.
func (c *Config) words() *i18n.Catalog {
	w, err := i18n.Builtin().WithAttributeLabels(c.AttributeLabels)
	if err != nil {
		return i18n.Builtin() // not after check
	}
	return w
}

// renderOptions are the settings the formats share (see render.Options).
func (c *Config) renderOptions() render.Options {
	return render.Options{AttributeOrder: c.AttributeOrder, Words: c.words(), Formats: c.Formats, Generator: c.Generator, ThemeDir: c.ThemeDir, SiteURL: c.SiteURL, Site: c.Site, Paper: c.Paper,
		Date: c.SourceDate, MarkdownHugo: c.MarkdownHugo, CartridgeVersion: c.CartridgeVersion, CacheDir: c.CacheDir,
		PDFTimeout: c.PDFTimeout, Log: c.Log, Downloads: c.registry().Downloads(c.Formats),
		PageData: c.registry().PageData(c.Formats), Website: c.registry().AnySite(c.Formats),
		Stemmers: c.Warm.stems()}
}

// registry returns the formats the run knows: Config.Registry, or
// Formats().
func (c *Config) registry() *render.Registry {
	if c.Registry != nil {
		return c.Registry
	}
	return Formats()
}

// Progress receives a run's progress. Implementations must be safe for
// concurrent use.
type Progress interface {
	// Planned is called once discovery is done: trees to fetch and the
	// requests they need.
	Planned(trees, requests int, l *pacer.Limiter)
	// TreeDone is called as each tree is fetched (or fails).
	TreeDone(r fetch.Result, s fetch.StatsSnapshot)
}

// nopProgress reports nothing.
type nopProgress struct{}

func (nopProgress) Planned(int, int, *pacer.Limiter)           {}
func (nopProgress) TreeDone(fetch.Result, fetch.StatsSnapshot) {}
