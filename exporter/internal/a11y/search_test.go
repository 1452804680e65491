package a11y_test

import (
	"context"
	"encoding/json"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/curex/curex/exporter/internal/chromium"
)

// result is one search result as the page shows it.
type result struct {
	Href  string   `json:"href"`
	Title string   `json:"title"`
	From  string   `json:"from"`
	Lang  string   `json:"lang"`
	Text  string   `json:"text"`
	Marks []string `json:"marks"`
	// Also are the other variants of a grouped result.
	Also []string `json:"also"`
}

// readResults collects the results the search box shows.
const readResults = `Array.from(document.querySelectorAll("#search-results li")).map(li => ({
  href: li.querySelector("a").getAttribute("href"),
  title: (li.querySelector(".result__title") || {}).textContent || "",
  from: (li.querySelector(".result__from") || {}).textContent || "",
  lang: li.lang,
  text: (li.querySelector(".result__text") || {}).textContent || "",
  marks: Array.from(li.querySelectorAll("mark")).map(m => m.textContent),
  also: Array.from(li.querySelectorAll(".result__variants a")).map(a => a.textContent),
}))`

// search types q into the search box of page (relative to site) and
// returns the results once every index the box searches is in.
func search(t *testing.T, b *chromium.Browser, site, page, q string) []result {
	t.Helper()
	return searchAs(t, b, site, page, q, "")
}

// searchAs is search by a browser whose languages (navigator.languages)
// are languages, when not "" (Accept-Language syntax: "ja,es").
func searchAs(t *testing.T, b *chromium.Browser, site, page, q, languages string) []result {
	t.Helper()
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(site, filepath.FromSlash(page)))}).String()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	want, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	var out []result
	err = b.Run(ctx, u, func(tab context.Context) error {
		if languages != "" {
			ua, err := chromedp.Run(tab, chromedp.Evaluate[string](`navigator.userAgent`))
			if err != nil {
				return err
			}
			err = chromedp.Do(tab, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: languages})
				return err
			}), chromedp.Navigate(u))
			if err != nil {
				return err
			}
		}
		if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#search-q"), q)); err != nil {
			return err
		}
		done := `(() => { const o = document.getElementById("search-results"); return o.dataset.state === "done" && o.dataset.query === ` + string(want) + ` })()`
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](done)); err != nil {
			return err
		}
		out, err = chromedp.Run(tab, chromedp.Evaluate[[]result](readResults))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSearchInBrowser types queries into the sample site's search boxes
// in headless Chromium, from file://: teachers' words (a vocabulary term,
// a standard's code) find their lesson, title matches come first, accents
// fold, a Japanese substring is found, and the catalog's results name
// their variant and language, the page's language first.
func TestSearchInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("exports the sample site and runs a browser")
	}
	b := launch(t)
	site := exportSample(t, "html")
	has := func(rs []result, href string) bool {
		return slices.ContainsFunc(rs, func(r result) bool { return strings.HasSuffix(r.Href, href) })
	}
	t.Run("vocabulary", func(t *testing.T) {
		rs := search(t, b, site, "algebra-1/base/en/alg-u2/index.html", "coefficient")
		if !has(rs, "alg-u1-l1/index.html") {
			t.Errorf("coefficient: no Variables and Expressions in %+v", rs)
		}
		i := slices.IndexFunc(rs, func(r result) bool { return strings.HasSuffix(r.Href, "alg-u1-l1/index.html") })
		if i >= 0 && (!strings.Contains(rs[i].Text, ": ") || !slices.Contains(rs[i].Marks, "coefficient")) {
			t.Errorf("coefficient: snippet %q, marks %q", rs[i].Text, rs[i].Marks)
		}
	})
	t.Run("standard", func(t *testing.T) {
		rs := search(t, b, site, "algebra-1/base/en/index.html", "CCSS.MATH.CONTENT.HSA.SSE.A.1.A")
		if len(rs) == 0 || !strings.HasSuffix(rs[0].Href, "alg-u1-l1/index.html") || !slices.Contains(rs[0].Marks, "CCSS.MATH.CONTENT.HSA.SSE.A.1.A") {
			t.Errorf("standard: %+v", rs)
		}
	})
	t.Run("title-first", func(t *testing.T) {
		rs := search(t, b, site, "algebra-1/base/en/index.html", "variable")
		if len(rs) < 2 {
			t.Fatalf("variable: %+v", rs)
		}
		if !strings.Contains(strings.ToLower(rs[0].Title), "variable") {
			t.Errorf("variable: first result %q has no title match", rs[0].Title)
		}
		last := rs[len(rs)-1]
		if strings.Contains(strings.ToLower(last.Title), "variable") {
			t.Errorf("variable: no result found by its text alone (last: %q)", last.Title)
		}
		seenBody := false
		for _, r := range rs {
			inTitle := strings.Contains(strings.ToLower(r.Title), "variable")
			if seenBody && inTitle {
				t.Errorf("variable: title match %q after a text match", r.Title)
			}
			seenBody = seenBody || !inTitle
		}
	})
	t.Run("accents", func(t *testing.T) {
		rs := search(t, b, site, "algebra-1/base/es/index.html", "ecuacion")
		if len(rs) == 0 {
			t.Fatal("ecuacion: no result")
		}
		marked := false
		for _, r := range rs {
			marked = marked || slices.ContainsFunc(r.Marks, func(m string) bool { return strings.EqualFold(m, "ecuación") })
		}
		if !marked {
			t.Errorf("ecuacion: no ecuación marked in %+v", rs)
		}
	})
	t.Run("japanese", func(t *testing.T) {
		rs := search(t, b, site, "algebra-1/base/ja/index.html", "変数")
		if !has(rs, "alg-u1-l1/index.html") || !slices.ContainsFunc(rs, func(r result) bool { return slices.Contains(r.Marks, "変数") }) {
			t.Errorf("変数: %+v", rs)
		}
	})
	t.Run("catalog", func(t *testing.T) {
		// A standard's code is the same in every language: results from
		// every variant and locale, fewer than the 50 shown.
		rs := search(t, b, site, "index.html", "CCSS.MATH.CONTENT.HSA.SSE.A.1")
		if len(rs) == 0 {
			t.Fatal("catalog: no result")
		}
		english, other := 0, 0
		for i, r := range rs {
			if !strings.HasPrefix(r.From, "From ") || !strings.Contains(r.From, ", in ") {
				t.Errorf("catalog: result %d (%q) does not name its variant and language: %q", i, r.Title, r.From)
			}
			if strings.HasSuffix(r.From, ", in English") {
				english++
				if other > 0 {
					t.Errorf("catalog: English result %q after another language's", r.Title)
				}
			} else {
				other++
			}
		}
		if english == 0 || other == 0 {
			t.Errorf("catalog: %d English results, %d in other languages; want both", english, other)
		}
		if !strings.HasPrefix(rs[0].Href, "algebra-1/") || rs[0].Lang != "en" {
			t.Errorf("catalog: first result %+v", rs[0])
		}
		// A variant's lesson is grouped with the base's: listed beside it.
		if !slices.ContainsFunc(rs, func(r result) bool {
			return strings.Contains(r.From, "Texas") || slices.ContainsFunc(r.Also, func(v string) bool { return strings.Contains(v, "Texas") })
		}) {
			t.Error("catalog: no result from a variant")
		}
	})
	t.Run("catalog-enough", func(t *testing.T) {
		// More than a page of English results: the other languages'
		// indexes are never loaded, and the count says "at least".
		u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(site, "index.html"))}).String()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		type boxState struct {
			Status  string   `json:"status"`
			Loaded  []string `json:"loaded"`
			Results int      `json:"results"`
		}
		var state boxState
		err := b.Run(ctx, u, func(tab context.Context) error {
			if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#search-q"), "the")); err != nil {
				return err
			}
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(() => { const o = document.getElementById("search-results"); return o.dataset.state === "done" && o.dataset.query === "the" })()`)); err != nil {
				return err
			}
			var err error
			state, err = chromedp.Run(tab, chromedp.Evaluate[boxState](`({status: document.querySelector("#search-results .result__count").textContent,
			   loaded: Object.keys(window.curexSearch || {}),
			   results: document.querySelectorAll("#search-results li").length})`))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(state.Status, "At least ") || state.Results != 50 {
			t.Errorf("the: status %q, %d results shown", state.Status, state.Results)
		}
		for _, k := range state.Loaded {
			if !strings.HasSuffix(k, "/en") {
				t.Errorf("the: index %s loaded, want English ones only", k)
			}
		}
	})
	t.Run("browser-languages", func(t *testing.T) {
		// The page's language (en) first, then the browser's (ja, then
		// es), then the others (ar).
		rs := searchAs(t, b, site, "index.html", "CCSS.MATH.CONTENT.HSA.SSE.A.1", "ja,es")
		rank := map[string]int{"English": 0, "日本語": 1, "Español": 2, "العربية": 3}
		prev := 0
		seen := map[int]bool{}
		for _, r := range rs {
			_, name, _ := strings.Cut(r.From, ", in ")
			k, ok := rank[name]
			if !ok {
				t.Fatalf("result from %q", r.From)
			}
			if k < prev {
				t.Errorf("%q after a result in a language ranked below it", r.From)
			}
			prev = k
			seen[k] = true
		}
		if len(seen) != len(rank) {
			t.Errorf("languages of the results: %v, want all four", seen)
		}
	})
	t.Run("keyboard", func(t *testing.T) {
		// Arrows move from the input through the results and back.
		u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(site, "algebra-1/base/en/index.html"))}).String()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		active := `(() => { const a = document.activeElement, l = Array.from(document.querySelectorAll("#search-results a")); return a.id || String(l.indexOf(a)) })()`
		var got []string
		err := b.Run(ctx, u, func(tab context.Context) error {
			if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#search-q"), "variable")); err != nil {
				return err
			}
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(() => { const o = document.getElementById("search-results"); return o.dataset.state === "done" && o.dataset.query === "variable" })()`)); err != nil {
				return err
			}
			for _, k := range []string{kb.ArrowDown, kb.ArrowDown, kb.ArrowUp, kb.ArrowUp} {
				if err := chromedp.Do(tab, chromedp.KeyEvent(k)); err != nil {
					return err
				}
				a, err := chromedp.Run(tab, chromedp.Evaluate[string](active))
				if err != nil {
					return err
				}
				got = append(got, a)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"0", "1", "0", "search-q"}; !slices.Equal(got, want) {
			t.Errorf("focus after down, down, up, up: %q, want %q", got, want)
		}
	})
	t.Run("query-string", func(t *testing.T) {
		// ?q= searches as the page loads, and the indexes it loads delay
		// the load event: the results are there for axe-core (see
		// TestWebsiteAccessibility's catalog-search page).
		u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(site, "index.html")), RawQuery: "q=variable"}).String()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var n int
		err := b.Run(ctx, u, func(tab context.Context) error {
			var err error
			n, err = chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("#search-results[data-state=done] li").length`))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Error("?q=variable: no results once the page has loaded")
		}
	})
	t.Run("landing", func(t *testing.T) {
		rs := search(t, b, site, "algebra-1/index.html", "ecuacion")
		if len(rs) == 0 || !strings.Contains(rs[0].From, "Español") {
			t.Errorf("landing: %+v", rs)
		}
	})
}
