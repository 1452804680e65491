// Package changes tells what changed in a curriculum tree between two
// exports, so that teachers and integrators can follow updates: nodes
// added, removed, moved, retitled, with changed content, or newly
// translated.
//
// A Snapshot is the little of a tree a comparison needs (each node's id,
// parent, title, a hash of its content, whether it is translated). Diff
// compares two snapshots into an Entry. A History is the entries of one
// variant × locale, newest first: the changes.json of its bundle folder,
// the source of its "What's new" page and of its Atom feed, which the
// website renders (render/feed).
// Snapshots are kept between runs by a Store next to the cache; the
// History travels with the output.
package changes
