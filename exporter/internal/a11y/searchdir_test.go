package a11y_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/curex/curex/exporter/internal/chromium"
)

// TestSearchDirectoryChangesNoResult: issue 27 part 1. The catalog (and
// a landing page, by the same code) reads the site's search directory
// first and loads only the indexes that can rank a result among those
// shown; that must cost nothing in the results. The same queries on the
// catalog of a copy of the site whose list names no directory (every
// index searched, as before) show the same results in the same order: a
// word, a typo, two words, a type's name, a standard's code, Japanese, a
// miss.
func TestSearchDirectoryChangesNoResult(t *testing.T) {
	if testing.Short() {
		t.Skip("exports the sample site and runs a browser")
	}
	b := launch(t)
	site := exportSample(t, "html")
	// The copy: links to the site's files, but for a list without a
	// directory.
	plain := t.TempDir()
	entries, err := os.ReadDir(site)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "search-sources.js" {
			if err := os.Symlink(filepath.Join(site, e.Name()), filepath.Join(plain, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	js, err := os.ReadFile(filepath.Join(site, "search-sources.js"))
	if err != nil {
		t.Fatal(err)
	}
	out := regexp.MustCompile(`"groups":\[.*?\],"pages"`).ReplaceAll(js, []byte(`"groups":[],"pages"`))
	if slices.Equal(out, js) {
		t.Fatal("search-sources.js names no directory")
	}
	if err := os.WriteFile(filepath.Join(plain, "search-sources.js"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	queries := []struct{ page, q string }{
		{"index.html", "slope"},
		{"index.html", "equasion"},
		{"index.html", "solving equations"},
		{"index.html", "lesson"},
		{"index.html", "HSA.REI.D.11"},
		{"index.html", "方程式"},
		{"index.html", "zqxjv"},
	}
	got, want := freshQueries(t, b, site, queries), freshQueries(t, b, plain, queries)
	for i, tc := range queries {
		if len(want[i]) == 0 && tc.q != "zqxjv" {
			t.Errorf("%s %q: no result even searching every index", tc.page, tc.q)
		}
		if !slices.EqualFunc(got[i], want[i], func(a, b result) bool {
			return a.Href == b.Href && a.From == b.From && slices.Equal(a.Also, b.Also)
		}) {
			t.Errorf("%s %q: with the directory %d results, without %d:\n%+v\n%+v", tc.page, tc.q, len(got[i]), len(want[i]), got[i], want[i])
		}
	}
}

// freshQueries runs each query on its page of site in one tab, the page
// loaded anew for each (no index a query loaded helps the next), and
// returns the results of each once every index the box searches is in.
func freshQueries(t *testing.T, b *chromium.Browser, site string, queries []struct{ page, q string }) [][]result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out := make([][]result, len(queries))
	err := b.Run(ctx, fileURL(site, queries[0].page), func(tab context.Context) error {
		for i, tc := range queries {
			if err := chromedp.Do(tab, chromedp.Navigate(fileURL(site, tc.page))); err != nil {
				return err
			}
			var err error
			if out[i], err = queryIn(tab, tc.q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
