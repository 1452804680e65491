// Package markdown writes the Markdown bundle of one curriculum variant in
// one locale: a folder of Markdown files that mirrors the curriculum,
// bundles/<curriculum>/<variant>/<locale>/markdown/, and a zip archive of
// it, bundles/<curriculum>/<variant>/<locale>/markdown.zip.
//
// # Layout
//
// Every node is one file. A node with children is a folder holding its own
// page, index.md, and its children; a node without children is a file
// beside its siblings:
//
//	index.md                                  table of contents
//	SUMMARY.md                                the same, in mdBook/GitBook form
//	01-foundations-of-algebra/index.md        a unit
//	01-foundations-of-algebra/01-variables.md a lesson
//
// Names start with the node's 1-based place among its siblings, zero-padded
// to the width of the sibling count (at least two digits), so that every
// listing sorts in curriculum order, followed by a slug of the title (made
// by package slug, in the title's own script), or of the id when the title
// has no letter. The number makes a name unique among its siblings; slugs
// make names readable and safe: only lower-case letters, digits, "-" and
// the ".md" extension, so nothing a title or an id holds can choose a path
// outside the bundle.
//
// Folders nest at most MaxFolderDepth deep and a folder's path within the
// bundle stays under about MaxFolderPath bytes. The folder that reaches
// either limit holds every descendant of its node flat, as files named by
// their place in reading order within that folder ("0001-slug.md"). Their
// nesting still shows in the tables of contents, in the child links and in
// the front matter.
//
// # Files
//
// A node's file has YAML front matter (title, Hugo weight, id, type,
// ordinal, status, inheritance, translation, locale, variant, curriculum,
// variant chain, parent), a "# Title" heading, the description Markdown as
// received, the learning objectives as a list, every other attribute under
// a "## Label" heading, and links to its children. Attributes are read by
// package attrs, as on the website, so a value takes the same form in
// both: flat records a table, other records a list of records. Links are relative and
// point at .md files, so they work in a code host's Markdown viewer, in
// MkDocs and in mdBook.
//
// Markdown received from the API is untrusted and the renderers that
// publish a bundle trust it, so it is written defanged (content.Defang at
// the top level of a page, content.DefangNested inside list items and
// table cells): raw HTML shows as text and links to refused schemes as
// their text, as on the website; everything else as received. Two more
// changes keep it from breaking the file's structure, and neither changes
// how it renders on its own: line endings become "\n" and NUL becomes
// U+FFFD, and a fenced code block or a raw HTML block left open at the end
// of a string is closed, so that it cannot swallow the headings and links
// that follow. Every piece of text the package writes itself (headings,
// labels, link texts, front matter) is escaped so that no title, id or key
// can break the structure.
//
// With Options.Hugo the bundle is laid out as a Hugo content folder
// instead: section pages and the root page are named _index.md, links
// follow, pages leave out the heading that Hugo themes print from the
// title, and SUMMARY.md is not written.
//
// # Archive
//
// The zip archive holds the same files under one folder named after the
// export ("algebra-1-texas-es/"), in the order they were written, with a
// fixed modification time (the tree's ResolvedAt) and fixed permissions, so
// that the same tree always gives the same bytes.
//
// Write never recurses over the tree, so a tree of any depth is written in
// memory proportional to its size.
package markdown
