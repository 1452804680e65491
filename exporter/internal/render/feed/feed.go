package feed

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/curex/curex/exporter/internal/changes"
)

// Labels are the words of a feed, in its language.
type Labels struct {
	// Entry titles the entry of a date with n changes.
	Entry func(n int, date string) string
	// Added ... Translated head the lists of an entry.
	Added, Removed, Moved, Retitled, ContentChanged, Translated string
	// MovedFromTo formats a move ("from %s to %s"); WasTitled an old title
	// ("was %s").
	MovedFromTo, WasTitled string
}

// Options place a feed and its links.
type Options struct {
	// Title, Subtitle and Lang describe the feed.
	Title, Subtitle, Lang string
	// Self is the feed's URL and Page the "What's new" page's, both as
	// links from the feed (relative without a site URL).
	Self, Page string
	// Node turns a node's page path (relative to the output root) into a
	// link from the feed.
	Node func(path string) string
	// ID is the feed's permanent identifier (an absolute IRI).
	ID string
	// Updated is the feed's date when it has no entry.
	Updated time.Time
	// Generator names the program.
	Generator string
	Labels    Labels
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
}

type atomText struct {
	Type string `xml:"type,attr,omitempty"`
	Body string `xml:",chardata"`
}

type atomEntry struct {
	Title   string   `xml:"title"`
	ID      string   `xml:"id"`
	Updated string   `xml:"updated"`
	Link    atomLink `xml:"link"`
	Content atomText `xml:"content"`
}

type atomFeed struct {
	XMLName  xml.Name   `xml:"http://www.w3.org/2005/Atom feed"`
	Lang     string     `xml:"xml:lang,attr,omitempty"`
	Title    string     `xml:"title"`
	Subtitle string     `xml:"subtitle,omitempty"`
	ID       string     `xml:"id"`
	Updated  string     `xml:"updated"`
	Links    []atomLink `xml:"link"`
	Author   struct {
		Name string `xml:"name"`
	} `xml:"author"`
	Generator string      `xml:"generator,omitempty"`
	Entries   []atomEntry `xml:"entry"`
}

// Anchor is the fragment of an entry on the "What's new" page.
func Anchor(e *changes.Entry) string {
	sum := sha256.Sum256([]byte(e.PreviousETag + "\x00" + e.ETag + "\x00" + e.Date.UTC().Format(time.RFC3339)))
	return "change-" + hex.EncodeToString(sum[:6])
}

// Atom returns h as an Atom feed (RFC 4287), newest entry first. Titles
// come from the API: they are escaped, never markup.
func Atom(h *changes.History, o Options) ([]byte, error) {
	f := atomFeed{Lang: o.Lang, Title: o.Title, Subtitle: o.Subtitle, ID: o.ID, Generator: o.Generator,
		Links: []atomLink{{Href: o.Self, Rel: "self", Type: "application/atom+xml"}, {Href: o.Page, Rel: "alternate", Type: "text/html"}}}
	f.Author.Name = o.Title
	updated := o.Updated
	for i := range h.Entries {
		e := &h.Entries[i]
		if e.Date.After(updated) {
			updated = e.Date
		}
		date := e.Date.UTC().Format("2006-01-02")
		anchor := Anchor(e)
		f.Entries = append(f.Entries, atomEntry{
			Title:   o.Labels.Entry(e.Count(), date),
			ID:      o.ID + "/" + anchor,
			Updated: e.Date.UTC().Format(time.RFC3339),
			Link:    atomLink{Href: o.Page + "#" + anchor, Rel: "alternate", Type: "text/html"},
			Content: atomText{Type: "html", Body: entryHTML(e, o)},
		})
	}
	f.Updated = updated.UTC().Format(time.RFC3339)
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("feed: %w", err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// entryHTML is an entry's content: a list per kind of change, as HTML
// (which the feed then escapes as text, as type="html" wants).
func entryHTML(e *changes.Entry, o Options) string {
	var b strings.Builder
	link := func(it changes.Item) string {
		t := html.EscapeString(it.Title)
		if it.Path == "" || o.Node == nil {
			return t
		}
		return `<a href="` + html.EscapeString(o.Node(it.Path)) + `">` + t + `</a>`
	}
	list := func(head string, items []string) {
		if len(items) == 0 {
			return
		}
		b.WriteString("<h3>" + html.EscapeString(head) + "</h3><ul>")
		for _, it := range items {
			b.WriteString("<li>" + it + "</li>")
		}
		b.WriteString("</ul>")
	}
	var added, removed, moved, retitled, changed, translated []string
	for _, it := range e.Added {
		added = append(added, link(it))
	}
	for _, it := range e.Removed {
		removed = append(removed, link(it))
	}
	for _, m := range e.Moved {
		moved = append(moved, link(m.Item)+" ("+html.EscapeString(fmt.Sprintf(o.Labels.MovedFromTo, orTop(m.From), orTop(m.To)))+")")
	}
	for _, r := range e.Retitled {
		retitled = append(retitled, link(r.Item)+" ("+html.EscapeString(fmt.Sprintf(o.Labels.WasTitled, r.From))+")")
	}
	for _, it := range e.ContentChanged {
		changed = append(changed, link(it))
	}
	for _, it := range e.Translated {
		translated = append(translated, link(it))
	}
	list(o.Labels.Added, added)
	list(o.Labels.Removed, removed)
	list(o.Labels.Moved, moved)
	list(o.Labels.Retitled, retitled)
	list(o.Labels.ContentChanged, changed)
	list(o.Labels.Translated, translated)
	return b.String()
}

func orTop(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
