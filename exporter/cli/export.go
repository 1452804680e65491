package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/publish"
	"github.com/curex/curex/exporter/internal/render/cartridge"
	"github.com/curex/curex/exporter/internal/setting"
	"github.com/curex/curex/exporter/ratelimit"
)

// apiFlags are the flags of every command that talks to the API.
type apiFlags struct {
	baseURL   string
	tokenFile string
	allowHTTP bool
	rateLimit string
	cacheDir  string
}

func (f *apiFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.baseURL, "base-url", "", "the API's base address (env CUREX_BASE_URL); /api/v1/... is appended")
	fl.StringVar(&f.tokenFile, "token-file", "", "read the API token from this file instead of $"+api.EnvToken)
	fl.BoolVar(&f.allowHTTP, "allow-http", false, "allow plain HTTP to a host that is not loopback (the token travels unencrypted)")
	fl.StringVar(&f.rateLimit, "rate-limit", ratelimit.Default().String(), "limits to stay under, COUNT/WINDOW pairs all honoured at once")
	fl.StringVar(&f.cacheDir, "cache-dir", defaultCacheDir(), "ETag cache and fetched bodies")
}

func defaultCacheDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "curex")
	}
	return filepath.Join(os.TempDir(), "curex-cache")
}

// config fills the API part of an exporter.Config: flag > environment >
// default. The token comes from the environment or a file, never a flag.
// The token is registered with g's secrets once read.
func (f *apiFlags) config(g *globals, c *exporter.Config) error {
	c.BaseURL = f.baseURL // or CUREX_BASE_URL, through the flag (applyConfig)
	if c.BaseURL == "" {
		return usageErr(errors.New("no API base URL: give --base-url or set CUREX_BASE_URL"))
	}
	var err error
	if f.tokenFile != "" {
		if c.Token, err = api.TokenFromFile(cmdContext(g.cmd), g.fileRef(tokenFileKey, f.tokenFile)); err != nil {
			name, ok := g.given(tokenFileKey)
			if !ok {
				name = "--token-file"
			}
			return usageErr(fmt.Errorf("%s: %w", name, err))
		}
	} else if tok, from, err := tokenFromEnv(); err != nil {
		if errors.Is(err, api.ErrNoToken) && from == "" {
			return usageErr(fmt.Errorf("no API token: set %s or give --token-file", api.EnvToken))
		}
		return usageErr(err) // it names the variable, never the token
	} else {
		c.Token = tok
	}
	g.secrets.add(c.Token)
	g.noteTokenOrigin(c.BaseURL)
	c.AllowHTTP = f.allowHTTP
	if c.Limits, err = ratelimit.Parse(f.rateLimit); err != nil {
		return usageErr(fmt.Errorf("--rate-limit: %w", err))
	}
	c.CacheDir = f.cacheDir
	c.Generator = generator()
	return nil
}

// selectFlags choose what to export.
type selectFlags struct {
	curricula          []string
	variants           string
	locales            string
	minTranslation     int
	includeUnpublished bool
	concurrency        int
	maxTreeNodes       int
}

func (f *selectFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringArrayVar(&f.curricula, "curriculum", nil, "base curricula to export, by id or by the slug of their folder, comma-separated or repeated (default all)")
	fl.StringVar(&f.variants, "variants", "all", "all, base, or a comma-separated list of variant names (may include base)")
	fl.StringVar(&f.locales, "locales", "all", "all, or a comma-separated list of locale codes")
	fl.IntVar(&f.minTranslation, "min-translation", 0, "skip locales less than this percent published (0-100)")
	fl.BoolVar(&f.includeUnpublished, "include-unpublished", false, "include curricula and nodes that are not published")
	fl.IntVar(&f.concurrency, "concurrency", 4, fmt.Sprintf("trees fetched at once, 1 to %d (the rate limiter sets the pace)", maxConcurrency))
	fl.IntVar(&f.maxTreeNodes, "max-tree-nodes", fetch.DefaultMaxTreeNodes, "most nodes in one tree; a larger tree fails alone (exit 3)")
}

func (f *selectFlags) filter() (fetch.Filter, error) {
	if f.minTranslation < 0 || f.minTranslation > 100 {
		return fetch.Filter{}, usageErr(fmt.Errorf("--min-translation %d: want 0 to 100", f.minTranslation))
	}
	var curricula []string
	for _, c := range f.curricula {
		curricula = append(curricula, splitList(c)...)
	}
	return fetch.Filter{
		Curricula:          curricula,
		Variants:           splitList(f.variants),
		Locales:            splitList(f.locales),
		MinTranslation:     f.minTranslation,
		IncludeUnpublished: f.includeUnpublished,
	}, nil
}

// maxConcurrency bounds --concurrency. The default limits (60 requests a
// minute) let one request leave a second: four trees at once already keep
// the limiter busy, and beyond a few dozen more workers only hold more
// trees in memory (2 × concurrency + 1 at once, docs/fetching.md).
const maxConcurrency = 32

// checkConcurrency refuses a --concurrency outside 1..maxConcurrency.
func checkConcurrency(n int) error {
	if n < 1 || n > maxConcurrency {
		return usageErr(setting.Errorf(setting.Concurrency, "%d: want 1 to %d (the rate limits set the pace, not the workers)", n, maxConcurrency))
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

type exportFlags struct {
	api      apiFlags
	sel      selectFlags
	output   string
	siteURL  string
	theme    string
	formats  string
	paper    string
	mdLayout string
	// cartridgeVersion is --cartridge-version.
	cartridgeVersion string
	// assets is local or remote (--assets); allowPrivateAssets lets
	// images come from private addresses (--allow-private-assets).
	assets             string
	allowPrivateAssets bool
	// pdfTimeout bounds the printing of one handbook (--pdf-timeout).
	pdfTimeout time.Duration
	pub        publishFlags
	sched      scheduleFlags
	progress   string
	// site is the publisher's identity (siteconfig.go).
	site siteFlags
	// hideAttributes are the attribute keys no format shows
	// (--hide-attribute).
	hideAttributes []string
	// attributeOrder are the attribute keys every format shows first
	// (--attribute-order).
	attributeOrder []string
}

func newExportCommand(g *globals) *cobra.Command {
	f := &exportFlags{}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Fetch every variant × locale and write the output",
		Long: `export discovers the curricula the token can see, plans every variant × locale,
fetches the resolved trees within the rate limits (conditional requests
against the ETag cache, retries with backoff), and writes the output folder
atomically: a failed run leaves the previous output as it was.

Exit codes: 0 all exported; 1 failed, previous output untouched; 2 usage or
configuration error; 3 partial: some exports failed and kept their previous
version, the rest were written; 130 (Ctrl-C) or 143 (SIGTERM) interrupted,
previous output untouched.`,
		Example: `  CURRICULUM_API_TOKEN=... curex export --base-url https://api.example.org --output site/
  curex export --base-url http://127.0.0.1:8080 --variants base,Texas --locales en,es`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runExport(cmd.Context(), g, f) },
	}
	f.api.register(cmd)
	f.registerOutput(cmd)
	f.pub.register(cmd, true)
	registerConfig(cmd)
	registerSummaryJSON(cmd, g)
	f.sched.register(cmd)
	return cmd
}

// outputConfig fills what export and build share: output, formats, theme,
// site URL, selection and progress display.
func (f *exportFlags) outputConfig(g *globals, c *exporter.Config) error {
	log, err := g.logger()
	if err != nil {
		return err
	}
	c.Output, c.Formats, c.Log, c.Paper = f.output, splitList(f.formats), log, f.paper
	if f.theme != "" {
		if c.ThemeDir, err = g.themeDir(cmdContext(g.cmd), f.theme); err != nil {
			return usageErr(errors.New(g.describe(err)))
		}
	}
	if len(c.Formats) == 0 {
		return usageErr(setting.Errorf(setting.Formats, "%q: want one or more of %s", f.formats, strings.Join(exporter.Formats().Names(), ", ")))
	}
	if f.siteURL != "" {
		u, err := url.Parse(f.siteURL)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
			return usageErr(setting.Errorf(setting.SiteURL, "%q: want an absolute http(s) address", f.siteURL))
		case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(f.siteURL, "#"):
			return usageErr(setting.Errorf(setting.SiteURL, "%q: want no query or fragment: pages and the sitemap append paths to it", f.siteURL))
		case u.User != nil:
			return usageErr(setting.Errorf(setting.SiteURL, "%q: want no user or password in a public address", f.siteURL))
		}
		c.SiteURL = strings.TrimSuffix(u.String(), "/") + "/"
	}
	if c.Filter, err = f.sel.filter(); err != nil {
		return err
	}
	if c.Site, err = f.site.identity(g, g.cmd); err != nil {
		return err
	}
	if c.HideAttributes, err = attributeKeys(setting.HideAttributes, f.hideAttributes); err != nil {
		return usageErr(errors.New(g.describe(err)))
	}
	if c.AttributeOrder, err = attributeKeys(setting.AttributeOrder, f.attributeOrder); err != nil {
		return usageErr(errors.New(g.describe(err)))
	}
	if c.AttributeLabels, err = attributeLabels(g, g.cmd); err != nil {
		return err
	}
	if err := checkConcurrency(f.sel.concurrency); err != nil {
		return err
	}
	c.Concurrency, c.MaxTreeNodes = f.sel.concurrency, f.sel.maxTreeNodes
	if c.MaxTreeNodes < 1 {
		return usageErr(fmt.Errorf("--max-tree-nodes %d: want 1 or more", c.MaxTreeNodes))
	}
	if f.pdfTimeout <= 0 {
		return usageErr(fmt.Errorf("--pdf-timeout %s: want a positive duration, such as 2m", f.pdfTimeout))
	}
	c.PDFTimeout = f.pdfTimeout
	if err := f.assetsConfig(c); err != nil {
		return err
	}
	if c.SourceDate, err = sourceDateEpoch(); err != nil {
		return usageErr(err)
	}
	switch {
	case f.mdLayout == "hugo":
		c.MarkdownHugo = true
	case !slices.Contains(markdownLayouts(), f.mdLayout):
		return usageErr(fmt.Errorf("--markdown-layout %q: want %s", f.mdLayout, oneOf(markdownLayouts())))
	}
	c.CartridgeVersion = f.cartridgeVersion // checked by the library
	c.Progress, err = g.progressFor(f.progress)
	return err
}

// assetsConfig reads --assets and --allow-private-assets (or their
// CUREX_ variables or keys of curex.yaml, through the flags).
func (f *exportFlags) assetsConfig(c *exporter.Config) error {
	mode := f.assets
	switch mode {
	case "":
		mode = exporter.AssetsLocal
	case exporter.AssetsLocal, exporter.AssetsRemote:
	default:
		return usageErr(fmt.Errorf("--assets %q: want %s", mode, oneOf(assetModes())))
	}
	c.Assets, c.AllowPrivateAssets = mode, f.allowPrivateAssets
	return nil
}

// sourceDateEpoch reads SOURCE_DATE_EPOCH, the reproducible-builds
// convention for "the date of this content"; zero when unset.
func sourceDateEpoch() (time.Time, error) {
	v, ok := os.LookupEnv("SOURCE_DATE_EPOCH")
	if !ok || v == "" {
		return time.Time{}, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH %q: want seconds since 1970 as a whole number", v)
	}
	return time.Unix(n, 0).UTC(), nil
}

// registerOutput adds the flags outputConfig reads.
func (f *exportFlags) registerOutput(cmd *cobra.Command) {
	f.sel.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.output, "output", "output", "output folder, or a bucket URL to publish to (s3://bucket/prefix?..., file:///...; see docs/publish.md)")
	fl.StringVar(&f.formats, "formats", strings.Join(exporter.DefaultFormats(), ","), "formats to write, comma-separated: "+strings.Join(exporter.Formats().Names(), ", ")+" (pdf needs Chromium)")
	fl.StringVar(&f.progress, "progress", "auto", "progress display: "+oneOf(progressModes()))
	fl.StringVar(&f.siteURL, "site-url", "", "the site's absolute address, for sitemap.xml and canonical links")
	fl.StringVar(&f.theme, "theme", "", "a theme folder overriding templates (block by block) and assets (file by file)")
	fl.StringVar(&f.paper, "paper", "a4", "paper size of handbooks and their PDF: a4 or letter")
	fl.DurationVar(&f.pdfTimeout, "pdf-timeout", exporter.DefaultPDFTimeout, "longest time the printing of one handbook to PDF may take; past it that export fails and keeps its previous PDF (exit 3)")
	fl.StringVar(&f.assets, "assets", "", "content images: local (the default: fetched once, checked, kept under assets/content/, so pages work offline) or remote (loaded from their URLs) (env CUREX_ASSETS)")
	fl.BoolVar(&f.allowPrivateAssets, "allow-private-assets", false, "let content images come from private and loopback addresses (testing; never for untrusted content) (env CUREX_ALLOW_PRIVATE_ASSETS)")
	fl.StringVar(&f.mdLayout, "markdown-layout", "default", "layout of Markdown bundles: default (code hosts, MkDocs) or hugo (_index.md sections)")
	fl.StringVar(&f.cartridgeVersion, "cartridge-version", string(cartridge.DefaultVersion), "Common Cartridge version of cartridges: 1.1 (every LMS, Moodle included) or 1.3")
	fl.StringSliceVar(&f.hideAttributes, "hide-attribute", nil, "an attribute key no format shows and no search indexes (teacher_notes); repeatable (env CUREX_HIDE_ATTRIBUTES, comma-separated)")
	fl.StringSliceVar(&f.attributeOrder, "attribute-order", nil, "an attribute key every format shows first, in the order given (learning_objectives,materials); the others follow in curex's order; repeatable (env CUREX_ATTRIBUTE_ORDER, comma-separated)")
	f.site.register(cmd)
}

// attributeKeys checks the keys of --hide-attribute or --attribute-order
// (the setting name): each one non-empty, without spaces around it; a
// problem names the setting. A key given twice counts once, where it
// first stands.
func attributeKeys(name string, keys []string) ([]string, error) {
	var out []string
	for _, k := range keys {
		if k == "" || strings.TrimSpace(k) != k {
			return nil, setting.Errorf(name, "%q: want an attribute key, such as teacher_notes", k)
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out, nil
}

// outputTarget handles --output URL: the export is written to a local
// folder under the cache (kept between runs, so the next one renders
// incrementally) and published from there. It returns the URL, or "" for a
// plain folder, and checks the URL before anything is fetched.
func (f *exportFlags) outputTarget(ctx context.Context, c *exporter.Config) (string, error) {
	if !publish.IsURL(f.output) {
		return "", nil
	}
	if err := f.pub.check(ctx, f.output); err != nil {
		return "", err
	}
	c.Output = publishStagingDir(c.CacheDir, f.output)
	return f.output, nil
}

// publishTo publishes the folder a run wrote when --output was a URL. The
// objects of exports that failed are never deleted: the bucket keeps their
// previous version even when the local folder could not.
func (f *exportFlags) publishTo(ctx context.Context, g *globals, target, dir string, sum *exporter.Summary) error {
	if target == "" {
		return nil
	}
	var keep []string
	for _, fl := range sum.Failures {
		keep = append(keep, layout.Dir(fl.Export), layout.BundleDir(fl.Export))
	}
	return publishFolder(ctx, g, dir, target, &f.pub, keep...)
}

// runError maps an error of exporter.Run or Build to its exit code: a
// configuration error is a usage error (exit 2). main shows a setting it
// names as the user gave it (globals.describe).
func runError(err error) error {
	var ce *exporter.ConfigError
	if errors.As(err, &ce) {
		return usageErr(err)
	}
	return err
}

func runExport(ctx context.Context, g *globals, f *exportFlags) error {
	var c exporter.Config
	if err := f.outputConfig(g, &c); err != nil {
		return err
	}
	if err := f.api.config(g, &c); err != nil {
		return err
	}
	if err := f.sched.config(&c, time.Now()); err != nil {
		return err
	}
	target, err := f.outputTarget(ctx, &c)
	if err != nil {
		return err
	}
	sum, err := exporter.Run(ctx, c)
	if err != nil {
		return runError(err)
	}
	g.summarize(c.Output, sum, true)
	printSummary(g, c.Output, sum)
	if err := f.publishTo(ctx, g, target, c.Output, sum); err != nil {
		return err
	}
	if sum.Partial() {
		return &exitError{code: exitPartial, err: fmt.Errorf("%d of %d exports failed and kept their previous version", len(sum.Failures), sum.Planned)}
	}
	return nil
}

// printSummary prints what a run did on standard output; under --quiet
// only its failures, as errors (quietFailures).
func printSummary(g *globals, out string, s *exporter.Summary) {
	if g.quiet {
		g.quietFailures(s)
		return
	}
	st := s.Stats
	fmt.Fprintf(g.stdout, "exported %d of %d trees to %s in %s (%d rendered, %d unchanged and carried over)\n",
		s.Written+s.Reused, s.Planned, out, s.Duration.Round(time.Millisecond), s.Written, s.Reused)
	if sc := s.Schedule; sc != nil {
		fmt.Fprintf(g.stdout, "trees %d: %d new, %d changed, %d revalidated (%s), %d unchanged served from the cache\n",
			s.Planned, sc.Count(fresh.New), sc.Count(fresh.Changed), sc.Count(fresh.Due), revalidation(sc.Policy), sc.Count(fresh.Unchanged))
	}
	fmt.Fprintf(g.stdout, "requests %d: %d ok, %d not modified, %d rate limited, %d server errors, %d transport errors, %d cut short, %d retries\n",
		st.Requests, st.OK, st.NotModified, st.RateLimited, st.ServerErrors, st.TransportErrors, st.CutShort, st.Retries)
	if r := g.report(); r.TokenOrigin != "" {
		fmt.Fprintf(g.stdout, "token sent to %s (base_url from %s)\n", r.TokenOrigin, r.BaseURLFrom)
	}
	fmt.Fprintf(g.stdout, "files %d: %d written, %d unchanged\n", s.Files+1, s.FilesWritten, s.FilesUnchanged)
	printPDFs(g, s)
	if s.AssetsFetched+s.AssetsReused+s.AssetsFailed > 0 {
		fmt.Fprintf(g.stdout, "images %d: %d fetched, %d reused from the cache, %d failed (shown as links)\n",
			s.AssetsFetched+s.AssetsReused+s.AssetsFailed, s.AssetsFetched, s.AssetsReused, s.AssetsFailed)
	}
	if s.MathErrors > 0 {
		fmt.Fprintf(g.stdout, "math: %d expressions could not be converted and show their TeX source (see math_errors in manifest.json)\n", s.MathErrors)
	}
	for _, sk := range s.Skipped {
		fmt.Fprintf(g.stdout, "skipped %s: %s\n", sk.Export.Dir(), api.Printable(g.describeSkip(sk.Reason, sk.Setting)))
	}
	for _, fl := range s.Failures {
		kept := "no previous version"
		if fl.Kept {
			kept = "previous version kept"
		}
		fmt.Fprintf(g.stdout, "failed %s (%s): %s\n", fl.Export.Dir(), kept, api.Printable(g.describe(fl.Err)))
	}
	if s.NotFetched > 0 {
		fmt.Fprintf(g.stdout, "%d trees not fetched within --max-requests or --deadline; the next run starts with them (what was fetched is kept)\n", s.NotFetched)
	}
}

// quietFailures logs the exports that failed, at error level: all that
// --quiet says of a partial run besides its exit line.
func (g *globals) quietFailures(s *exporter.Summary) {
	log, err := g.logger()
	if err != nil {
		return // the flags were checked before the run
	}
	for _, fl := range s.Failures {
		log.Error("export failed", "export", fl.Export.Dir(), "kept", fl.Kept, "error", api.Printable(g.describe(fl.Err)))
	}
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// revalidation describes a policy in a few words.
func revalidation(p fresh.Policy) string {
	if p.Mode == fresh.Rolling {
		return "rolling, every tree within " + days(p.Window)
	}
	return p.Mode.String()
}

// days formats a window in days when it is a whole number of them.
func days(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	return d.String()
}
