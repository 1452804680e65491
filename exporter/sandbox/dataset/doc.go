// Package dataset holds the content that curex sandbox serves: organizations,
// users and tokens, curricula with their variants, node trees, overrides,
// additions and translations. It loads and validates the JSON dataset format
// described in docs/sandbox.md, embeds the sample dataset, generates synthetic
// datasets for scale, and resolves a curriculum for one variant and locale the
// way the Curriculum Content API does.
//
// A Dataset is plain data. Build an Index from it to look things up and to
// resolve trees; the Index never changes the Dataset.
package dataset
