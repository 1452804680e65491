package content

// readingCSS holds the rules of content's own markup that every format
// needs whatever its look, so that what content renders reads the same in
// the book, the cartridge and the website: a code block's lines start at
// the left in every locale. The rules of math (the alignment of its
// columns, its font) are package mathstyle's, which a format adds to the
// documents that hold math. Direction is not here: EPUB forbids the CSS
// direction and unicode-bidi properties, so code reads left to right by
// its dir attribute (the xhtml package writes it for the book and the
// cartridge; the website's theme sets it in CSS).
const readingCSS = `/* curex: content's own markup, in every format */
pre { text-align: left; }
`

// ReadingCSS returns the CSS every format that shows content needs under
// its own look: code blocks start at the left. A format's stylesheet
// includes it (the website's and handbook's themes carry the same rule in
// their own files, which a theme may restyle). The caller may modify the
// returned slice.
func ReadingCSS() []byte { return []byte(readingCSS) }
