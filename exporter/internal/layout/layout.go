// Package layout is the one place that spells where curex puts things: the
// files of an export in the output folder (pages, bundles, handbook, feed,
// search index), the site-wide files, and the folders of the cache.
// Renderers, the orchestrator, tree.json's node paths and the manifest all
// ask it, so the layout documented in README.md and docs/formats.md has
// one home.
//
// Every output path is relative to the output root, with forward slashes.
// Cache paths (see Cache) are paths of the operating system.
package layout

import (
	"strconv"

	"github.com/curex/curex/exporter/internal/model"
)

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
	// Assets is the folder of the theme's files: in a theme folder, and
	// at the output root, where the website renderer copies them.
	Assets = "assets"
	// Index is the page file of a folder.
	Index = "index.html"
	// ContentAssets holds the images content refers to, fetched and
	// kept by their SHA-256 (package assets).
	ContentAssets = Assets + "/content"
	// SearchSourcesFile lists, as a script, the search indexes the search
	// box of the page beside it searches: at the root for the catalog
	// (SiteSearchSources), in a curriculum's folder for its landing page
	// (CurriculumSearchSources).
	SearchSourcesFile = "search-sources.js"
	// SiteSearchSources is the catalog's list of search indexes.
	SiteSearchSources = SearchSourcesFile
)

// SearchSourcesPagePrefix starts the names of the pages of the site's
// list of search indexes (SearchSourcesPage).
const SearchSourcesPagePrefix = "search-sources-"

// SearchSourcesPage is page k of the site's list of search indexes, at
// the output root: the indexes the catalog's and landing pages' search
// boxes load the entries of when their query needs them.
func SearchSourcesPage(k int) string { return SearchSourcesPagePrefix + strconv.Itoa(k) + ".js" }

// SearchDirPrefix starts the names of the files of the site's search
// directory (SearchDir): which exports hold each stem, for the search
// box of the catalog and the landing pages.
const SearchDirPrefix = "search-dir"

// SearchDir is the start of the names of the search directory's files
// for the exports whose words are stemmed in lang (a terms.Language
// code; "" for words that are their own stems): search-dir.<lang>, or
// search-dir. The file of each shard is shard.File of it and the
// shard's prefix (search-dir.en.js, search-dir.en-<hex>.js), at the
// output root: a name with a dot, which no curriculum's folder has.
func SearchDir(lang string) string {
	if lang == "" {
		return SearchDirPrefix
	}
	return SearchDirPrefix + "." + lang
}

// CurriculumSearchSources is the list of search indexes of a curriculum's
// landing page: its slug/search-sources.js.
func CurriculumSearchSources(slug string) string { return slug + "/" + SearchSourcesFile }

// File names of an export's files: the last segment of the paths the
// functions below return. Each holds a dot, which no node's segment does,
// so they never meet a node's folder. Servers and publishers tell kinds of
// file by these names.
const (
	// HandbookFile is the printable handbook.
	HandbookFile = "handbook.html"
	// PDFFile is the handbook printed to PDF.
	PDFFile = "handbook.pdf"
	// EPUBExt ends the name of the EPUB book (see EPUB).
	EPUBExt = ".epub"
	// FeedFile is the Atom feed of changes.
	FeedFile = "feed.xml"
	// WhatsNewFile is the page of changes.
	WhatsNewFile = "whats-new.html"
	// SearchFile is the search index, for programs.
	SearchFile = "search.json"
	// SearchScriptFile is the search index as a script, which the search
	// box loads with a <script> element (so that it works from file://).
	SearchScriptFile = "search-index.js"
	// SearchBodyPrefix starts the name of each chunk of the search index's
	// text (search-body-0.js, search-body-1.js, ...), which the search box
	// loads with <script> elements once a query needs more than titles.
	SearchBodyPrefix = "search-body-"
	// SearchTitlesPrefix starts the name of each title file of the search
	// index (search-titles-0.js, ...: the titles, types and pages of 64
	// nodes), which the search box loads for the results it shows.
	SearchTitlesPrefix = "search-titles-"
	// SearchTermsFile is the search index's terms (stems and the words
	// they stand for, each with the nodes and fields that hold it), which
	// the search box loads with a <script> element when a query is typed.
	SearchTermsFile = SearchTermsBase + ".js"
	// SearchTermsBase starts the name of every terms file: the root
	// shard is SearchTermsFile, the others search-terms-<hex of their
	// prefix>.js (package render/shard).
	SearchTermsBase = "search-terms"
	// StemmerDir is the folder, under Assets, of the stemmers the search
	// box runs on a query's words (stem/<language>.<hash>.js).
	StemmerDir = "stem"
	// TreeFile is the JSON bundle.
	TreeFile = "tree.json"
	// ChangesFile is the history of changes.
	ChangesFile = "changes.json"
	// MarkdownFolder is the folder of the Markdown bundle.
	MarkdownFolder = "markdown"
	// MarkdownZipFile is the Markdown bundle as one archive.
	MarkdownZipFile = "markdown.zip"
	// CartridgeFile is the IMS Common Cartridge of the export (--formats
	// cartridge), which learning management systems import.
	CartridgeFile = "course.imscc"
)

// Dir is the export's folder: curriculum/variant/locale.
func Dir(e model.Export) string { return e.Dir() }

// ExportIndex is the export's contents page: curriculum/variant/locale/index.html.
func ExportIndex(e model.Export) string { return e.Dir() + "/" + Index }

// NodePage is the page of the node whose segment (model.Node.Segment) is
// seg: curriculum/variant/locale/seg/index.html.
func NodePage(e model.Export, seg string) string { return e.Dir() + "/" + seg + "/" + Index }

// NodePageParts returns what NodePage puts around a node's segment:
// NodePage(e, seg) is prefix + seg + suffix. It is for encoders that
// write many pages of one export without building each path; the parts
// meet the segment at a "/".
func NodePageParts(e model.Export) (prefix, suffix string) {
	return e.Dir() + "/", "/" + Index
}

// CurriculumIndex is a curriculum's landing page: its slug/index.html.
func CurriculumIndex(slug string) string { return slug + "/" + Index }

// Asset is the theme file name (a path under assets/, such as
// "site.1a2b3c4d.css" or "icons/unit.svg") in the output.
func Asset(name string) string { return Assets + "/" + name }

// ContentAsset is the image whose bytes have the hex SHA-256 sum, of
// the file extension ext (no dot): assets/content/<sum>.<ext>. Every
// export's pages refer to the one copy.
func ContentAsset(sum, ext string) string { return ContentAssets + "/" + sum + "." + ext }

// Handbook is the export's printable handbook.
func Handbook(e model.Export) string { return e.Dir() + "/" + HandbookFile }

// PDF is the export's handbook printed to PDF.
func PDF(e model.Export) string { return e.Dir() + "/" + PDFFile }

// EPUB is the export's EPUB book, named after the export so that a
// reader's library tells books apart: curriculum/variant/locale/
// curriculum-variant-locale.epub.
func EPUB(e model.Export) string {
	return e.Dir() + "/" + e.CurriculumSlug + "-" + e.VariantSlug + "-" + e.LocaleSlug + EPUBExt
}

// Feed is the export's Atom feed of changes.
func Feed(e model.Export) string { return e.Dir() + "/" + FeedFile }

// WhatsNew is the export's page of changes.
func WhatsNew(e model.Export) string { return e.Dir() + "/" + WhatsNewFile }

// Search is the export's search index (JSON).
func Search(e model.Export) string { return e.Dir() + "/" + SearchFile }

// SearchScript is the export's search index as a script.
func SearchScript(e model.Export) string { return e.Dir() + "/" + SearchScriptFile }

// SearchBodyFile is the file name of chunk i of the export's search
// text: search-body-<i>.js.
func SearchBodyFile(i int) string { return SearchBodyPrefix + strconv.Itoa(i) + ".js" }

// SearchBody is chunk i of the export's search text, a script.
func SearchBody(e model.Export, i int) string { return e.Dir() + "/" + SearchBodyFile(i) }

// SearchTitlesFile is the file name of title file i of the export's
// search index: search-titles-<i>.js.
func SearchTitlesFile(i int) string { return SearchTitlesPrefix + strconv.Itoa(i) + ".js" }

// SearchTitles is title file i of the export's search index, a script.
func SearchTitles(e model.Export, i int) string { return e.Dir() + "/" + SearchTitlesFile(i) }

// SearchTerms is the export's terms file name (one shard of its search
// terms), a script.
func SearchTerms(e model.Export, name string) string { return e.Dir() + "/" + name }

// Stemmer is the path of a stemmer's script named file (its language
// and a content hash: "en.1a2b3c4d.js") as the search box loads it:
// assets/stem/<file>.
func Stemmer(file string) string { return Assets + "/" + StemmerDir + "/" + file }

// BundleDir is the folder of the export's bundles: bundles/curriculum/variant/locale.
func BundleDir(e model.Export) string { return BundlesRoot + "/" + e.Dir() }

// TreeJSON is the export's JSON bundle.
func TreeJSON(e model.Export) string { return BundleDir(e) + "/" + TreeFile }

// Changes is the export's history of changes (changes.json).
func Changes(e model.Export) string { return BundleDir(e) + "/" + ChangesFile }

// MarkdownDir is the folder of the export's Markdown bundle, with a
// trailing slash: bundles/curriculum/variant/locale/markdown/.
func MarkdownDir(e model.Export) string { return BundleDir(e) + "/" + MarkdownFolder + "/" }

// Cartridge is the export's IMS Common Cartridge, among its bundles.
func Cartridge(e model.Export) string { return BundleDir(e) + "/" + CartridgeFile }

// MarkdownZip is the export's Markdown bundle as one archive.
func MarkdownZip(e model.Export) string { return BundleDir(e) + "/" + MarkdownZipFile }

// Trees lists the folders that hold an export's files, for carrying an
// export over from the previous output: its bundles and its pages.
func Trees(e model.Export) []string { return []string{BundleDir(e), e.Dir()} }
