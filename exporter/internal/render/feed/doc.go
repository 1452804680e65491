// Package feed renders a history of changes (package changes, which
// computes what changed) as the Atom feed of a variant × locale, and names
// the anchor of each entry, which the website's "What's new" page and the
// feed's links share. The website (render/html) calls it where it renders
// that page.
package feed
