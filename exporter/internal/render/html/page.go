package html

import (
	"html/template"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/i18n"
)

// Page is what every template receives. Its fields are part of the theme
// contract: a theme's templates may use any of them. Links are relative to
// the page (or, on the 404 page only, rooted at "/" or the site URL).
type Page struct {
	// Kind is "catalog", "curriculum", "toc", "node", "whatsnew" or
	// "notfound"; it is also the class of <body>.
	Kind string
	// Path is the page's file relative to the output root.
	Path string
	// Lang is the page's language (the lang of <html>); RTL sets dir="rtl".
	Lang string
	RTL  bool
	// Title is the document title; Description its meta description.
	Title, Description string
	// Canonical is the absolute URL of the page, only with a site URL.
	Canonical string
	// Alternates are the same page in every exported locale, then
	// x-default (the primary locale).
	Alternates []Alternate
	Site       *SiteInfo
	Header     Header
	// Breadcrumbs lead from the catalog to the page; the last has no Href.
	Breadcrumbs []Link
	// Languages and Variants are the switchers (empty on site pages).
	Languages []Switch
	Variants  []Switch
	// Search is the search box of a variant × locale (nil elsewhere).
	Search *SearchBox
	// Sidebar is the collapsible tree (node pages).
	Sidebar []*TreeItem
	// Node is the node of a node page.
	Node *NodeView
	// TOC is the whole tree (contents page); Bundle the JSON bundle's link.
	TOC    []*TreeItem
	Bundle string
	// Downloads are the other forms of this variant × locale (contents
	// page): handbook, PDF, Markdown and JSON bundles.
	Downloads []Download
	// WhatsNew links the "What's new" page and Feed the Atom feed of the
	// variant × locale (contents and "What's new" pages; empty when no
	// history is kept).
	WhatsNew, Feed string
	// Changes is the history of a "What's new" page.
	Changes *ChangesView
	// Catalog lists the curricula (catalog page).
	Catalog []CatalogEntry
	// Landing is the variant × locale matrix (curriculum page).
	Landing *Landing
	// Chroma is set when the page may hold highlighted code.
	Chroma bool
	// Math is set when the page holds math: it links math.css, the rules
	// and font of math (package mathstyle).
	Math bool
	// Brand is the publisher's identity on this page: logo, favicon,
	// accent style sheet, footer, scripts (never nil in a template).
	Brand *Brand
	// Social is the page's OpenGraph and Twitter card (never nil in a
	// template).
	Social *Social

	msgs   i18n.Messages
	assets *assetSet
	// tmpl is the template set of the page's kind, which Render runs;
	// themed names its blocks that reach a theme's (themedBlocks).
	tmpl   *template.Template
	themed map[string]bool
	// blocks, on a node page, holds the blocks its worker has rendered
	// for the tree's node pages (see Render); nil elsewhere.
	blocks blocks
	// root, when set, prefixes root-relative paths instead of computing
	// relative ones (the 404 page, served at any path).
	root string
}

// T returns the user-interface string key in the page's language.
func (p *Page) T(key string, args ...any) string { return p.msgs.T(key, args...) }

// Href returns the link from this page to a file given relative to the
// output root.
func (p *Page) Href(to string) string {
	if p.root != "" {
		return p.root + to
	}
	return rel(p.Path, to)
}

// Asset returns the link to a theme asset by its logical name ("site.css",
// "site.js", "theme.js", "icons.css", "chroma.css", "math.css"), or to a theme file by its path
// under assets/: both under their names with a content hash.
func (p *Page) Asset(name string) string {
	if a, ok := p.assets.byName[name]; ok {
		return p.Href(layout.Asset(a.Name))
	}
	if a, ok := p.assets.extraHashed[name]; ok {
		return p.Href(layout.Asset(a.Name))
	}
	return p.Href(layout.Asset(name))
}

// Alternate is a <link rel="alternate" hreflang>.
type Alternate struct {
	Lang, Href string
}

// Header is the page header: the site, the curriculum, the variant and the
// locale being read.
type Header struct {
	SiteTitle, SiteHref string
	// Curriculum is empty on site pages.
	Curriculum, CurriculumHref, CurriculumLang string
	Variant, Locale, TOCHref                   string
}

// Link is a titled link; Lang is set when the title is in another
// language than the page.
type Link struct {
	Title, Href, Lang string
	// TypeDisplay ("Lesson 3") and Icon (a CSS class) describe a node.
	TypeDisplay, Icon string
}

// Switch is one entry of the language or variant switcher.
type Switch struct {
	// Name is the locale's own name or the variant's name.
	Name, Href string
	// Lang is the locale code of a language entry.
	Lang string
	RTL  bool
	// Current marks the page's own locale or variant.
	Current bool
	// Progress is the translation progress of this variant in the
	// entry's locale (language entries): the share of its pages shown in
	// that language; -1 when unknown.
	Progress int
	// Depth indents variants; Nearest is set when the link lands on an
	// ancestor or the contents instead of the same node.
	Depth   int
	Nearest bool
}

// SearchBox configures the client-side search (themes/default/search.js)
// of a page: the indexes it searches and the words it shows.
type SearchBox struct {
	// Action is where the form leads without JavaScript: the contents
	// page of a variant × locale, or the page itself (catalog, landing
	// page), whose script runs the query of ?q= once it loads.
	Action string
	// Placeholder is the input's placeholder, in the page's language.
	Placeholder string
	// Sources are the indexes searched, one per variant × locale, in the
	// site's order; the script searches the reader's languages (the
	// page's, then the browser's) first. The pages of a variant × locale
	// list their one index here; the catalog and landing pages list theirs
	// in Script instead.
	Sources []SearchSource
	// Script, when set, is the script (layout.SearchSourcesFile, beside
	// the page) that lists the Sources as window.curexSearchSources[ScriptKey]:
	// the box loads it on first use, so a catalog of thousands of variants ×
	// locales does not carry the list in its HTML.
	Script, ScriptKey string
	// Across is set when the box searches more than one variant × locale
	// (catalog and landing pages): each result then names its source.
	Across bool
	// Widen, on the pages of one variant × locale, is the curriculum's
	// landing page, which searches all its variants × locales: the
	// results end with a link to it that carries the query (?q=).
	Widen string
}

// SearchSource is the search index of one variant × locale.
type SearchSource struct {
	// Key is the export's folder, the entry its scripts define; Index is
	// its search-index.js and Base the folder its paths are relative to
	// ("" or ending in "/").
	Key   string `json:"key"`
	Index string `json:"index"`
	Base  string `json:"base"`
	// Lang is the locale's code; From names the variant and the language
	// ("From Texas, in Español"), empty on the pages of one variant ×
	// locale.
	Lang string `json:"lang"`
	From string `json:"from,omitempty"`
	// Variant and Language name the variant and the language alone, for
	// the search box's filters and its list of a lesson's variants
	// (empty on the pages of one variant × locale).
	Variant  string `json:"variant,omitempty"`
	Language string `json:"language,omitempty"`
}

// TreeItem is one node in the sidebar or the contents page.
type TreeItem struct {
	// The fields of Link, not embedded: templates look up embedded fields
	// slowly, and a sidebar has many items.
	Title, Href, Lang, TypeDisplay, Icon string
	ID                                   string
	// Draft is the localized "Not published" label of an unpublished node
	// (only when the run includes unpublished nodes), else "".
	Draft string
	// Open and Current mark the path to the page's node.
	Open, Current bool
	// More is set when the node has children that are not listed here.
	More bool
	// ListClass holds the classes the items of this item's list share,
	// the same on each of them: the icon class of the list's first node,
	// and "more" when that node has children not listed. The sidebar sets
	// them once, on the list, so that an item weighs little.
	ListClass string
	// Class holds the item's own classes (its Icon, and "more" when More)
	// when they differ from ListClass, else "".
	Class    string
	Children []*TreeItem
	// HTML, when set, is this item already rendered by the tree-item
	// block (an item off the path to the page's node looks the same on
	// every page, so it is rendered once per tree); Children may then be
	// left out. A theme that redefines "tree" should print it.
	HTML template.HTML
	// TogglePre and TogglePost surround the title in the accessible name
	// of the button that shows or hides Children ("Sections of " and ""),
	// set when there are Children; the title sits in a <bdi> between them.
	TogglePre, TogglePost string
	// Elided, when positive, makes the item stand for that many siblings
	// the sidebar leaves out (a tree of more than 300 nodes lists a
	// window of siblings around the page's node): Title is the localized
	// "… 12 more in the contents" and Href the contents page, which lists
	// every node; the other fields are empty.
	Elided int
}

// NodeView is the main content of a node page.
type NodeView struct {
	// Type is the node type's name ("lesson"), TypeName its display name
	// ("Lección"), TypeDisplay the numbered form ("Lección 3").
	ID, Title, Type, TypeName, TypeDisplay, Icon string
	// Badges say where the content comes from in the variant chain.
	Badges []string
	// Draft is the localized "Not published" label of an unpublished node.
	Draft string
	// Fallback is the notice shown when the content is in the primary
	// locale; ContentLang and ContentRTL then describe it.
	Fallback    string
	ContentLang string
	ContentRTL  bool
	// Content is the HTML of the node's attributes.
	Content template.HTML
	// OnThisPage is the page's own table of contents: the headings of
	// Content and "In this section", on a page with four entries or more
	// (else empty).
	OnThisPage []Heading
	// Children are the node's children, Prev and Next the pages around it
	// in reading order.
	Children   []Link
	Prev, Next *Link
}

// Heading is an entry of a node page's table of contents: a heading's
// text, its link ("#id"), the language of the text when it is not the
// page's, and the headings under it.
type Heading struct {
	Title, Href, Lang string
	Children          []Heading
}

// CatalogEntry is one curriculum on the catalog page.
type CatalogEntry struct {
	Name, Description, Href, Lang string
	RTL                           bool
	Variants, Locales             int
}

// Landing is a curriculum's variant × locale matrix.
type Landing struct {
	Name, Description string
	Locales           []LandingLocale
	Rows              []LandingRow
}

// LandingLocale is a locale of the matrix: the catalog's, with its
// direction.
type LandingLocale struct {
	model.Locale
	// RTL is true for right-to-left scripts (ar, he, fa, ur, ...).
	RTL bool
}

// LandingRow is one variant of the matrix.
type LandingRow struct {
	Name  string
	Depth int
	Cells []LandingCell
}

// LandingCell is one variant × locale: a link to its contents, and to
// its other forms (Downloads), when it was exported.
type LandingCell struct {
	Href                  string
	Lang, LocaleName      string
	Published, Translated int
	Exported              bool
	Downloads             []Download
}

// Download is a link to another form of a variant × locale.
type Download struct {
	Href string
	// Type is the media type ("application/pdf"); Label the link text.
	Type, Label string
	// Kind names the form for styling: the format's name (handbook,
	// pdf, epub, cartridge, markdown, json).
	Kind string
	// Opens is set for a file the browser shows (the handbook): its link
	// has no download attribute.
	Opens bool
}

// ChangesView is what changed in a variant × locale, newest first.
type ChangesView struct {
	Entries []ChangeEntry
}

// ChangeEntry is one export's changes.
type ChangeEntry struct {
	// Anchor is the entry's id on the page (the feed links to it).
	Anchor string
	// Date is the day (2006-01-02) and DateTime the full time (RFC 3339).
	Date, DateTime string
	// Title counts the changes ("3 changes").
	Title  string
	Groups []ChangeGroup
}

// ChangeGroup is one kind of change ("Added", "Retitled", ...).
type ChangeGroup struct {
	Kind, Label string
	Items       []ChangeItem
}

// ChangeItem is a node that changed: its title, its page (none for a
// removed node), a note ("was …", "from … to …"), and the language of its
// title when it is not the page's (a node shown in fallback language).
type ChangeItem struct {
	Title, Href, Note, Lang string
}
