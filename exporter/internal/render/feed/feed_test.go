package feed

import (
	"encoding/xml"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/changes"
)

// TestFeedEscapes: titles are text in the feed, whatever they hold.
func TestFeedEscapes(t *testing.T) {
	h := &changes.History{Entries: []changes.Entry{{Date: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), ETag: "2", PreviousETag: "1",
		Added:    []changes.Item{{ID: "x", Title: `<script>alert(1)</script> & "quotes"`, Path: "c/v/l/x/index.html"}},
		Retitled: []changes.Retitle{{Item: changes.Item{ID: "y", Title: "]]><evil/>"}, From: "<b>old</b>"}},
	}}}
	data, err := Atom(h, Options{Title: "T <&>", Lang: "en", Self: "feed.xml", Page: "whats-new/index.html", ID: "urn:curex:changes:x",
		Node: func(p string) string { return p }, Labels: Labels{
			Entry: func(n int, d string) string { return fmt.Sprintf("%s: %d", d, n) }, Added: "Added", Retitled: "Retitled",
			MovedFromTo: "from %s to %s", WasTitled: "was %s"}})
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Title   string `xml:"title"`
		Entries []struct {
			Content string `xml:"content"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(data, &f); err != nil {
		t.Fatalf("not XML: %v\n%s", err, data)
	}
	if f.Title != "T <&>" || len(f.Entries) != 1 {
		t.Fatalf("%+v", f)
	}
	c := f.Entries[0].Content
	for _, bad := range []string{"<script>", "<evil/>", "<b>old"} {
		if strings.Contains(c, bad) {
			t.Errorf("entry content holds %q as markup: %s", bad, c)
		}
	}
	if !strings.Contains(c, "&lt;script&gt;") || !strings.Contains(c, `<a href="c/v/l/x/index.html">`) {
		t.Errorf("content %s", c)
	}
}
