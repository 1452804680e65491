package html

import (
	"github.com/curex/curex/exporter/internal/changes"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render"
)

// SiteInfo is what the renderer knows of the whole export beyond single trees:
// every curriculum with its variants, locales and exported pairs. The
// website builds it from the run's catalog (model.Catalog).
type SiteInfo struct {
	// Title names the site in page headers and titles; empty means the
	// word for "Curricula" in each page's language.
	Title string
	// URL is the absolute base URL (--site-url) for the sitemap and
	// canonical links, with a trailing slash; empty means none.
	URL string
	// Generator names the program ("curex 0.1.0").
	Generator string
	// Identity is the publisher's identity: per-locale titles, footer,
	// links, scripts (Page.Brand) and the social card's image
	// (Page.Social). Title and Lang above are its Title and Language.
	Identity render.Identity
	// Lang is the language of the catalog and 404 pages ("en" when empty);
	// a curriculum's landing page is in its primary locale.
	Lang string
	// PageData, when set, is where an export's data is (the JSON bundle,
	// render.Options.PageData): every page of the export links to it.
	PageData func(e model.Export) string
	// Downloads are the files of each exported tree the selected
	// formats wrote for download (render.Options.Downloads), in the
	// order contents pages link to them.
	Downloads []render.Download
	// Curricula in the catalog's order.
	Curricula []*Curriculum
	// Changes holds the history of each variant × locale rendered, by its
	// folder (curriculum/variant/locale); a tree with one gets a "What's
	// new" page and an Atom feed. Nil means none.
	Changes map[string]*changes.History
}

// Curriculum is one base curriculum of the site.
type Curriculum struct {
	ID, Name, Description string
	// Slug is the curriculum's folder.
	Slug          string
	PrimaryLocale string
	// Locales are the enabled locales, in the API's order (the run's
	// catalog's).
	Locales []model.Locale
	// Variants start with the base curriculum (Name "", Slug "base"), then
	// the variants in the API's order (parents before their variants).
	Variants []Variant
	// Exported reports which variant × locale pairs have pages, keyed by
	// VariantSlug + "/" + LocaleSlug.
	Exported map[string]bool
}

// Variant is the base curriculum or one of its variants.
type Variant struct {
	// Name is "" for the base curriculum.
	Name, ID, Slug string
	// ParentSlug is the slug of the curriculum it derives from ("" for
	// the base).
	ParentSlug string
	// Depth is 0 for the base, 1 for a direct variant, 2 for a variant of
	// a variant.
	Depth int
}

// Outline is the shape of one exported tree, kept for other trees' pages:
// which nodes exist (those the run let through: published ones, unless
// it includes the others) and their parents, so a variant switcher can
// land on the same node or its nearest existing ancestor. Make one with
// OutlineOf.
type Outline struct {
	Export model.Export
	// Parent maps a node id to its parent's id ("" for a root).
	Parent map[string]string
	// Path maps a node id to its page, relative to the output root.
	Path map[string]string
	// progress is the tree's translation progress (TranslationProgress).
	progress int
}

// Outlines finds the outline of an export by variant and locale slug.
type Outlines interface {
	Outline(curriculumSlug, variantSlug, localeSlug string) *Outline
}
