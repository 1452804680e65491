// Package handbook renders the printable handbook of one curriculum variant
// in one locale: a single, self-contained HTML file
// (<curriculum>/<variant>/<locale>/handbook.html) that a school can e-mail,
// read on a phone, print from a browser, or have headless Chromium turn
// into handbook.pdf.
//
// # Document
//
// The page has a cover (curriculum, variant chain, locale, date of the
// content, translation progress, generator), a table of contents and every
// node of the tree in reading order (depth first, pre-order), each as one
// <section> with its heading and its attributes rendered by the content
// package. The tree passed to Render is expected to hold published nodes
// only; Render shows whatever it is given.
//
// Numbering comes from the API: a node is labelled with its type_display
// ("Unit 1"), else its type's display name and ordinal label ("Lesson" +
// "3"), exactly as on the website. Anchors (#n0, #n1, ...) and the id
// prefixes of the content's headings and footnotes (n0-, n1-, ...) are
// derived from the position in reading order, never from the API's ids, so
// ids are unique and safe however hostile the data.
//
// Nodes shown in a fallback language (not translated, in a locale other
// than the curriculum's primary one) carry a short notice and lang, and dir
// when that language's direction differs, on their title and content; the
// labels of their attributes are in that language too. The
// <html> element carries the locale's lang, and dir="rtl" for right-to-left
// locales; the style sheet uses logical properties only, so the layout
// mirrors.
//
// # Templates and theme
//
// The markup comes from templates/handbook.html (embedded). Its templates
// are all named "handbook" or "handbook-*", because the website renderer
// parses the same embedded folder. A theme folder (Options.ThemeDir) may
// hold a handbook.html whose {{define "handbook-..."}} blocks replace the
// defaults one by one, and an assets/handbook.css that replaces the style
// sheet. Templates receive a *Page. The style sheet and the light style of
// the code highlighting are inlined in one <style> element, so the file
// stands alone; there is no JavaScript.
//
// # Printing
//
// Paper is A4 by default; Info.Paper "letter" selects US Letter. A media
// query cannot pick the paper (the paper size is an output of @page, not an
// input to media queries), so the template writes the @page size rule
// itself, after the theme's style sheet (block "handbook-page-rules"), and
// puts a paper-a4 or paper-letter class on <html> for themes. Chromium
// honours it when printing with preferCSSPageSize. The style sheet sets the
// margins, keeps tables, code, figures and lists of terms on one page where
// they fit, keeps headings with what follows them, sets orphans and widows,
// and prints the address of external links after them.
//
// Every top-level node (a unit, an appendix) and the nodes under it form a
// Part: a <div> that starts a new page. Running headers use what Chromium
// supports: page margin boxes and named pages. Chromium (148 at the time of
// writing) has no string-set or string(), so each part gets a named page,
// "#p3 { page: p3 }", and "@page p3 { @top-center { content: "Unit 4 ·
// Title" } }" written by the template, the text escaped by html/template as
// a CSS string. The cover and the table of contents have no header. Page
// numbers are left to the printer (Chromium's footer template, or its
// default footer), so the bottom margin boxes stay empty: Chromium replaces
// its default header or footer only where a page has margin-box content.
//
// # Fonts
//
// System fonts only, no downloads: a sans-serif stack that covers Latin,
// Greek and Cyrillic (Noto Sans, DejaVu Sans, Liberation Sans, Arial),
// Arabic script (Noto Naskh Arabic, Noto Sans Arabic, else DejaVu Sans,
// which Debian always has) and CJK (Noto Sans CJK from fonts-noto-cjk),
// each script picking the first face that has its glyphs. :lang() rules
// put the Arabic faces first for Arabic-script languages, and the matching
// CJK face first for Japanese, Simplified and Traditional Chinese and
// Korean, so Han characters take their regional forms.
//
// # Limits
//
// Render does not recurse on the tree: it flattens it with an explicit
// stack, so any depth renders (a 10,000-level chain is tested). Heading
// levels follow depth from <h2> (top level) to <h6> and stay at <h6> below;
// attribute headings sit one level below their node's heading, at most
// <h6>. The table of contents nests at most six lists deep; deeper nodes
// are listed, in order, at the deepest level. Sections are siblings within
// their part, not nested, so the depth of the HTML does not grow with the
// tree's. Memory is proportional to the tree and its rendered content.
// Output is deterministic: the same tree and Info give the same bytes
// (dates are formatted in UTC from Info.ContentDate, never the clock).
package handbook
