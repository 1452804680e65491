// Package treeschema checks tree.json documents against their JSON
// Schema: for tests (those of jsonbundle, which validate every bundle they
// encode, and the end-to-end tests of the exporter, which validate every
// bundle an export writes) and for integrators, through curex validate.
//
// The schema (draft 2020-12) ships as docs/schema/tree.schema.json; this
// package embeds an identical copy, served by SchemaJSON and compiled by
// NewValidator. It lives apart from jsonbundle so that the exporter does
// not link a JSON Schema library: an export never validates what it
// writes, the tests do; only the command curex validate links it.
package treeschema
