package a11y_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/curex/curex/exporter/internal/chromium"
)

// typedResult is one result: its page, type, variant and language, and
// its other variants.
type typedResult struct {
	Href string   `json:"href"`
	Type string   `json:"type"`
	From string   `json:"from"`
	Lang string   `json:"lang"`
	Also []string `json:"also"`
}

// typed is what the search box shows after a query: its results and the
// values each filter offers.
type typed struct {
	Results []typedResult       `json:"results"`
	Filters map[string][]string `json:"filters"`
}

// readTyped collects a typed from the page.
const readTyped = `({
  results: Array.from(document.querySelectorAll("#search-results li")).map(li => ({
    href: li.querySelector("a").getAttribute("href"),
    type: (li.querySelector(".result__type") || {}).textContent || "",
    from: (li.querySelector(".result__from") || {}).textContent || "",
    lang: li.lang,
    also: Array.from(li.querySelectorAll(".result__variants a")).map(a => a.textContent),
  })),
  filters: Object.fromEntries(Array.from(document.querySelectorAll("#search-results .search__filter:not([hidden]) select")).map((s, i) =>
    [["variant", "language", "type"][Array.from(s.closest(".search__filters").children).indexOf(s.parentNode)],
     Array.from(s.options).map(o => o.value).filter(Boolean)])),
})`

// searchSteps types q into the box of page u, then for each step sets
// the filters it names (name → value, "" for all) and reads the box.
func searchSteps(t *testing.T, b *chromium.Browser, u, q string, steps []map[string]string) []typed {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	arg, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	var out []typed
	err = b.Run(ctx, u, func(tab context.Context) error {
		if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#search-q"), q)); err != nil {
			return err
		}
		done := `(() => { const o = document.getElementById("search-results"); return o.dataset.state === "done" && o.dataset.query === ` + string(arg) + ` })()`
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](done)); err != nil {
			return err
		}
		for _, st := range steps {
			set, err := json.Marshal(st)
			if err != nil {
				return err
			}
			js := `((set) => {
  const sel = Array.from(document.querySelectorAll("#search-results .search__filter select"));
  for (const [name, v] of Object.entries(set)) {
    const s = sel[["variant", "language", "type"].indexOf(name)];
    s.value = v;
    s.dispatchEvent(new Event("change"));
  }
  return true;
})(` + string(set) + `)`
			if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](js)); err != nil {
				return err
			}
			got, err := chromedp.Run(tab, chromedp.Evaluate[typed](readTyped))
			if err != nil {
				return err
			}
			out = append(out, got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// localeAndNode is the locale folder and node of a result's page
// ("algebra-1/texas/es/alg-u1/index.html" → "es alg-u1").
func localeAndNode(href string) string {
	parts := strings.Split(strings.TrimSuffix(href, "/index.html"), "/")
	if len(parts) < 2 {
		return href
	}
	return parts[len(parts)-2] + " " + parts[len(parts)-1]
}

// TestSearchGroupsVariants: issue 27 part 3. On the landing page of
// Algebra 1, "slope" found its lesson once per variant (the base, Texas,
// Houston, California: four identical hits); now one result leads, the
// other variants listed in it, and no lesson appears twice in a language.
func TestSearchGroupsVariants(t *testing.T) {
	if testing.Short() {
		t.Skip("exports the sample site and runs a browser")
	}
	b := launch(t)
	site := exportSample(t, "html")
	got := searchSteps(t, b, fileURL(site, "algebra-1/index.html"), "slope", []map[string]string{{}})[0]
	seen := map[string]bool{}
	var lesson *int
	for i, r := range got.Results {
		seg := localeAndNode(r.Href)
		if seen[seg] {
			t.Errorf("%s appears twice", seg)
		}
		seen[seg] = true
		if seg == "en alg-u3-l2" {
			lesson = &i
		}
	}
	if lesson == nil {
		t.Fatalf("slope: no Slope as Rate of Change in English: %+v", got.Results)
	}
	r := got.Results[*lesson]
	for _, v := range []string{"Texas", "Houston ISD", "California"} {
		if !slices.Contains(r.Also, v) && !strings.Contains(r.From, v) {
			t.Errorf("slope: the lesson's result (from %q) does not list %s: %q", r.From, v, r.Also)
		}
	}
	if len(r.Also) < 3 {
		t.Errorf("slope: the lesson lists %d other variants, want 3: %q", len(r.Also), r.Also)
	}
}

// TestSearchFilters: issue 27 part 3. The landing page's results can be
// narrowed by variant, by language and by type, each offering the values
// the results hold; narrowed, every result has the value chosen, and "all"
// brings them back.
func TestSearchFilters(t *testing.T) {
	if testing.Short() {
		t.Skip("exports the sample site and runs a browser")
	}
	b := launch(t)
	site := exportSample(t, "html")
	steps := []map[string]string{
		{},
		{"variant": "Texas"},
		{"variant": "", "language": "日本語"},
		{"language": "", "type": "Lesson"},
		{"type": ""},
	}
	got := searchSteps(t, b, fileURL(site, "algebra-1/index.html"), "slope", steps)
	all := got[0]
	for name, want := range map[string][]string{"variant": {"Texas", "Houston ISD", "California"}, "language": {"English", "日本語"}, "type": {"Lesson", "Unit"}} {
		for _, w := range want {
			if !slices.Contains(all.Filters[name], w) {
				t.Errorf("filter %s offers %q, want %q among them", name, all.Filters[name], w)
			}
		}
	}
	if len(all.Results) < 3 {
		t.Fatalf("slope: %d results", len(all.Results))
	}
	check := func(step int, what string, ok func(r typedResult) bool) {
		t.Helper()
		rs := got[step].Results
		if len(rs) == 0 || len(rs) >= len(all.Results) {
			t.Errorf("%s: %d results of %d", what, len(rs), len(all.Results))
		}
		for _, r := range rs {
			if !ok(r) {
				t.Errorf("%s: %+v", what, r)
			}
		}
	}
	check(1, "variant Texas", func(r typedResult) bool {
		return strings.Contains(r.From, "Texas") && len(r.Also) == 0
	})
	check(2, "language 日本語", func(r typedResult) bool {
		return strings.HasPrefix(localeAndNode(r.Href), "ja ")
	})
	check(3, "type Lesson", func(r typedResult) bool {
		return strings.HasPrefix(r.Type, "Lesson")
	})
	if len(got[4].Results) != len(all.Results) {
		t.Errorf("all types again: %d results, want %d", len(got[4].Results), len(all.Results))
	}
}

// TestSearchResultsAccessibility runs axe-core on pages whose search box
// shows its results (grouped variants, the filters, marks from stems and
// typos), once every index is in: no serious or critical violation.
func TestSearchResultsAccessibility(t *testing.T) {
	if testing.Short() {
		t.Skip("exports the sample site and runs a browser")
	}
	axe := axeSource(t)
	b := launch(t)
	site := exportSample(t, "html")
	opts, err := json.Marshal(map[string]any{"resultTypes": []string{"violations"}, "runOnly": map[string]any{"type": "tag", "values": tags}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ page, q string }{
		{"algebra-1/index.html", "slope"},
		{"index.html", "equasions"},
		{"algebra-1/base/en/alg-u1-l1/index.html", "solving"},
		{"algebra-1/base/ar/index.html", "المعادلات"},
	} {
		t.Run(tc.page, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			arg, err := json.Marshal(tc.q)
			if err != nil {
				t.Fatal(err)
			}
			type violation struct {
				ID, Impact string
				Nodes      []string
			}
			var vs []violation
			err = b.Run(ctx, fileURL(site, tc.page), func(tab context.Context) error {
				if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#search-q"), tc.q)); err != nil {
					return err
				}
				done := `(() => { const o = document.getElementById("search-results"); return o.dataset.state === "done" && o.dataset.query === ` + string(arg) + ` && o.querySelector("li") !== null })()`
				if _, err := chromedp.Run(tab, chromedp.Poll[bool](done)); err != nil {
					return err
				}
				if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](string(axe)+"\n;typeof axe === 'object'")); err != nil {
					return err
				}
				vs, err = chromedp.Run(tab, chromedp.Evaluate[[]violation](`(async () => (await axe.run(document, `+string(opts)+`)).violations.map(v => ({ID: v.id, Impact: v.impact || "", Nodes: v.nodes.map(n => n.html)})))()`, chromedp.EvalAwaitPromise))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				if v.Impact == "serious" || v.Impact == "critical" {
					t.Errorf("%s (%s): %q", v.ID, v.Impact, v.Nodes)
				} else {
					t.Logf("%s (%s): %q", v.ID, v.Impact, v.Nodes)
				}
			}
		})
	}
}
