package exporter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/changes"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/golden"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// editAlgebra makes the sample edits: a retitle, an added lesson, a
// removed one, a move, a content change and a new Spanish translation.
func editAlgebra(ds *dataset.Dataset) error {
	for i := range ds.Curricula {
		c := &ds.Curricula[i]
		if c.ID != "101" {
			continue
		}
		var find func(ns []dataset.Node, id string) *dataset.Node
		find = func(ns []dataset.Node, id string) *dataset.Node {
			for i := range ns {
				if ns[i].ID == id {
					return &ns[i]
				}
				if n := find(ns[i].Children, id); n != nil {
					return n
				}
			}
			return nil
		}
		u1, u2, u4 := find(c.Nodes, "alg-u1"), find(c.Nodes, "alg-u2"), find(c.Nodes, "alg-u4")
		l4 := find(c.Nodes, "alg-u1-l4")
		if u1 == nil || u2 == nil || u4 == nil || l4 == nil || len(l4.Children) == 0 {
			return errors.New("the sample changed: alg-u1, alg-u2, alg-u4 or alg-u1-l4-q1 missing")
		}
		find(c.Nodes, "alg-u1-l2").Title = "Order of Operations"
		quiz := l4.Children[0]
		l4.Children = l4.Children[1:]
		u1.Children = append(u1.Children, quiz)
		u2.Children = append(u2.Children, dataset.Node{ID: "alg-u2-l5", Title: "Absolute Value Equations", NodeType: "lesson",
			Attributes: map[string]json.RawMessage{"description": json.RawMessage(`"Solve |ax + b| = c by cases."`)}})
		var kept []dataset.Node
		for _, n := range u4.Children {
			if n.ID != "alg-u4-l4" {
				kept = append(kept, n)
			}
		}
		u4.Children = kept
		for _, tr := range c.Translations {
			delete(tr, "alg-u4-l4")
		}
		l1 := find(c.Nodes, "alg-u2-l1")
		l1.Attributes["description"] = json.RawMessage(`"Solve equations that take several steps, and check the solution."`)
		c.Translations["es"]["alg-u4-test"] = dataset.Translation{Title: "Examen de la unidad: sistemas de ecuaciones e inecuaciones"}
		return nil
	}
	return errors.New("no Algebra 1 in the sample")
}

// TestWhatChanged: after the sample edits, changes.json, the "What's new"
// page and the Atom feed of the edited trees say exactly what changed;
// other trees record nothing; a run with no change keeps the history as
// it was; and the history survives a later change.
func TestWhatChanged(t *testing.T) {
	t.Parallel()
	// The resource form of records: the golden files hold its ETags.
	h, url := sampleServer(t, sandbox.Options{Records: sandbox.RecordsResource})
	out := filepath.Join(t.TempDir(), "out")
	cfg := exporter.Config{BaseURL: url, Token: token, Output: out, CacheDir: t.TempDir(), Limits: ratelimit.Limits{},
		Generator: "curex test", Formats: []string{"html", "json"}, Filter: fetch.Filter{Locales: []string{"en", "es"}}}
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	read := func(rel string) []byte {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	var first changes.History
	if err := json.Unmarshal(read("bundles/algebra-1/base/en/changes.json"), &first); err != nil || len(first.Entries) != 0 {
		t.Fatalf("first export: %v, %d entries; want an empty history", err, len(first.Entries))
	}
	if !strings.Contains(string(read("algebra-1/base/en/whats-new.html")), "No changes recorded yet.") {
		t.Error("the first What's new page does not say that nothing changed yet")
	}

	if err := h.Edit(editAlgebra); err != nil {
		t.Fatal(err)
	}
	sum, err := exporter.Run(context.Background(), cfg)
	if err != nil || sum.Partial() {
		t.Fatalf("%v %v", err, sum)
	}
	golden.Check(t, "testdata/changes/algebra-1-base-en.changes.json", read("bundles/algebra-1/base/en/changes.json"))
	golden.Check(t, "testdata/changes/algebra-1-base-es.changes.json", read("bundles/algebra-1/base/es/changes.json"))
	golden.Check(t, "testdata/changes/algebra-1-base-en.feed.xml", read("algebra-1/base/en/feed.xml"))
	golden.Check(t, "testdata/changes/algebra-1-base-es.feed.xml", read("algebra-1/base/es/feed.xml"))

	var en changes.History
	if err := json.Unmarshal(read("bundles/algebra-1/base/en/changes.json"), &en); err != nil || len(en.Entries) != 1 {
		t.Fatalf("%v, %d entries", err, len(en.Entries))
	}
	e := en.Entries[0]
	ids := func(items []changes.Item) string {
		var s []string
		for _, it := range items {
			s = append(s, it.ID)
		}
		return strings.Join(s, ",")
	}
	for _, c := range []struct{ kind, got, want string }{
		{"added", ids(e.Added), "alg-u2-l5"},
		{"removed", ids(e.Removed), "alg-u4-l4"},
		{"content", ids(e.ContentChanged), "alg-u2-l1"},
		{"translated", ids(e.Translated), ""}, // English is the primary locale
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.kind, c.got, c.want)
		}
	}
	if len(e.Moved) != 1 || e.Moved[0].ID != "alg-u1-l4-q1" || len(e.Retitled) != 1 || e.Retitled[0].ID != "alg-u1-l2" || e.Retitled[0].From == "" {
		t.Errorf("moved %+v, retitled %+v", e.Moved, e.Retitled)
	}
	// Other curricula changed nothing.
	if data := read("bundles/introduction-to-computer-science/base/en/changes.json"); !strings.Contains(string(data), `"entries": []`) {
		t.Errorf("an unchanged curriculum recorded changes:\n%s", data)
	}
	// The page says it, with working links; the feed is Atom.
	page := string(read("algebra-1/base/en/whats-new.html"))
	for _, want := range []string{"Absolute Value Equations", "Added", "Removed", "Moved", "Retitled", "Content changed", `href="alg-u2-l5/index.html"`, `type="application/atom+xml"`} {
		if !strings.Contains(page, want) {
			t.Errorf("What's new page lacks %q", want)
		}
	}
	// A node shown in English on a Spanish page says so.
	if es := string(read("algebra-1/base/es/whats-new.html")); !strings.Contains(es, `<bdi lang="en">Absolute Value Equations</bdi>`) {
		t.Error("the Spanish What's new page does not mark the English title of the added lesson")
	}
	var feed struct {
		XMLName xml.Name
		Entries []struct {
			Title string `xml:"title"`
			Link  struct {
				Href string `xml:"href,attr"`
			} `xml:"link"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(read("algebra-1/base/es/feed.xml"), &feed); err != nil || feed.XMLName.Space != "http://www.w3.org/2005/Atom" || len(feed.Entries) != 1 {
		t.Fatalf("feed: %v, %+v", err, feed)
	}
	if href := feed.Entries[0].Link.Href; !strings.HasPrefix(href, "whats-new.html#change-") {
		t.Errorf("feed entry links %q", href)
	}
	if toc := string(read("algebra-1/base/es/index.html")); !strings.Contains(toc, `href="whats-new.html"`) || !strings.Contains(toc, `href="feed.xml"`) {
		t.Error("the contents page links neither the What's new page nor the feed")
	}

	// Nothing changes: the history stays, byte for byte.
	before := read("bundles/algebra-1/base/en/changes.json")
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if string(read("bundles/algebra-1/base/en/changes.json")) != string(before) {
		t.Error("a run with no change changed the history")
	}
	// A later change goes first; the earlier one stays.
	if err := h.Edit(func(ds *dataset.Dataset) error {
		for i := range ds.Curricula {
			if ds.Curricula[i].ID == "101" {
				ds.Curricula[i].Nodes[0].Title = "Foundations"
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	var later changes.History
	if err := json.Unmarshal(read("bundles/algebra-1/base/en/changes.json"), &later); err != nil || len(later.Entries) != 2 ||
		len(later.Entries[0].Retitled) != 1 || later.Entries[0].Retitled[0].ID != "alg-u1" || later.Entries[1].ETag != e.ETag {
		t.Errorf("after a second change: %v, %+v", err, later.Entries)
	}
	checkBundles(t, out, sum.Planned)
}

// TestChangesWithoutSnapshots: an export into an output an earlier run
// wrote, with a new cache folder, cannot compare the changed trees with
// their previous versions; it says so in one line, with their count
// (each tree is named at debug level only). With the cache the earlier
// run filled, it compares them and says nothing.
func TestChangesWithoutSnapshots(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		newCache bool
	}{
		{"the same cache folder", false},
		{"a new cache folder", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, url := sampleServer(t, sandbox.Options{})
			var logs bytes.Buffer
			cfg := exporter.Config{BaseURL: url, Token: token, Output: filepath.Join(t.TempDir(), "out"), CacheDir: t.TempDir(), Limits: ratelimit.Limits{},
				Generator: "curex test", Formats: []string{"json"}, Filter: fetch.Filter{Locales: []string{"en", "es"}},
				Log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))}
			if _, err := exporter.Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			if err := h.Edit(editAlgebra); err != nil {
				t.Fatal(err)
			}
			if tc.newCache {
				cfg.CacheDir = t.TempDir()
			}
			logs.Reset()
			sum, err := exporter.Run(context.Background(), cfg)
			if err != nil || sum.Partial() {
				t.Fatalf("%v %v", err, sum)
			}
			lines := strings.Count(logs.String(), "no snapshot")
			switch {
			case !tc.newCache && lines != 0:
				t.Errorf("%d lines about missing snapshots, want none:\n%s", lines, logs.String())
			case tc.newCache && (lines != 1 || !regexp.MustCompile(`trees=[1-9]`).MatchString(logs.String())):
				t.Errorf("%d lines about missing snapshots, want one with the count of trees:\n%s", lines, logs.String())
			}
		})
	}
}
