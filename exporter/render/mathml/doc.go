// Package mathml turns TeX, as authors write it between dollars in
// Markdown, into presentation MathML, at build time, with no JavaScript in
// the pages.
//
// The conversion is Temml's (temml.org, MIT; the minified build vendored
// under temml/, re-vendored by `make vendor-temml`), run in goja, a
// JavaScript interpreter written in Go, so the build needs neither Node.js
// nor cgo. A Converter keeps a pool of interpreters, each with Temml loaded
// once, and a bounded cache of results by expression, since the same
// expressions recur across a curriculum's variants and locales.
//
// Expressions are untrusted. An expression longer than MaxInput bytes is
// refused without running Temml; Temml runs with trust off (no \href,
// \url, \includegraphics, \style, \class, \id, \data) and a bound on macro
// expansions, so a loop of \def is a parse error, the same on every
// machine. Its output is then sanitized (Sanitize): only presentation
// MathML elements and attributes are kept, with no style, class, id, href
// or event handler and no HTML or SVG inside; a TeX annotation is kept.
// Whether an expression converts depends only on the expression, never on
// the machine's load: the run's context can stop a conversion that is
// under way, which fails the run, not the expression.
package mathml
