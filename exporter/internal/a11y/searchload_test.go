package a11y_test

import (
	"context"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSearchLoadsWhatItShows: issue 27 part 1 (bounded loading). A query
// loads the terms shards its words need and, for what it shows, the
// title files of its results and the text chunks of the first ten
// results' snippets, no more; a query that finds nothing loads no title
// file and no text chunk (before, every query loaded every chunk of every
// index it searched). On a node page of the sample and on the catalog.
func TestSearchLoadsWhatItShows(t *testing.T) {
	if testing.Short() {
		t.Skip("exports the sample site and runs a browser")
	}
	b := launch(t)
	site := exportSample(t, "html")
	type load struct {
		Scripts []string `json:"scripts"`
		Results int      `json:"results"`
	}
	for _, tc := range []struct {
		page, q  string
		maxTerms int // terms files at most (99: the catalog's); the sample's indexes are one shard each, but Japanese
		hits     bool
	}{
		{"algebra-1/base/en/alg-u1-l1/index.html", "slope", 1, true},
		{"algebra-1/base/en/alg-u1-l1/index.html", "zqxjv", 1, false},
		{"index.html", "zqxjv", 99, false},
		{"index.html", "slope", 99, true},
		{"algebra-1/index.html", "slope", 99, true},
		// A substring (Japanese): the text of the nodes that hold its
		// characters, not every chunk (before: all five). The keys of
		// its three characters may be in three shards.
		{"algebra-1/base/ja/alg-u1-l1/index.html", "方程式", 3, true},
	} {
		t.Run(path.Dir(tc.page)+"/"+tc.q, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			arg, err := json.Marshal(tc.q)
			if err != nil {
				t.Fatal(err)
			}
			var got load
			err = b.Run(ctx, fileURL(site, tc.page), func(tab context.Context) error {
				if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#search-q"), tc.q)); err != nil {
					return err
				}
				done := `(() => { const o = document.getElementById("search-results"); return o.dataset.state === "done" && o.dataset.query === ` + string(arg) + ` })()`
				if _, err := chromedp.Run(tab, chromedp.Poll[bool](done)); err != nil {
					return err
				}
				got, err = chromedp.Run(tab, chromedp.Evaluate[load](`({
  scripts: Array.from(document.scripts).map(s => s.src).filter(Boolean),
  results: document.querySelectorAll("#search-results li").length,
})`))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			count := map[string]int{}
			heads := 0
			for _, s := range got.Scripts {
				base := path.Base(s)
				for _, kind := range []string{"search-terms", "search-titles-", "search-body-", "search-dir"} {
					if strings.HasPrefix(base, kind) {
						count[kind]++
					}
				}
				if base == "search-index.js" {
					heads++
				}
			}
			if tc.hits != (got.Results > 0) {
				t.Fatalf("%q: %d results", tc.q, got.Results)
			}
			if tc.maxTerms < 99 && (heads != 1 || count["search-terms"] < 1 || count["search-terms"] > tc.maxTerms) {
				t.Errorf("%q: %d heads, %d terms files, want 1 and at most %d", tc.q, heads, count["search-terms"], tc.maxTerms)
			}
			// On the catalog and a landing page, the site's search
			// directory tells which indexes hold the query's words: only
			// those load (before, every one of the sample's 28 did).
			holding := holdingWord(t, site, path.Dir(tc.page), tc.q)
			if strings.ContainsFunc(tc.q, func(r rune) bool { return r > 0x3000 }) {
				all, err := filepath.Glob(filepath.Join(site, filepath.Dir(filepath.Dir(tc.page)), "search-body-*.js"))
				if err != nil {
					t.Fatal(err)
				}
				if count["search-body-"] == 0 || count["search-body-"] >= len(all) {
					t.Errorf("%q: %d text chunks of %d loaded", tc.q, count["search-body-"], len(all))
				}
			}
			if tc.maxTerms == 99 && (heads > holding || count["search-dir"] == 0) {
				t.Errorf("%q: %d heads loaded, %d indexes hold the word; %d directory shards", tc.q, heads, holding, count["search-dir"])
			}
			if tc.maxTerms == 99 && count["search-terms"] > heads {
				t.Errorf("%q: %d terms files for %d indexes", tc.q, count["search-terms"], heads)
			}
			if !tc.hits && count["search-titles-"]+count["search-body-"] > 0 {
				t.Errorf("%q finds nothing but loaded %d title files and %d text chunks", tc.q, count["search-titles-"], count["search-body-"])
			}
			if count["search-body-"] > 10 || count["search-titles-"] > got.Results {
				t.Errorf("%q: %d results shown, %d title files and %d text chunks loaded", tc.q, got.Results, count["search-titles-"], count["search-body-"])
			}
		})
	}
}

// holdingWord counts the indexes under the folder under of site whose
// terms files hold word (as a stem or a word: the sample's queries are
// their own stems).
func holdingWord(t *testing.T, site, under, word string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(site, "*", "*", "*", "search-terms*.js"))
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]bool{}
	for _, f := range files {
		rel, err := filepath.Rel(site, f)
		if err != nil {
			t.Fatal(err)
		}
		if under != "." && !strings.HasPrefix(filepath.ToSlash(rel), under+"/") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), `"`+word+`"`) {
			held[filepath.Dir(f)] = true
		}
	}
	return len(held)
}
