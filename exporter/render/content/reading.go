package content

// readingCSS holds the rules of content's own markup that every format
// needs whatever its look, so that what content renders reads the same in
// the book, the cartridge and the website:
//   - code (pre, code, kbd, samp) and formulas read left to right in every
//     locale, isolated from the page's direction: in an Arabic page,
//     3(x + 4) - 5 = 19 must not read 5 = 19 - (x + 4)3;
//   - the columns of aligned, cases and array keep the alignment Temml
//     gives them (columnalign): Chromium ignores text-align: right on an
//     mtd and needs its -webkit- value, which other engines ignore in turn.
const readingCSS = `/* curex: content's own markup, in every format */
pre, code, kbd, samp { direction: ltr; unicode-bidi: isolate; }
pre { text-align: left; }
math { direction: ltr; }
mtd[columnalign="left"] { text-align: left; text-align: -webkit-left; }
mtd[columnalign="right"] { text-align: right; text-align: -webkit-right; }
mtd[columnalign="center"] { text-align: center; text-align: -webkit-center; }
`

// ReadingCSS returns the CSS every format that shows content needs under
// its own look: code and formulas left to right in every locale, and the
// columns of formulas aligned as Temml says. A format's stylesheet
// includes it (the website's and handbook's themes carry the same rules in
// their own files, which a theme may restyle). The caller may modify the
// returned slice.
func ReadingCSS() []byte { return []byte(readingCSS) }
