// Package mathml turns TeX, as authors write it between dollars in
// Markdown, into presentation MathML, at build time, with no JavaScript in
// the pages.
//
// The conversion is Temml's (temml.org, MIT; the minified build vendored
// under temml/, re-vendored by `make vendor-temml`), with Temml's mhchem
// extension for chemistry (\ce, \pu; temml/mhchem.min.js, MIT and
// Apache-2.0, see temml/mhchem.NOTICE) loaded after it, run in goja, a
// JavaScript interpreter written in Go, so the build needs neither Node.js
// nor cgo. A Converter keeps a pool of interpreters, each with Temml loaded
// once, and a bounded cache of results by expression, since the same
// expressions recur across a curriculum's variants and locales.
//
// Expressions are untrusted. An expression longer than MaxInput bytes is
// refused without running Temml; Temml runs with trust off (no \href,
// \url, \includegraphics, \style, \class, \id, \data), a bound on macro
// expansions, so a loop of \def is a parse error, and a work budget (see
// budget.go): the tokens its macro expander hands out, the MathML
// elements it builds and the bytes it writes are counted, by patches
// applied to Temml's source when it is compiled (and mhchem's parsing of
// its strings, in the same steps), and an expression over
// any bound stops there with a *BudgetError. The counts depend on the
// expression alone, so what converts is the same on every machine, and
// no expression under MaxInput costs more than about a second of CPU and
// a few tens of MB. Its output is then sanitized (Sanitize): only presentation
// MathML elements and attributes are kept, with no style, id, href or
// event handler and no HTML or SVG inside, and no class but those the math
// style sheet styles (package mathstyle: the column spacing Temml writes
// as inline style becomes such classes); a TeX annotation is kept.
// Whether an expression converts depends only on the expression, never on
// the machine's load: the run's context can stop a conversion that is
// under way, which fails the run, not the expression.
package mathml
