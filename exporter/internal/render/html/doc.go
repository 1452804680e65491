// Package html renders the curex website: a catalog of curricula, a landing
// page per curriculum with its variant × locale matrix, and per variant ×
// locale a table of contents, one page per node and a search index.
//
// # Pages and links
//
// Every internal link is relative ("../alg-u1/index.html", always naming
// index.html), so the site works from file://, from any sub-path and from
// a bucket. The one exception is 404.html: hosts serve it at any path, so
// its links start at the site URL when there is one, else at "/".
// Canonical links, and absolute hreflang alternates, only appear when
// Site.URL is set; sitemap.xml is only written then too (a sitemap needs
// absolute URLs), and robots.txt names it.
//
// A node page carries lang (and dir="rtl") on <html>; a node shown in the
// primary locale because it has no translation gets a visible notice and
// lang/dir on its content. The language switcher and the
// <link rel="alternate" hreflang> links land on the same node in every
// other exported locale of the variant (x-default is the primary locale);
// the variant switcher lands on the same node in the other variants, or on
// its nearest ancestor there, or on that variant's contents. Titles from
// the API are isolated in <bdi> wherever they sit among other text.
//
// Trees of more than 300 nodes list, in a node page's sidebar, the path to
// the node with a window of siblings along it (at most ten on each side)
// and the node's first 21 children, instead of every node; a link
// ("… 4,969 more in the contents") to the contents page, which lists every
// node, stands for the siblings left out. A page's size then does not grow
// with the breadth of the tree, and a tree renders in linear time: one flat
// tree of 100,000 siblings writes about 8 KB per node page.
//
// # Search
//
// Each variant × locale has search.json (for programs: every text
// attribute of every node, as plain text), search-index.js (the head:
// the number of nodes, their types, the names of the other files),
// search-terms.js and search-terms-<hex>.js (each word's Snowball stem
// and the nodes and fields that hold it, by exporter/internal/render/terms,
// split by the start of the stems into shards of at most 24 KiB by
// exporter/internal/render/shard, of which a query loads its words'),
// search-titles-N.js (titles, types and pages of 64 nodes, loaded for
// the results shown) and search-body-N.js (chunks of about 4 KiB of text,
// loaded for the snippets of the first ten results), with the stemmer of
// its language (assets/stem/, the same script the build ran); scripts,
// because fetch is not allowed from file://. The box matches a
// query's words by stem, by prefix and one edit away, and CJK text and
// codes as substrings of case- and diacritic-folded text; it ranks title
// matches first, then objectives, standards and vocabulary, and shows a
// snippet with the words marked. The catalog and each landing page search
// every exported variant × locale, listed in a script beside them
// (search-sources.js) that the box loads on first use, the reader's
// languages first, each result naming its variant and language, one
// lesson's variants grouped, with filters by variant, language and type.
// Those boxes read first the site's search directory (searchdir.go:
// search-dir.<lang>.js, which exports hold each stem), and load only the
// indexes that can rank a result among those shown. Without
// JavaScript the form leads to the contents page. docs/formats.md has the
// files' shapes.
//
// # Themes
//
// Templates are embedded from templates/ and assets from themes/default/.
// Options.ThemeDir adds a theme folder: its *.html files are parsed after
// the embedded ones, on a Clone per page kind, so {{define "footer"}} there
// replaces that block on every page, and a file named after a page kind
// (node.html, toc.html, catalog.html, curriculum.html, 404.html) applies to
// that kind only. Its assets/ files replace the default assets by name
// (site.css, site.js, search.js, icons/NAME.svg, icons.css, chroma.css) and other
// files are copied to assets/ as they are. The folder is read through
// package localfile: no symlink, each file checked against its extension.
// Known assets are written with a
// content hash in their name (assets/site.3f2a9c1e.css). Templates receive
// a *Page; its fields are the theme contract.
//
// Pages use no inline script or style, so they work under a
// Content-Security-Policy of script-src 'self'; style-src 'self'.
//
// # The publisher's identity
//
// Options.Identity and Site.Identity (render.Identity) give the site the
// publisher's title (per locale), the catalog's and 404 page's language,
// a logo, a favicon and a card image (local files copied to assets/ with
// a content hash), an accent colour (assets/identity.<hash>.css, which
// sets --accent after site.css, lighter in dark mode), a footer's text
// and links, and scripts (analytics) each page loads with defer. Every
// page carries OpenGraph and Twitter card tags (Page.Social). All of it
// is escaped as content is.
package html
