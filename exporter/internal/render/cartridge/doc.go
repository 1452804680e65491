// Package cartridge writes the opt-in "cartridge" format: one IMS Common
// Cartridge archive (.imscc) per variant × locale, which learning
// management systems (Canvas, Moodle, Schoology, Brightspace, Blackboard)
// import as a course's modules and pages. It writes Common Cartridge 1.1
// (the default: Moodle imports no later version) or 1.3 (see Version);
// the two differ in namespaces only.
//
// The archive (see layout.Cartridge) holds, in this order:
//
//   - imsmanifest.xml: the Common Cartridge manifest, with the
//     curriculum's metadata in the LOM manifest profile (title, the
//     variant chain as description and keywords, language, the content's
//     date), one organization whose items follow the tree in reading
//     order, and the resources;
//   - style.css: the one stylesheet every page depends on;
//   - pages/<segment>.html: one webcontent resource per node, a
//     self-contained page (title, numbering, attributes as the handbook
//     shows them, math as MathML) written as polyglot markup, both valid
//     HTML and well-formed XHTML (package xhtml);
//   - images/<sha256>.<ext>: the images the pages show, when the run
//     keeps local copies of them (render.Options.Images), referenced
//     relatively and listed as files of the pages that show them;
//   - links/<segment>.xml: with --site-url and the website, one web link
//     (imswl_xmlv1p1, or imswl_xmlv1p3) per leaf node to its page on the
//     site.
//
// A node with children becomes a folder item holding its own page first
// and then its children's items; a leaf is an item for its page,
// followed by its web link. Identifiers are derived from the curriculum,
// variant and locale ids (the manifest) and from each node's segment
// (items and resources), as valid XML NCNames, so a re-exported
// cartridge updates the same items when imported again. Archive paths use
// node segments only, never titles. The archive is reproducible byte for
// byte (package zipfile): fixed order and the content's date.
package cartridge
