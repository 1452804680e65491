// Package attrs reads a content node's free-form attributes, untrusted
// JSON from the Curriculum Content API, once, into typed sections that
// every renderer shows the same way. The website and the handbook
// (package content) and the Markdown bundle (package markdown) render the
// sections Parse returns; they decide how a shape looks, never what shape
// a value has.
//
// # Sections
//
// Parse returns one Section per member, in this order: "description",
// "learning_objectives", then every other key in byte order. An Order,
// the publisher's (attribute_order), puts the keys it lists first, in its
// order, after the lead text. It leaves out
// a member whose value is JSON null (or empty), and a "title" string equal
// to the node's title (surrounding white space aside). A "description"
// that is a string is the node's lead text (Section.Lead): shown first and
// without a heading. A member that is not one valid JSON value is kept, of
// Kind Invalid, so that nothing the author wrote silently disappears.
//
// # Shapes
//
// Every value is one of these kinds, decided here and only here:
//
//   - Text: a string, which is Markdown;
//   - Number (its JSON literal, as received) and Bool;
//   - Null: JSON null inside an array, kept to keep positions (null members
//     of objects are dropped);
//   - Terms: an array of {term, definition}-like pairs: every element an
//     object of exactly two string members, one named like a term (term,
//     word, name, title, label, concept, key) holding one non-blank line,
//     one named like a definition (definition, meaning, description, value,
//     explanation, text);
//   - Table: an array of flat records: every element a non-empty object
//     whose values are all numbers, booleans, null or one-line strings,
//     with at most MaxColumns distinct keys in all (the columns, sorted);
//   - Records: any other array whose elements are all non-empty objects;
//   - List: any other array (an empty one too);
//   - Fields: an object, its non-null members sorted by key;
//   - JSON: a value nested deeper than MaxDepth, as compact JSON of at most
//     MaxJSONRunes runes.
//
// An array of term pairs is Terms before it is a Table. Tables and
// records are decided at every depth, so a table is a table wherever it
// stands; a renderer that cannot nest a table shows it as Records.
//
// # Values of a kind
//
// Some values say what they are: Minutes (a duration), Count (a count,
// its digits grouped), Date (a calendar date) and Link (an http or https
// URL). These functions decide it once, for every format; the page's
// language writes them (package i18n).
//
// Parse is deterministic and bounded: the same input gives the same
// sections, and no input makes it recurse deeper than MaxDepth or keep
// more than the input holds.
package attrs
