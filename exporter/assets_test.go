package exporter_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/assets"
	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// earthToken reads Earth Science, whose lessons show the sandbox's
// images: three good ones and one the sandbox does not have (404).
const earthToken = "sandbox-northwind-token"

// relFiles is files with paths relative to dir, with forward slashes.
func relFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for p, data := range files(t, dir) {
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.ToSlash(rel)] = data
	}
	return out
}

// find returns the output's files (relative, forward slashes) whose
// contents hold s.
func find(t *testing.T, all map[string]string, s string) []string {
	t.Helper()
	var out []string
	for p, data := range all {
		if strings.Contains(data, s) {
			out = append(out, p)
		}
	}
	return out
}

func TestContentImagesKeptInTheOutput(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	out, cache := t.TempDir(), t.TempDir()
	cfg := exporter.Config{BaseURL: url, Token: earthToken, Output: out, CacheDir: cache, Limits: ratelimit.Limits{},
		Formats: []string{"html", "handbook", "markdown", "json"}, AllowPrivateAssets: true}
	sum, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// earth-layers, granite, water-cycle; atmosphere-layers is missing.
	// The French lessons show the same URLs: one fetch each.
	if sum.AssetsFetched != 3 || sum.AssetsReused != 0 || sum.AssetsFailed != 1 {
		t.Errorf("images fetched %d, reused %d, failed %d; want 3, 0, 1", sum.AssetsFetched, sum.AssetsReused, sum.AssetsFailed)
	}
	all := relFiles(t, out)
	var kept []string
	for p := range all {
		if strings.HasPrefix(p, "assets/content/") {
			kept = append(kept, p)
		}
	}
	if len(kept) != 3 {
		t.Fatalf("assets/content holds %v, want 3 files", kept)
	}
	layers := regexp.MustCompile(`<img src="((?:\.\./)+)(assets/content/[0-9a-f]{64}\.png)" width="240" height="240" alt="Cross-section of Earth: [^"]+" loading="lazy">`)
	pages := find(t, all, "Cross-section of Earth")
	checked := map[string]bool{}
	for _, p := range pages {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		m := layers.FindStringSubmatch(all[p])
		if m == nil {
			t.Errorf("%s: no local image of Earth's layers:\n%s", p, excerpt(all[p], "Cross-section"))
			continue
		}
		// The src leads from the page to the file.
		if got := filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(p), m[1], m[2]))); got != m[2] {
			t.Errorf("%s: src %s%s resolves to %s", p, m[1], m[2], got)
		}
		if _, ok := all[m[2]]; !ok {
			t.Errorf("%s refers to %s, not in the output", p, m[2])
		}
		checked[filepath.Base(p)] = true
	}
	if !checked["index.html"] || !checked["handbook.html"] {
		t.Errorf("checked %v: want a node page and a handbook", checked)
	}
	// The French page keeps its own alt text.
	if len(find(t, all, `alt="Coupe de la Terre : une fine croûte brune`)) < 2 {
		t.Error("the French alt text is not on the French page and handbook")
	}
	// The missing image: its alt text, linked to its URL.
	broken := url + "/images/atmosphere-layers.png"
	failed := `<a href="` + broken + `" rel="noopener noreferrer nofollow" class="image-failed">Diagram of the layers of the atmosphere, from the troposphere to the thermosphere</a>`
	if len(find(t, all, failed)) < 2 {
		t.Errorf("no page shows the missing image as a link: %v", find(t, all, "atmosphere-layers"))
	}
	// Markdown bundles keep the URLs; no page loads an image remotely.
	md := find(t, all, "]("+url+"/images/earth-layers.png)")
	if len(md) == 0 {
		t.Error("the Markdown bundle does not keep the image's URL")
	}
	for _, p := range find(t, all, `src="`+url) {
		t.Errorf("%s loads an image from the sandbox", p)
	}

	// A second run carries the unchanged exports over, images included.
	sum, err = exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Reused == 0 {
		t.Fatalf("second run reused no export: %+v", sum)
	}
	for _, p := range kept {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); err != nil {
			t.Errorf("after a second run: %v", err)
		}
	}

	// Another format renders every tree again: the images are asked for
	// with If-None-Match, and the sandbox's 304s reuse the cache's bytes.
	cfg.Formats = []string{"html", "markdown", "json"}
	sum, err = exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.AssetsFetched != 0 || sum.AssetsReused != 3 || sum.AssetsFailed != 1 {
		t.Errorf("third run: fetched %d, reused %d, failed %d; want 0, 3, 1", sum.AssetsFetched, sum.AssetsReused, sum.AssetsFailed)
	}

	// A build takes them from the cache, with no request.
	built := t.TempDir()
	bcfg := cfg
	bcfg.Output, bcfg.BaseURL = built, "http://127.0.0.1:1"
	sum, err = exporter.Build(context.Background(), bcfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.AssetsReused != 3 || sum.AssetsFailed != 1 {
		t.Errorf("build: reused %d, failed %d; want 3, 1", sum.AssetsReused, sum.AssetsFailed)
	}
	for _, p := range kept {
		if _, err := os.Stat(filepath.Join(built, filepath.FromSlash(p))); err != nil {
			t.Errorf("build: %v", err)
		}
	}
}

func TestContentImagesRefusedOrRemote(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	for _, tc := range []struct {
		name   string
		assets string
		// private is AllowPrivateAssets; budget the ImageBudget.
		private bool
		budget  assets.Budget
		failed  int
		want    string
	}{
		// The sandbox is on loopback: refused without AllowPrivateAssets.
		{"loopback refused", exporter.AssetsLocal, false, assets.Budget{}, 4, `class="image-failed">Cross-section of Earth`},
		{"remote", exporter.AssetsRemote, false, assets.Budget{}, 0, `<img src="` + url + `/images/earth-layers.png" alt="Cross-section of Earth`},
		// Issue 23: an image over the run's budget is skipped, shown as
		// a link, counted; the run does not fail. (The missing image
		// is asked for and fails: its 404 has no bytes to count.)
		{"over the run's image bytes", exporter.AssetsLocal, true, assets.Budget{RunBytes: 1}, 4, `class="image-failed">Cross-section of Earth`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			cfg := exporter.Config{BaseURL: url, Token: earthToken, Output: out, Limits: ratelimit.Limits{},
				Formats: []string{"html"}, Assets: tc.assets, AllowPrivateAssets: tc.private, ImageBudget: tc.budget}
			sum, err := exporter.Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if sum.AssetsFetched != 0 || sum.AssetsFailed != tc.failed {
				t.Errorf("fetched %d, failed %d; want 0, %d", sum.AssetsFetched, sum.AssetsFailed, tc.failed)
			}
			all := relFiles(t, out)
			if len(find(t, all, tc.want)) == 0 {
				t.Errorf("no page holds %s", tc.want)
			}
			if _, err := os.Stat(filepath.Join(out, "assets", "content")); !os.IsNotExist(err) {
				t.Errorf("assets/content: %v, want none", err)
			}
		})
	}
}

// excerpt is the part of s around sub.
func excerpt(s, sub string) string {
	i := strings.Index(s, sub)
	if i < 0 {
		return "(not found)"
	}
	return s[max(0, i-200):min(len(s), i+200)]
}

// TestImagesOfUnpublishedNodesNotFetched: a draft lesson's image is not
// asked for (it would fail, as the sandbox lacks it).
func TestImagesOfUnpublishedNodesNotFetched(t *testing.T) {
	t.Parallel()
	h, url := sampleServer(t, sandbox.Options{})
	err := h.Edit(func(ds *dataset.Dataset) error {
		for i := range ds.Curricula {
			c := &ds.Curricula[i]
			if c.ID != "301" {
				continue
			}
			n := &c.Nodes[1].Children[2] // Weather versus Climate
			n.WorkflowStatus = dataset.StatusDraft
			n.Attributes["description"] = json.RawMessage(`"![A draft's chart](` + sandbox.Origin + `/images/draft-only.png)"`)
			return nil
		}
		return errors.New("no Earth Science")
	})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	cfg := exporter.Config{BaseURL: url, Token: earthToken, Output: out, Limits: ratelimit.Limits{},
		Formats: []string{"html"}, AllowPrivateAssets: true}
	sum, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.AssetsFetched != 3 || sum.AssetsFailed != 1 {
		t.Errorf("fetched %d, failed %d; want 3, 1 (the draft's image never asked for)", sum.AssetsFetched, sum.AssetsFailed)
	}
	if got := find(t, relFiles(t, out), "draft-only.png"); len(got) != 0 {
		t.Errorf("the draft's image shows in %v", got)
	}
}

// TestPDFHoldsContentImages prints Earth Science's handbooks: each PDF
// holds the lesson pictures as images of their own size (poppler's
// pdfimages lists them), printed from local files with the sandbox gone.
func TestPDFHoldsContentImages(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("prints PDFs with Chromium")
	}
	if _, err := chromium.Find(""); err != nil {
		if os.Getenv("CUREX_REQUIRE_TOOLS") == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	need(t, "pdfimages", "poppler-utils")
	_, url := sampleServer(t, sandbox.Options{})
	out := t.TempDir()
	cfg := exporter.Config{BaseURL: url, Token: earthToken, Output: out, Limits: ratelimit.Limits{},
		Formats: []string{"pdf"}, AllowPrivateAssets: true, Filter: fetch.Filter{Locales: []string{"en"}}}
	sum, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.PDFsPrinted != 1 || sum.AssetsFetched != 3 {
		t.Fatalf("printed %d PDFs, fetched %d images; want 1, 3", sum.PDFsPrinted, sum.AssetsFetched)
	}
	list := run(t, "pdfimages", "-list", filepath.Join(out, "earth-science", "base", "en", "handbook.pdf"))
	// page num type width height ...: earth-layers 240×240, granite
	// 200×150, water-cycle 320×180.
	sizes := map[string]bool{}
	for _, line := range strings.Split(list, "\n") {
		f := strings.Fields(line)
		if len(f) > 4 && f[2] == "image" {
			sizes[f[3]+"x"+f[4]] = true
		}
	}
	for _, want := range []string{"240x240", "200x150", "320x180"} {
		if !sizes[want] {
			t.Errorf("the PDF holds no %s image:\n%s", want, list)
		}
	}
}
