// Package jsonbundle writes the JSON bundle of one curriculum variant in one
// locale: bundles/<curriculum>/<variant>/<locale>/tree.json.
//
// The document follows the tree.json contract of the design: the export's
// identity (curriculum, variant, variant chain, locales, ETag, resolution
// time), then every node as a nested tree in reading order, each with its
// type, status, position, free-form attributes, inheritance, translation,
// the path of its HTML page and its children. Its format is named
// "curex.tree/v1" in the document itself.
//
// Encode is deterministic: the same tree gives the same bytes, whatever the
// order in which attribute maps were filled. Keys come in a fixed order,
// attribute members sorted by name; lines are indented by two spaces per
// level, as encoding/json's MarshalIndent would, and the file ends in a
// newline. Strings are not HTML-escaped ("<" stays "<"). Encode never
// recurses, so a tree of any depth is encoded in memory proportional to
// its size: indentation stops growing below 32 levels of nesting.
//
// The JSON Schema (draft 2020-12) of the format ships as
// docs/schema/tree.schema.json; package treeschema embeds it and
// validates documents against it, as tests do on every bundle they
// produce.
package jsonbundle
