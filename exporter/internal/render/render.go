// Package render is the seam between the run and the formats curex
// writes. A format is a Renderer, which renders one tree through a
// Writer, and what the rest of curex needs to know of it, as data: a
// Format (where its files are, what the website offers for download and
// with which media type and label, what it shows). The formats of a build
// are listed once, in a Registry value the run builds (see
// exporter.Formats); there is no registration at init time. Adding a
// format is a package implementing Renderer and one entry in that list:
// the run, the manifest, the website, `curex serve` and `curex demo` read
// the entry.
//
// A Renderer that goes on with a tree after its files are written (the PDF
// is printed in the background) also implements Deferred, and its Format
// declares FinishesLate. The website
// needs every tree of a curriculum before its pages can be written, and
// ends with site-wide pages: it is a Site, the registry's site format,
// driven by the run through both phases (see Site).
package render

import (
	"context"
	"github.com/curex/curex/exporter/internal/render/attrs"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/exporter/internal/render/terms"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/mathml"
	"github.com/curex/curex/exporter/internal/setting"
)

// Writer receives the files of a tree: paths relative to the output root
// (see package layout), with forward slashes. Write must not keep data.
type Writer interface {
	Write(rel string, data []byte) error
}

// Tree is what a renderer is given: a tree, published nodes only unless
// the run includes the others, with what discovery knows of its
// curriculum.
type Tree struct {
	*model.Tree
	// Locales are every locale of the tree's curriculum (the catalog's);
	// nil when discovery did not list the curriculum.
	Locales []model.Locale
}

// OwnLocale returns the tree's own locale among Locales.
func (t *Tree) OwnLocale() (model.Locale, bool) {
	for _, l := range t.Locales {
		if l.Code == t.Tree.Locale {
			return l, true
		}
	}
	return model.Locale{}, false
}

// Renderer writes one tree in one format.
type Renderer interface {
	// Name is the format's name, as --formats spells it.
	Name() string
	// Render renders t through w, at the paths of package layout. entry
	// is the tree's manifest entry so far (its images, for a format that
	// needs them); the run lists the format's files in it
	// (Format.Path) once every format rendered the tree. An error is
	// the tree's: the run fails that export alone and writes none of its
	// files.
	Render(ctx context.Context, w Writer, t *Tree, entry *output.ManifestExport) error
}

// Late is an export a Deferred renderer could not finish: it fails alone.
type Late struct {
	// Format is the name of the format whose file is late: the run
	// carries over that file's previous version (Format.Path).
	Format string
	Export model.Export
	Err    error
}

// Deferred is a Renderer that goes on with a tree after every format's
// files of it are in the output.
type Deferred interface {
	Renderer
	// Start begins the work Render prepared for the export, writing
	// through w; it does not wait for it.
	Start(ctx context.Context, w Writer, e model.Export)
	// Wait waits for the work started. It returns the exports whose work
	// failed alone, and an error that fails the run.
	Wait() ([]Late, error)
}

// Reusing is a Renderer that reuses files made by earlier runs (the PDF
// reuses the prints its cache holds). The run sums its counts up.
type Reusing interface {
	// Counts returns the files made this run and those reused.
	Counts() (made, reused int)
}

// Options are the settings formats share. Each format takes what it needs
// into its own options.
type Options struct {
	// Formats are the formats selected (Registry.New makes theirs). The
	// links between formats are not read from the names: see Website,
	// PageData and Downloads.
	Formats []string
	// Generator names the program ("curex 0.1.0").
	Generator string
	// ThemeDir overrides templates and assets.
	ThemeDir string
	// SiteURL is the site's absolute address; empty means none.
	SiteURL string
	// Site is the publisher's identity on the website (checked).
	Site Identity
	// Paper is the handbook's paper size: "a4" or "letter".
	Paper string
	// Date, when not zero, dates the content instead of the trees'
	// resolved_at (SOURCE_DATE_EPOCH).
	Date time.Time
	// MarkdownHugo writes Markdown bundles in the Hugo content layout.
	MarkdownHugo bool
	// CartridgeVersion is the Common Cartridge version of cartridges
	// ("1.1" or "1.3"; "" the cartridge's default).
	CartridgeVersion string
	// CacheDir is the cache folder ("" for none): the PDF keeps its
	// prints there.
	CacheDir string
	// PDFTimeout bounds the printing of one handbook.
	PDFTimeout time.Duration
	// Gate, when set, bounds the rendering a format does on goroutines of
	// its own (the website's pages): while requests are paced, the run
	// keeps a processor for the fetch with it.
	Gate Gate
	// Images, when set, shows the images content refers to from their
	// copies in the output (package assets): the website and the handbook
	// (and so the PDF) use it; the Markdown bundles keep the URLs. Nil
	// leaves every image remote (--assets remote).
	Images content.Images
	// ImageData returns the bytes of an image Images resolved, by its
	// path in the output, for a format that needs them elsewhere (the
	// PDF's copy of the handbook).
	ImageData func(path string) ([]byte, bool)
	// RemoteImage, with --assets remote, fetches an image the handbook
	// shows by URL while Chromium prints it, by the image fetcher's rules
	// (package assets): Chromium itself never reaches the network. Nil
	// leaves the PDF without remote images.
	RemoteImage func(ctx context.Context, url string) ([]byte, error)
	// Math converts TeX to MathML for every format that renders content
	// to HTML, so they share its interpreters and cache; nil gives each
	// format a converter of its own.
	Math *mathml.Converter
	// Content renders node content to HTML for every format that does
	// (the website, the handbook, the book, the cartridge, the count of
	// math errors), so they share its parser, its highlighter and code
	// cache (content.WithCodeCache) and Math: a block shown by four
	// formats is highlighted once. Nil gives each format a converter of
	// its own, from Math and AttributeOrder.
	Content *content.Converter
	// Stemmers stem the words of the website's search index; set, they
	// are the caller's and outlive the run (curex dev keeps one set for
	// its builds: each language's interpreter loaded once, each word
	// stemmed once). Nil gives the website a set of its own.
	Stemmers *terms.Stemmers
	// Log receives what a format has to say.
	Log *slog.Logger
	// AttributeOrder is the publisher's order of attribute members
	// (attribute_order): every format shows them in it.
	AttributeOrder attrs.Order
	// Words are the run's interface words: the built-in ones with the
	// publisher's attribute labels (attribute_labels) over them; nil for
	// the built-in words. Every format labels attributes from them; the
	// website adds the theme's words over them.
	Words *i18n.Catalog
	// Downloads are the files the selected formats offer for each
	// export, in the website's order (Registry.Downloads): the website
	// links to them without knowing the formats.
	Downloads []Download
	// PageData is where the export's data is that every page of the
	// website links to (Registry.PageData); nil when no selected format
	// writes it.
	PageData func(e model.Export) string
	// Website is set when a site format is selected (Registry.AnySite):
	// the handbook and the cartridge then link back to the website.
	Website bool
}

// Has reports whether format is selected.
func (o Options) Has(format string) bool { return slices.Contains(o.Formats, format) }

// Format is one entry of a Registry.
type Format struct {
	// Name is the format's name, as --formats spells it.
	Name string
	// Default is set for the formats written when none are named.
	Default bool
	// New makes the format's Renderer for a run; nil for a site format.
	New func(ctx context.Context, o Options) (Renderer, error)
	// NewSite makes the format's Site for a run, for a format with a
	// site-wide phase (the website) instead of New.
	NewSite func(ctx context.Context, o Options) (Site, error)
	// Shows says what of a tree's content the format shows beyond its
	// text: the run fetches images only when a selected format shows
	// them, and converts formulas only when one shows math.
	Shows Shows
	// InPages is set for a format whose files are in the export's own
	// folder (model.Export.Dir(): pages, the handbook, the PDF, the
	// book) rather than among its bundles: a failed export carries that
	// folder over to keep them.
	InPages bool
	// Path is where the format's files of an export are (a path of
	// package layout): the manifest entry lists it under the format's
	// Name once the format rendered the export (output.ManifestExport.
	// SetPath). Nil for a format the manifest does not list.
	Path func(e model.Export) string
	// Download, when set, is the file of each export the website offers
	// for download, and the media type `curex serve` sends it with.
	Download *Download
	// PageData is set for the format whose file of each export (Path) is
	// the export's data, which every page of the website links to (the
	// JSON bundle): Options.PageData, from Registry.PageData.
	PageData bool
	// FinishesLate is set for a format that goes on with an export after
	// every format's files of it are written (the PDF prints in the
	// background): its Renderer must be a Deferred, and a file of it that
	// comes too late fails its export alone, which keeps that file's
	// previous version (Path). Registry.New refuses a renderer that does
	// not match its declaration.
	FinishesLate bool
	// Probe, when set, says whether this machine can write the format
	// (the PDF needs Chromium): nil when it can, else what is missing and
	// how to get it. `curex demo` writes, besides the default formats,
	// every format whose Probe finds what it needs (Registry.Probed).
	Probe func() error
}

// Shows is a set of what a format shows of a tree's content.
type Shows uint8

// What a format may show.
const (
	// ShowsImages: the images content refers to, from their local
	// copies (Options.Images).
	ShowsImages Shows = 1 << iota
	// ShowsMath: formulas, converted to MathML (Options.Math).
	ShowsMath
	// ShowsImagesOffline: the format cannot load an image by its URL
	// (Chromium prints the PDF without the network), so with --assets
	// remote the run still fetches the images it shows, for it alone
	// (Options.RemoteImage).
	ShowsImagesOffline
)

// Any reports whether a format of names (those selected) shows s.
func (r *Registry) Any(names []string, s Shows) bool {
	return r.anyOf(names, func(f Format) bool { return f.Shows&s != 0 })
}

// AnyInPages reports whether a format of names writes into the export's
// own folder (Format.InPages).
func (r *Registry) AnyInPages(names []string) bool {
	return r.anyOf(names, func(f Format) bool { return f.InPages })
}

// AnySite reports whether a format of names is a site format (one with
// NewSite: the website).
func (r *Registry) AnySite(names []string) bool {
	return r.anyOf(names, func(f Format) bool { return f.NewSite != nil })
}

// PageData returns where the export's data is, as the first format of
// names that declares PageData writes it (its Path); nil when none does.
func (r *Registry) PageData(names []string) func(e model.Export) string {
	for _, f := range r.formats {
		if f.PageData && f.Path != nil && slices.Contains(names, f.Name) {
			return f.Path
		}
	}
	return nil
}

// Probed lists the formats with a Probe that finds what it needs on
// this machine, in the registry's order; it calls missing with the name
// and the error of each that does not.
func (r *Registry) Probed(missing func(name string, err error)) []string {
	var out []string
	for _, f := range r.formats {
		if f.Probe == nil {
			continue
		}
		if err := f.Probe(); err != nil {
			missing(f.Name, err)
			continue
		}
		out = append(out, f.Name)
	}
	return out
}

// anyOf reports whether a format of names satisfies ok.
func (r *Registry) anyOf(names []string, ok func(Format) bool) bool {
	for _, f := range r.formats {
		if slices.Contains(names, f.Name) && ok(f) {
			return true
		}
	}
	return false
}

// Registry lists the formats a build knows, in the order they render.
type Registry struct {
	formats []Format
}

// NewRegistry returns a registry of formats, which render in that order.
func NewRegistry(formats ...Format) *Registry { return &Registry{formats: formats} }

// Formats lists the registry's formats, in their order: a build may make
// a registry of its own from them and more (NewRegistry).
func (r *Registry) Formats() []Format { return slices.Clone(r.formats) }

// Format returns the format named name.
func (r *Registry) Format(name string) (Format, bool) {
	i := slices.IndexFunc(r.formats, func(f Format) bool { return f.Name == name })
	if i < 0 {
		return Format{}, false
	}
	return r.formats[i], true
}

// Names lists every format's name.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.formats))
	for _, f := range r.formats {
		out = append(out, f.Name)
	}
	return out
}

// Defaults lists the formats written when none are named.
func (r *Registry) Defaults() []string {
	var out []string
	for _, f := range r.formats {
		if f.Default {
			out = append(out, f.Name)
		}
	}
	return out
}

// Check refuses a name the registry does not know, naming the known ones.
func (r *Registry) Check(names []string) error {
	for _, n := range names {
		if !slices.ContainsFunc(r.formats, func(f Format) bool { return f.Name == n }) {
			return setting.Errorf(setting.Formats, "unknown format %q (known: %s)", n, strings.Join(r.Names(), ", "))
		}
	}
	return nil
}

// New makes the renderers of the selected formats but the site formats,
// in the registry's order. On an error it closes those made.
func (r *Registry) New(ctx context.Context, o Options) ([]Renderer, error) {
	var out []Renderer
	for _, f := range r.formats {
		if f.NewSite != nil || !o.Has(f.Name) {
			continue
		}
		rr, err := f.New(ctx, o)
		if err != nil {
			Close(out)
			return nil, err // the format names itself
		}
		out = append(out, rr)
		if _, ok := rr.(Deferred); ok != f.FinishesLate {
			Close(out)
			return nil, &DeclarationError{Format: f.Name, FinishesLate: f.FinishesLate}
		}
	}
	return out, nil
}

// DeclarationError is a format whose renderer is not what its Format
// declares: a Deferred without FinishesLate, or the other way round. It
// is the build's mistake, not the user's.
type DeclarationError struct {
	// Format is the format's name.
	Format string
	// FinishesLate is what the Format declares.
	FinishesLate bool
}

func (e *DeclarationError) Error() string {
	if e.FinishesLate {
		return "format " + e.Format + " declares FinishesLate, but its renderer is no render.Deferred"
	}
	return "format " + e.Format + " has a render.Deferred renderer, but does not declare FinishesLate"
}

// NewSite makes the Site of the selected site format; nil when none is
// selected.
func (r *Registry) NewSite(ctx context.Context, o Options) (Site, error) {
	for _, f := range r.formats {
		if f.NewSite != nil && o.Has(f.Name) {
			return f.NewSite(ctx, o) // the format names itself
		}
	}
	return nil, nil
}

// Close closes the renderers that hold resources (a browser, a folder):
// those with a Close method.
func Close(rs []Renderer) {
	for _, r := range rs {
		if c, ok := r.(interface{ Close() error }); ok {
			_ = c.Close()
		}
	}
}
