package exporter_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// TestMathEveryFormat exports the sample's Algebra 1 (Texas, English),
// whose reference appendix holds the quadratic formula in a math fence,
// inline radicals, and one expression that does not parse, in every
// format: MathML on the website and in the handbook, the expressions'
// text in the printed PDF (Chromium lays MathML out with mathematical
// italic letters, which pdftotext gives back as such), the TeX in the bundles' forms, and the broken
// expression shown as source and counted once per export, in the summary
// and the manifest, without failing anything.
func TestMathEveryFormat(t *testing.T) {
	t.Parallel()
	pdf := !testing.Short()
	if pdf {
		if _, err := chromium.Find(""); err != nil {
			if os.Getenv("CUREX_REQUIRE_TOOLS") == "1" {
				t.Fatal(err)
			}
			pdf = false
		}
	}
	if pdf {
		need(t, "pdftotext", "poppler-utils")
	}
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	const broken = `The broken $\frac{1}{$ stays readable.`
	for i := range ds.Curricula {
		c := &ds.Curricula[i]
		for j := range c.Nodes {
			if c.ID != "101" || c.Nodes[j].ID != "alg-app-a" {
				continue
			}
			var desc string
			if err := json.Unmarshal(c.Nodes[j].Attributes["description"], &desc); err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(desc + "\n\n" + broken)
			c.Nodes[j].Attributes["description"] = raw
		}
	}
	h, err := sandboxtest.New(t.Name(), ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(h)
	t.Cleanup(server.Close)
	srv := server.URL
	formats := []string{"html", "markdown", "json", "handbook"}
	if pdf {
		formats = append(formats, "pdf")
	}
	out := filepath.Join(t.TempDir(), "out")
	sum, err := exporter.Run(context.Background(), exporter.Config{BaseURL: srv, Token: token, Output: out, Limits: ratelimit.Limits{},
		Generator: "curex test", Formats: formats,
		Filter: fetch.Filter{Curricula: []string{"101"}, Variants: []string{"Texas"}, Locales: []string{"en"}}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Partial() || sum.Written == 0 {
		t.Fatalf("written %d, failures %v", sum.Written, sum.Failures)
	}
	if sum.MathErrors != sum.Written {
		t.Errorf("summary counts %d math errors in %d exports, want one each", sum.MathErrors, sum.Written)
	}
	data, err := os.ReadFile(filepath.Join(out, output.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var m output.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Exports {
		if e.MathErrors != 1 {
			t.Errorf("%s/%s: math_errors %d, want 1", e.Variant, e.Locale, e.MathErrors)
		}
		read := func(rel string) string {
			t.Helper()
			b, err := os.ReadFile(filepath.Join(out, rel))
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		hb := read(e.Handbook)
		for _, want := range []string{
			`<div class="math-display" tabindex="0"><math display="block"><semantics><mrow><mi>x</mi><mo>=</mo><mfrac>`,
			`<msqrt>`, `<mroot><mn>27</mn><mn>3</mn></mroot>`,
			`<code class="math-error" title="mathml: Unexpected end of input in a macro argument, expected &#39;}&#39;"><span class="math-error-mark">⚠ TeX</span> $\frac{1}{$</code>`,
		} {
			if !strings.Contains(hb, want) {
				t.Errorf("handbook lacks %s", want)
			}
		}
		page := findFile(t, filepath.Join(out, filepath.Dir(e.HTML)), "alg-app-a/index.html")
		if !strings.Contains(page, `<math display="block">`) || !strings.Contains(page, `class="math-error"`) {
			t.Error("website page of the appendix lacks its math")
		}
		md := findFile(t, filepath.Join(out, filepath.Dir(e.Markdown)), "formula-reference")
		for _, want := range []string{"$$\nx = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}\n$$", `\(ax^2 + bx + c = 0\)`, `\(d = \sqrt{(x_2 - x_1)^2 + (y_2 - y_1)^2}\)`} {
			if !strings.Contains(md, want) {
				t.Errorf("Markdown bundle lacks %q", want)
			}
		}
		if js := read(e.JSON); !strings.Contains(js, `## Beyond linear equations\n\nThe solutions of $ax^2 + bx + c = 0$, where $a \\neq 0$, are given by the quadratic formula:\n\n`+"```math\\nx = \\\\frac{-b \\\\pm \\\\sqrt{b^2 - 4ac}}{2a}\\n```") {
			i := strings.Index(js, "Beyond linear")
			t.Errorf("JSON bundle does not keep the TeX source as received: %.300s", js[max(i, 0):])
		}
		if !pdf {
			continue
		}
		// -raw: the text in the order Chromium drew it, which is the
		// page's reading order. Read by where the glyphs sit (pdftotext's
		// default), a formula's raised and lowered parts land on lines of
		// their own, and where depends on the formula's size. A
		// stretched radical sign is drawn apart from its radicand, so
		// the signs are counted, then left out of the pieces.
		text := run(t, "pdftotext", "-raw", filepath.Join(out, e.PDF), "-")
		flat := regexp.MustCompile(`[\s√]+`).ReplaceAllString(text, "")
		if strings.Count(text, "√") < 3 {
			t.Errorf("PDF text has %d radical signs, want 3 (two square roots, a cube root)", strings.Count(text, "√"))
		}
		// A root's index is drawn after its radicand: ∛27 reads 273.
		for _, want := range []string{"𝑥=−𝑏±𝑏2−4𝑎𝑐2𝑎", "𝑑=(𝑥2−𝑥1)2+(𝑦2−𝑦1)2", "273=3.", `⚠TeX$\frac{1}{$`} {
			if !strings.Contains(flat, want) {
				i := strings.Index(text, "quadratic")
				t.Errorf("PDF text lacks %q (spaces removed): %.400s", want, text[max(i, 0):])
			}
		}
	}
}

// findFile returns the content of the first file under dir whose path
// holds part.
func findFile(t *testing.T, dir, part string) string {
	t.Helper()
	var found string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || found != "" || !strings.Contains(p, part) {
			return err
		}
		b, err := os.ReadFile(p)
		found = string(b)
		return err
	})
	if err != nil || found == "" {
		var names []string
		_ = filepath.WalkDir(dir, func(p string, _ os.DirEntry, _ error) error { names = append(names, p); return nil })
		t.Fatalf("no file with %q under %s (%v): %s", part, dir, err, strings.Join(names, " "))
	}
	return found
}

// TestMathOverBudgetFailsAlone exports the sample's Algebra 1 with issue
// 23's macro bomb (390 bytes that expand to 240,000 tokens, under
// Temml's bound on expansions) added to its appendix: the run goes on
// and writes every export, the bomb is counted once per export in
// math_errors and shown as its TeX with the reason, and the appendix's
// other math converts.
func TestMathOverBudgetFailsAlone(t *testing.T) {
	t.Parallel()
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	bomb := `\def\a{` + strings.Repeat("x", 300) + `}\def\b{` + strings.Repeat(`\a`, 10) + `}\def\c{` + strings.Repeat(`\b`, 10) + `}\def\d{` + strings.Repeat(`\c`, 8) + `}\d`
	for i := range ds.Curricula {
		c := &ds.Curricula[i]
		for j := range c.Nodes {
			if c.ID != "101" || c.Nodes[j].ID != "alg-app-a" {
				continue
			}
			var desc string
			if err := json.Unmarshal(c.Nodes[j].Attributes["description"], &desc); err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(desc + "\n\nThe bomb $" + bomb + "$ stays readable.")
			c.Nodes[j].Attributes["description"] = raw
		}
	}
	h, err := sandboxtest.New(t.Name(), ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(h)
	t.Cleanup(server.Close)
	out := filepath.Join(t.TempDir(), "out")
	sum, err := exporter.Run(context.Background(), exporter.Config{BaseURL: server.URL, Token: token, Output: out, Limits: ratelimit.Limits{},
		Generator: "curex test", Formats: []string{"html", "handbook"},
		Filter: fetch.Filter{Curricula: []string{"101"}, Variants: []string{"Texas"}, Locales: []string{"en"}}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Partial() || sum.Written == 0 {
		t.Fatalf("written %d, failures %v", sum.Written, sum.Failures)
	}
	if sum.MathErrors != sum.Written {
		t.Errorf("summary counts %d math errors in %d exports, want one each", sum.MathErrors, sum.Written)
	}
	data, err := os.ReadFile(filepath.Join(out, output.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var m output.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Exports {
		if e.MathErrors != 1 {
			t.Errorf("%s/%s: math_errors %d, want 1", e.Variant, e.Locale, e.MathErrors)
		}
		b, err := os.ReadFile(filepath.Join(out, e.Handbook))
		if err != nil {
			t.Fatal(err)
		}
		hb := string(b)
		for _, want := range []string{
			`<math display="block">`,
			`<code class="math-error" title="mathml: formula too large: more than 100000 token steps"><span class="math-error-mark">⚠ TeX</span> $\def\a{xxx`,
			`\d$</code> stays readable.`,
		} {
			if !strings.Contains(hb, want) {
				t.Errorf("handbook lacks %s", want)
			}
		}
		page := findFile(t, filepath.Join(out, filepath.Dir(e.HTML)), "alg-app-a/index.html")
		if !strings.Contains(page, `<math display="block">`) || !strings.Contains(page, `formula too large`) {
			t.Error("website page of the appendix lacks its math or the bomb's TeX")
		}
	}
}
