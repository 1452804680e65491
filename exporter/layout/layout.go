// Package layout is the one place that spells where curex puts things: the
// files of an export in the output folder (pages, bundles, handbook, feed),
// the site-wide files, and the folders of the cache. Renderers, the
// orchestrator, tree.json's node paths and the manifest all ask it, so the
// layout documented in README.md and docs/formats.md has one home.
//
// Every output path is relative to the output root, with forward slashes.
package layout

import "github.com/curex/curex/exporter/model"

// Site-wide files at the output root.
const (
	// Home is the catalog page.
	Home = "index.html"
	// Manifest lists every export (output.Manifest).
	Manifest = "manifest.json"
	// Sitemap is written when the site's URL is known.
	Sitemap = "sitemap.xml"
	// Robots is the crawlers' file.
	Robots = "robots.txt"
	// NotFound is the page servers show for a missing path.
	NotFound = "404.html"
	// BundlesRoot holds every export's bundles.
	BundlesRoot = "bundles"
	// Index is the page file of a folder.
	Index = "index.html"
)

// Dir is the export's folder: curriculum/variant/locale.
func Dir(e model.Export) string { return e.Dir() }

// ExportIndex is the export's contents page: curriculum/variant/locale/index.html.
func ExportIndex(e model.Export) string { return e.Dir() + "/" + Index }

// NodePage is the page of the node whose segment (model.Node.Segment) is
// seg: curriculum/variant/locale/seg/index.html.
func NodePage(e model.Export, seg string) string { return e.Dir() + "/" + seg + "/" + Index }

// CurriculumIndex is a curriculum's landing page: its slug/index.html.
func CurriculumIndex(slug string) string { return slug + "/" + Index }

// Handbook is the export's printable handbook.
func Handbook(e model.Export) string { return e.Dir() + "/handbook.html" }

// PDF is the export's handbook printed to PDF.
func PDF(e model.Export) string { return e.Dir() + "/handbook.pdf" }

// Feed is the export's Atom feed of changes.
func Feed(e model.Export) string { return e.Dir() + "/feed.xml" }

// BundleDir is the folder of the export's bundles: bundles/curriculum/variant/locale.
func BundleDir(e model.Export) string { return BundlesRoot + "/" + e.Dir() }

// TreeJSON is the export's JSON bundle.
func TreeJSON(e model.Export) string { return BundleDir(e) + "/tree.json" }

// Changes is the export's history of changes (changes.json).
func Changes(e model.Export) string { return BundleDir(e) + "/changes.json" }

// MarkdownDir is the folder of the export's Markdown bundle, with a
// trailing slash: bundles/curriculum/variant/locale/markdown/.
func MarkdownDir(e model.Export) string { return BundleDir(e) + "/markdown/" }

// MarkdownZip is the export's Markdown bundle as one archive.
func MarkdownZip(e model.Export) string { return BundleDir(e) + "/markdown.zip" }

// Trees lists the folders that hold an export's files, for carrying an
// export over from the previous output: its bundles and its pages.
func Trees(e model.Export) []string { return []string{BundleDir(e), e.Dir()} }
