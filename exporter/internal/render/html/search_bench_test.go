package html

import (
	"context"
	"encoding/json"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/i18n"
	"github.com/curex/curex/exporter/internal/render/terms"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// searchNodes sizes the tree of the search benchmarks; docs/BENCHMARKS.md
// quotes the default and one run at 20,000.
var searchNodes = flag.Int("search-nodes", 2000, "nodes of the synthetic tree of the search benchmarks")

// searchBenchTree is the synthetic tree of the search benchmarks, 2,000
// nodes unless -search-nodes (the primary locale of a curriculum with
// two, every node with a description and objectives), in a whole site.
func searchBenchTree(b *testing.B) (*fixture, *model.Tree) {
	b.Helper()
	ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: 1, Locales: 2, Nodes: *searchNodes, Depth: 3, Seed: 1})
	f := fromDataset(b, ds, false)
	return f, f.trees[0]
}

// BenchmarkSearchIndex builds the search index of the 2,000-node synthetic
// tree (every node's fields made plain, their words stemmed, then the
// files) and reports the bytes of each file kind per 1,000 nodes: what
// the browser loads (the head, then the terms and the text chunks) and
// search.json.
func BenchmarkSearchIndex(b *testing.B) {
	_, tree := searchBenchTree(b)
	var flat []*flatNode
	pages := map[*model.Node]string{}
	tree.Walk(func(n *model.Node) bool {
		flat = append(flat, &flatNode{n: n})
		pages[n] = layout.NodePage(tree.Export, n.Segment)
		return true
	})
	m := i18n.For(tree.Export.Locale)
	toc := layout.ExportIndex(tree.Export)
	none := func(*model.Node) string { return "" }
	var files *searchFiles
	// The tree's stemmer, as writeSearch takes it (nil for a language
	// with none).
	st, _ := terms.NewStemmers().For(terms.Language(tree.Export.Locale))
	b.ReportAllocs()
	for b.Loop() {
		for _, fl := range flat {
			fl.fields = nodeFields(fl.n, m, nil)
		}
		var err error
		if files, err = buildSearch(tree.Dir(), toc, flat, pages, none, searchChunkBytes, searchShardBytes, st); err != nil {
			b.Fatal(err)
		}
	}
	per := 1000 / float64(len(flat))
	body := 0
	for _, c := range files.Body {
		body += len(c)
	}
	b.ReportMetric(float64(len(files.Head))*per, "head-B/1knodes")
	b.ReportMetric(float64(body)*per, "body-B/1knodes")
	termsBytes := 0
	for _, t := range files.Terms {
		termsBytes += len(t)
	}
	b.ReportMetric(float64(termsBytes)*per, "terms-B/1knodes")
	b.ReportMetric(float64(len(files.Terms)), "shards")
	b.ReportMetric(float64(len(files.JSON))*per, "json-B/1knodes")
	b.ReportMetric(float64(len(files.Body)), "chunks")
	b.ReportMetric(float64(len(flat))*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// dirWriter writes files under a folder.
type dirWriter string

func (d dirWriter) Write(rel string, data []byte) error {
	p := filepath.Join(string(d), filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// firstResult prepares the page for one measure: the box holds the query
// but its last character, and the time from the next keydown to the first
// result of the whole query in the DOM (a MutationObserver, timed with
// performance.now()) becomes window.curexFirst, a promise.
const firstResult = `((q) => {
  const input = document.getElementById("search-q"), out = document.getElementById("search-results");
  input.value = q.slice(0, -1);
  let t0 = 0;
  input.addEventListener("keydown", () => { t0 = performance.now(); }, { capture: true, once: true });
  window.curexFirst = new Promise((resolve) => {
    new MutationObserver((_, obs) => {
      if (t0 && out.dataset.query === q && out.querySelector("li")) { obs.disconnect(); resolve(performance.now() - t0); }
    }).observe(out, { childList: true, subtree: true, attributes: true });
  });
  return true;
})(%s)`

// BenchmarkSearchFirstResult measures, in headless Chromium from file://,
// the time from the keystroke that completes a query to its first result
// on the page, on the first node page of the 2,000-node synthetic tree,
// each time in a fresh tab (the index is not loaded yet: focusing the box
// starts loading its head, then the keystroke comes), with the text in
// chunks (chunked, what curex writes) and in one file (one-file, the
// design it is measured against). "title" is the
// title of the tree's last node (found in the head); "text" is three
// words of that node's description, found once the text chunks are in.
// It skips without Chromium.
func BenchmarkSearchFirstResult(b *testing.B) {
	exe, err := chromium.Find("")
	if err != nil {
		b.Skip(err)
	}
	f, tree := searchBenchTree(b)
	// The site twice: text in chunks of searchChunkBytes (what curex
	// writes), and all of it in one file (the design it is measured
	// against).
	sites := map[string]string{}
	for name, chunk := range map[string]int{"chunked": searchChunkBytes, "one-file": 1 << 30} {
		r, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		r.searchChunk = chunk
		dir := b.TempDir()
		w := dirWriter(dir)
		for _, t := range f.trees {
			if err := r.RenderTree(context.Background(), w, f.site, t, f.outlines); err != nil {
				b.Fatal(err)
			}
		}
		if err := r.RenderSite(w, f.site); err != nil {
			b.Fatal(err)
		}
		sites[name] = dir
	}
	br, err := chromium.Launch(context.Background(), chromium.Options{ExecPath: exe})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = br.Close() })
	var last *model.Node
	tree.Walk(func(n *model.Node) bool { last = n; return true })
	var desc string
	if err := json.Unmarshal(last.Attributes["description"], &desc); err != nil {
		b.Fatal(err)
	}
	words := strings.Fields(strings.ToLower(strings.Trim(desc, ".")))
	for _, design := range []string{"chunked", "one-file"} {
		page := layout.NodePage(tree.Export, tree.Nodes[0].Segment)
		u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(sites[design], filepath.FromSlash(page)))}).String()
		for _, q := range []struct{ name, text string }{
			{"title", last.Title},
			{"text", strings.Join(words[:3], " ")},
		} {
			b.Run(design+"/"+q.name, func(b *testing.B) {
				b.ReportMetric(firstResultMS(b, br, u, q.text), "ms/first-result")
			})
		}
	}
}

// firstResultMS types the last character of query into the search box of
// page u in a fresh tab, b.N times, and returns the mean time from that
// keystroke to the first result on the page.
func firstResultMS(b *testing.B, br *chromium.Browser, u, query string) float64 {
	arg, err := json.Marshal(query)
	if err != nil {
		b.Fatal(err)
	}
	setup := strings.Replace(firstResult, "%s", string(arg), 1)
	var total float64
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		err := br.Run(ctx, u, func(tab context.Context) error {
			if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](setup)); err != nil {
				return err
			}
			if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#search-q"), query[len(query)-1:])); err != nil {
				return err
			}
			ms, err := chromedp.Run(tab, chromedp.Evaluate[float64](`window.curexFirst`, chromedp.EvalAwaitPromise))
			total += ms
			return err
		})
		cancel()
		if err != nil {
			b.Fatal(err)
		}
	}
	return total / float64(b.N)
}

// BenchmarkSearchBuildShare: issue 27 part 1, the cost of the search
// index beside the website's. Each round renders the 2,000-node tree's
// pages (RenderTree, its search index included), then builds the index
// alone as writeSearch does (fields made plain, words stemmed, shards
// and chunks encoded), and reports the index's share of the rendering:
// under 0.1 is the goal (index/render, elapsed time).
//
// The index is built on one goroutine, fields included, while
// RenderTree makes the fields plain in its page workers, one a
// processor, and uses the description's for the pages' meta
// descriptions: the share is, if anything, overstated. It also reports
// the CPU time of each part (the process's, user and system, where the
// system says): on a machine that other jobs share, elapsed time says
// as much about them, and index/render-cpu is the steadier figure.
func BenchmarkSearchBuildShare(b *testing.B) {
	f, tree := searchBenchTree(b)
	r, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	var flat []*flatNode
	pages := map[*model.Node]string{}
	tree.Walk(func(n *model.Node) bool {
		flat = append(flat, &flatNode{n: n})
		pages[n] = layout.NodePage(tree.Export, n.Segment)
		return true
	})
	m := i18n.For(tree.Export.Locale)
	st, _ := terms.NewStemmers().For(terms.Language(tree.Export.Locale))
	none := func(*model.Node) string { return "" }
	var render, index, renderCPU, indexCPU time.Duration
	for b.Loop() {
		c0, cpuOK := processCPU()
		t0 := time.Now()
		if err := r.RenderTree(context.Background(), newMemWriter(), f.site, tree, f.outlines); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		c1, _ := processCPU()
		for _, fl := range flat {
			fl.fields = nodeFields(fl.n, m, nil)
		}
		if _, err := buildSearch(tree.Dir(), layout.ExportIndex(tree.Export), flat, pages, none, searchChunkBytes, searchShardBytes, st); err != nil {
			b.Fatal(err)
		}
		render += t1.Sub(t0)
		index += time.Since(t1)
		if c2, _ := processCPU(); cpuOK {
			renderCPU += c1 - c0
			indexCPU += c2 - c1
		}
	}
	b.ReportMetric(float64(render.Milliseconds())/float64(b.N), "render-ms")
	b.ReportMetric(float64(index.Milliseconds())/float64(b.N), "index-ms")
	b.ReportMetric(index.Seconds()/render.Seconds(), "index/render")
	if renderCPU > 0 {
		b.ReportMetric(float64(renderCPU.Milliseconds())/float64(b.N), "render-cpu-ms")
		b.ReportMetric(float64(indexCPU.Milliseconds())/float64(b.N), "index-cpu-ms")
		b.ReportMetric(indexCPU.Seconds()/renderCPU.Seconds(), "index/render-cpu")
	}
}
