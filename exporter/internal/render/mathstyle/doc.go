// Package mathstyle is how math looks in every format that shows it: the
// one home of the style rules MathML needs beyond a format's own look,
// and the math font they name.
//
// The rules (CSS): the columns of aligned, cases and array keep the
// alignment Temml gives them (the mathml package writes it as
// columnalign): Chromium ignores text-align: right on an mtd and needs
// its -webkit- value, as Temml's own temml.css does, which other engines
// ignore in turn; their columns and rows are spaced as Temml spaces them
// (the padding Temml writes as inline style, which no format keeps,
// becomes classes the mathml package's sanitizer names through CellClass
// and Styles, the one list of what it may keep); and math is set in
// Latin Modern Math, falling back to the reader's own math font, at 1.21em
// as KaTeX sets it (display and inline alike).
//
// The font: Latin Modern Math 1.959 (GUST e-foundry; GUST Font License,
// an instance of the LaTeX Project Public License; see font/), compressed
// losslessly to WOFF2 (391,676 bytes) by .ci/vendor-mathfont.sh. A format
// ships it only with documents that hold math (Holds), and links the rules
// only from them: the website as an asset whose name carries its content
// hash, linked by a style sheet that only pages with math load; the
// handbook (and so its PDF) inline; the EPUB and the cartridge as a file
// of the package, declared in its manifest.
package mathstyle
