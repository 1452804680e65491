// Package xhtml turns an HTML fragment, such as the content renderer
// writes (package content, MathML included), into well-formed XHTML: the
// XML serialization of HTML that EPUB content documents and IMS Common
// Cartridge pages require.
//
// The fragment is parsed as the HTML standard parses the inside of a
// body element (golang.org/x/net/html), so whatever markup it holds,
// however broken, comes out as one tree, and is written back as XML:
//
//   - void elements (br, img, hr, ...) are self-closed, every other HTML
//     element gets an end tag;
//   - attribute values are always quoted, and text and values escaped with
//     XML's five entities only (HTML's named entities were decoded by the
//     parser; a character XML forbids becomes U+FFFD);
//   - MathML and SVG elements are put in their namespaces with an xmlns
//     attribute where the namespace changes, and HTML elements inside them
//     back in the XHTML namespace;
//   - an element carrying lang also carries xml:lang with the same value;
//   - comments, doctypes, xmlns attributes the fragment wrote itself, and
//     names XML cannot hold (an element's tags are dropped, its content
//     kept; an attribute is dropped whole) are left out.
//
// The output is meant to sit inside an element in the XHTML namespace
// (http://www.w3.org/1999/xhtml), such as an XHTML document's body.
package xhtml
