// Package markup makes text from the Curriculum Content API fit to stand
// in the HTML and XML every format writes, by one rule: what neither HTML
// nor XML 1.0 may hold as text is replaced, and nothing else changes.
//
// Replaced are invalid UTF-8 (each byte, as a range loop, the fetcher and
// encoding/json read it), control characters (C0 other than tab, line
// feed and carriage return; DEL; C1, which also hides terminal escape
// sequences) and Unicode noncharacters (U+FDD0 to U+FDEF, and U+FFFE and U+FFFF in every
// plane). Text, for running text such as a node's Markdown, replaces them
// by U+FFFD so that what was there stays visible; Line, for one-line text
// (titles, labels, names), by a space, and line breaks and tabs too, as
// the fetcher does for titles.
//
// Lang makes a locale code a lang attribute value. Escaping is left to
// the writer of each format (html/template, encoding/xml).
package markup
