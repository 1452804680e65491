// Package content turns a content node's free-form attributes, untrusted
// JSON from the Curriculum Content API, into safe HTML for the website.
//
// Strings are Markdown, rendered with goldmark (GFM tables, strikethrough,
// task lists and autolinks, footnotes, typographic punctuation, CJK line
// breaks). Fenced code is highlighted by chroma with CSS classes only;
// StyleCSS returns the matching stylesheet (chroma's "github" style, and
// "github-dark" under prefers-color-scheme: dark). Highlighting gives the
// same bytes whatever the machine's load: curex's own copies of chroma's
// lexers never give up on a match after chroma's 250 ms, and a block
// whose highlighting takes longer than HighlightTimeout fails its page
// (ErrHighlightTimeout) instead of coming out different. Blocks over 64
// KiB or with a line over 2,000 bytes, and blocks a lexer loops on, are
// shown plain (see highlight.go).
//
// Everything the API sends is treated as hostile:
//
//   - Raw HTML in Markdown is never passed through. Inline and block HTML
//     is shown as escaped text, so nothing the author wrote silently
//     disappears; a construct that is only an HTML comment is dropped, as
//     Markdown authors expect.
//   - Link and image URLs must be http, https or mailto (images: http or
//     https), or relative. Anything else (javascript:, vbscript:, data:,
//     file:, ... however obfuscated with case, whitespace, control
//     characters or entities) loses its link: the link text, or an image's
//     alt text, is kept as plain text.
//   - Absolute links get rel="noopener noreferrer nofollow"; images get
//     loading="lazy".
//   - No element carries a style attribute or an event handler, so pages
//     work under a strict Content-Security-Policy.
//   - Heading and footnote ids start with a per-call prefix, so several
//     Markdown blocks can share a page.
//
// Node renders every attribute as package attrs reads it, the same reading
// as the Markdown bundle's: "description" first, then
// "learning_objectives", then all other members sorted by key, each in its
// own section with a labelled heading. JSON null means "no value" and is
// omitted; every other value is shown, in the tidiest form its shape allows
// (flat records as a table), down to escaped JSON for shapes with no better
// form. Output is deterministic: the same input always gives the same
// bytes.
package content
