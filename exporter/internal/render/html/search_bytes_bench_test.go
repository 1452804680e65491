package html

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// searchOrg is the synthetic organization of BenchmarkSearchBytes, as
// `curex sandbox --dataset synthetic:...` spells it (docs/sandbox.md).
// docs/BENCHMARKS.md quotes runs at 10,000 and 100,000 node pages.
var searchOrg = flag.String("search-org", "curricula=2,variants=1,locales=1,nodes=500,depth=3,seed=1",
	"synthetic organization of BenchmarkSearchBytes (curricula=N,variants=N,locales=N,nodes=N,...)")

// loaded reads, once a query's results are in, what the page loaded for
// its search: the scripts (the page's own and those the search box
// added), when the last of them that came before the first result had
// arrived, and when the first result showed (set by watchFirst), as
// performance.now() times.
const loaded = `(() => ({
  scripts: Array.from(document.scripts).map(s => s.src).filter(Boolean),
  last: Math.max(0, ...(window.curexLoads || []).filter(t => !window.curexFirstAt || t <= window.curexFirstAt)),
  first: window.curexFirstAt || 0,
  results: document.querySelectorAll("#search-results li").length,
}))()`

// watchFirst records in window.curexFirstAt when the first result of
// query q is in the DOM, and in window.curexLoads when each script the
// search box adds has loaded (file:// has no resource timing).
const watchFirst = `((q) => {
  const out = document.getElementById("search-results");
  window.curexLoads = [];
  new MutationObserver((recs) => {
    recs.forEach(r => r.addedNodes.forEach(n => {
      if (n.tagName === "SCRIPT") { n.addEventListener("load", () => window.curexLoads.push(performance.now())); }
    }));
  }).observe(document.head, { childList: true });
  new MutationObserver((_, obs) => {
    if (out.dataset.query === q && out.querySelector("li")) { window.curexFirstAt = performance.now(); obs.disconnect(); }
  }).observe(out, { childList: true, subtree: true, attributes: true });
  return true;
})(%s)`

// searchLoad is what one query loaded.
type searchLoad struct {
	Scripts []string `json:"scripts"`
	Last    float64  `json:"last"`
	First   float64  `json:"first"`
	Results int      `json:"results"`
}

// BenchmarkSearchBytes: issue 27 part 1. It renders the synthetic
// organization -search-org (every tree, then the site-wide pages) and,
// in headless Chromium from file://, types each query of a fixed set
// (a title's word, a word of a description, a prefix, a typo, a miss)
// into the search box of the catalog and of a node page, each in a fresh
// tab, and reports the bytes of the scripts each query loaded (search.js
// included: the size of each file on disk, as file:// has no network),
// their number, and the time from the last script's arrival to the
// first result. It skips without Chromium; it is not part of make test.
func BenchmarkSearchBytes(b *testing.B) {
	exe, err := chromium.Find("")
	if err != nil {
		b.Skip(err)
	}
	o, err := dataset.ParseSynthetic(*searchOrg)
	if err != nil {
		b.Fatal(err)
	}
	f := fromDataset(b, dataset.Synthetic(o), false)
	dir := b.TempDir()
	start := time.Now()
	renderAll(b, f, dirWriter(dir))
	pages := 0
	for _, t := range f.trees {
		pages += t.Count()
	}
	b.Logf("%d trees, %d node pages, rendered in %s", len(f.trees), pages, time.Since(start).Round(time.Second))
	br, err := chromium.Launch(context.Background(), chromium.Options{ExecPath: exe})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = br.Close() })
	tree := f.trees[0]
	last := tree.Nodes[len(tree.Nodes)-1]
	var desc string
	_ = json.Unmarshal(last.Attributes["description"], &desc)
	words := strings.Fields(strings.ToLower(strings.Trim(desc, ".")))
	title := strings.Fields(strings.ToLower(last.Title))
	queries := []struct{ name, text string }{
		{"title-word", title[len(title)-1]},
		{"text", strings.Join(words[:min(2, len(words))], " ")},
		{"prefix", title[0][:min(3, len(title[0]))]},
		{"typo", typo(words[len(words)-1])},
		{"miss", "zqxjv"},
	}
	for _, page := range []struct{ name, path string }{
		{"catalog", layout.Index},
		{"node", layout.NodePage(tree.Export, tree.Nodes[0].Segment)},
	} {
		u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(page.path)))}).String()
		for _, q := range queries {
			b.Run(page.name+"/"+q.name, func(b *testing.B) {
				var got searchLoad
				for b.Loop() {
					got = searchOnce(b, br, u, q.text)
				}
				size, zipped := 0, 0
				kinds := map[string]int{}
				for _, s := range got.Scripts {
					p, err := url.Parse(s)
					if err != nil {
						b.Fatal(err)
					}
					data, err := os.ReadFile(p.Path)
					if err != nil {
						b.Fatal(err)
					}
					size += len(data)
					zipped += gzipSize(b, data)
					kinds[scriptKind(p.Path)] += len(data)
				}
				b.Logf("%s %q: bytes by kind of script %v", page.name, q.text, kinds)
				b.ReportMetric(float64(size)/1000, "kB/query")
				b.ReportMetric(float64(zipped)/1000, "kB-gzip/query")
				b.ReportMetric(float64(len(got.Scripts)), "scripts/query")
				b.ReportMetric(float64(got.Results), "results")
				if got.First > 0 {
					b.ReportMetric(max(0, got.First-got.Last), "ms-after-bytes")
				}
			})
		}
	}
}

// scriptKind names what a script the search box loaded is: an index's
// head, terms, titles or text, the directory, the list of indexes, a
// stemmer, or the page's own scripts.
func scriptKind(name string) string {
	base := filepath.Base(name)
	for _, k := range []struct{ prefix, kind string }{
		{layout.SearchScriptFile, "head"}, {layout.SearchTermsBase, "terms"}, {layout.SearchTitlesPrefix, "titles"},
		{layout.SearchBodyPrefix, "text"}, {layout.SearchDirPrefix, "directory"}, {layout.SearchSourcesFile, "list"},
		{layout.SearchSourcesPagePrefix, "list"},
	} {
		if strings.HasPrefix(base, k.prefix) {
			return k.kind
		}
	}
	if filepath.Base(filepath.Dir(name)) == layout.StemmerDir {
		return "stemmer"
	}
	return "page"
}

// gzipSize is the size of data gzip-compressed as curex publish --gzip
// stores a script (best compression): what a reader of a site published
// that way downloads.
func gzipSize(tb testing.TB, data []byte) int {
	tb.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := zw.Write(data); err != nil {
		tb.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Len()
}

// typo is w with its last two letters swapped (one edit).
func typo(w string) string {
	r := []rune(w)
	if len(r) < 5 {
		return w
	}
	r[len(r)-1], r[len(r)-2] = r[len(r)-2], r[len(r)-1]
	return string(r)
}

// searchOnce types q into the search box of page u in a fresh tab and
// returns what it loaded once its results are in.
func searchOnce(b *testing.B, br *chromium.Browser, u, q string) searchLoad {
	b.Helper()
	arg, err := json.Marshal(q)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var got searchLoad
	err = br.Run(ctx, u, func(tab context.Context) error {
		if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](strings.Replace(watchFirst, "%s", string(arg), 1))); err != nil {
			return err
		}
		if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#search-q"), q)); err != nil {
			return err
		}
		done := `(() => { const o = document.getElementById("search-results"); return o.dataset.state === "done" && o.dataset.query === ` + string(arg) + ` })()`
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](done)); err != nil {
			return err
		}
		got, err = chromedp.Run(tab, chromedp.Evaluate[searchLoad](loaded))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return got
}

// renderAll renders every tree of f, then the site-wide pages, through w,
// trees side by side as an export does.
func renderAll(tb testing.TB, f *fixture, w interface {
	Write(string, []byte) error
}) {
	tb.Helper()
	r, err := New(Options{})
	if err != nil {
		tb.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(f.trees))
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				errs[i] = r.RenderTree(context.Background(), w, f.site, f.trees[i], f.outlines)
			}
		})
	}
	for i := range f.trees {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			tb.Fatal(err)
		}
	}
	if err := r.RenderSite(w, f.site); err != nil {
		tb.Fatal(err)
	}
}
