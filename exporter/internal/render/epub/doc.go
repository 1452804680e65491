// Package epub writes the EPUB 3 format: one book per variant × locale,
// holding the handbook's content (package content: Markdown as HTML, TeX
// as MathML, the images' local copies) as a reflowable e-book.
//
// A book is an OCF zip container: the "mimetype" entry first and stored,
// META-INF/container.xml, and under EPUB/ the package document
// (package.opf), the navigation document (nav.xhtml: the table of contents
// nested as the tree, and landmarks), a title page, one XHTML content
// document per top-level node (a unit, with its lessons inside, headings
// by depth), the images the content shows (images/, PNG, JPEG or GIF) and
// one style sheet (css/book.css; text fonts are left to the reading
// system, so CJK text uses the reader's own). A book that holds math also
// carries the math font (fonts/latinmodern-math.woff2, declared in the
// manifest) and the rules of math in its style sheet (package mathstyle).
//
// The package document carries the curriculum's metadata: a stable
// dc:identifier (a UUID derived from the curriculum, variant and locale
// ids, so a new edition replaces the old one in a reader's library),
// dc:title, dc:language, dcterms:modified and dc:date from the content's
// date (never the clock), and schema.org accessibility metadata that
// describes what this book holds: textual access, visual too when it has
// images, MathML when it has math, alternative text when every image has
// one, and dcterms:conformsTo EPUB Accessibility 1.1 at WCAG 2.1 AA
// (ConformsTo) when every image has one and every link has text. For assistive technology the
// table of contents carries role="doc-toc" and an empty table header cell
// becomes a data cell: DAISY Ace finds no violation in the sample books
// (TestAce). Right-to-left locales (Arabic) get
// page-progression-direction="rtl" and dir="rtl" on every page.
//
// The book is built in memory and is the same bytes for the same tree
// and options (package zipfile). Names inside it are derived from
// positions (p1.xhtml, n12) and content hashes, never from titles; every
// string from the API is escaped. A link or image that would leave the
// book (a relative link to the website, a remote image, an image format
// EPUB 3.2 does not require readers to show) becomes text: an image's alt
// text as a link to its URL, a relative link's text alone.
package epub
