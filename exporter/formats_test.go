package exporter_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/png"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render/jsonbundle/treeschema"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// need skips the test when a program is missing, unless the environment
// requires every tool (make test sets CUREX_REQUIRE_TOOLS=1), and with
// -short (make check), which runs no external program.
func need(t *testing.T, prog, pkg string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no " + prog + " (make test runs it)")
	}
	if _, err := exec.LookPath(prog); err != nil {
		if os.Getenv("CUREX_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s is missing: apt-get install %s (make tools does)", prog, pkg)
		}
		t.Skipf("%s is missing (apt-get install %s)", prog, pkg)
	}
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return string(out)
}

// TestEveryFormat exports a nested variant in a right-to-left and a CJK
// locale in every format, and checks each the way its reader would: the
// JSON against its schema, the Markdown zip against the folder, the
// handbook's contents, and the PDF with poppler (pages, text, a first page
// that is not blank); the cartridge is there and reproducible too.
func TestEveryFormat(t *testing.T) {
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
	need(t, "pdfinfo", "poppler-utils")
	_, url := sampleServer(t, sandbox.Options{})
	out := filepath.Join(t.TempDir(), "out")
	cfg := exporter.Config{BaseURL: url, Token: token, Output: out, CacheDir: t.TempDir(), Limits: ratelimit.Limits{},
		Generator: "curex test", Formats: []string{"html", "markdown", "json", "handbook", "pdf", "cartridge"},
		Filter: fetch.Filter{Curricula: []string{"101"}, Variants: []string{"Houston ISD"}, Locales: []string{"ar", "ja"}}}
	sum, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Written != 2 {
		t.Fatalf("wrote %d exports, want 2", sum.Written)
	}
	if sum.PDFsPrinted != 2 || sum.PDFsReused != 0 {
		t.Errorf("first export: %d PDFs printed, %d from the cache; want 2 and 0", sum.PDFsPrinted, sum.PDFsReused)
	}
	// Reproducible: the same content gives the same bytes in every
	// format. The PDFs' dates are the content's, not the clock's, and the
	// handbooks are the same bytes, so the PDFs come from the print cache:
	// Chromium alone sometimes splits a link annotation otherwise.
	again := cfg
	again.Output = filepath.Join(t.TempDir(), "again")
	sum, err = exporter.Run(context.Background(), again)
	if err != nil {
		t.Fatal(err)
	}
	if sum.PDFsPrinted != 0 || sum.PDFsReused != 2 {
		t.Errorf("second export of the same content: %d PDFs printed, %d from the cache; want 0 and 2", sum.PDFsPrinted, sum.PDFsReused)
	}
	first, second := files(t, out), files(t, again.Output)
	if len(first) != len(second) {
		t.Errorf("second export wrote %d files, the first %d", len(second), len(first))
	}
	for p, body := range first {
		if second[filepath.Join(again.Output, strings.TrimPrefix(p, out))] != body {
			t.Errorf("%s differs between two exports of the same content", strings.TrimPrefix(p, out))
			if d := os.Getenv("CUREX_KEEP_DIFF"); d != "" {
				_ = os.WriteFile(filepath.Join(d, "a-"+filepath.Base(p)), []byte(body), 0o644)
				_ = os.WriteFile(filepath.Join(d, "b-"+filepath.Base(p)), []byte(second[filepath.Join(again.Output, strings.TrimPrefix(p, out))]), 0o644)
			}
		}
	}

	mf, err := os.Open(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := output.ReadManifest(mf)
	mf.Close()
	if err != nil {
		t.Fatal(err)
	}
	v, err := treeschema.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Exports {
		t.Run(e.Locale, func(t *testing.T) {
			for _, p := range []string{e.HTML, e.JSON, e.Markdown, e.Handbook, e.PDF, e.Cartridge} {
				if p == "" {
					t.Fatalf("manifest entry lacks a format: %+v", e)
				}
			}
			data, err := os.ReadFile(filepath.Join(out, e.JSON))
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Validate(data); err != nil {
				t.Fatalf("%s: %v", e.JSON, err)
			}
			var doc struct {
				Nodes []jsonNode `json:"nodes"`
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			var titles []string
			var walk func([]jsonNode)
			walk = func(ns []jsonNode) {
				for _, n := range ns {
					titles = append(titles, n.Title)
					walk(n.Children)
				}
			}
			walk(doc.Nodes)

			checkZip(t, out, e.Markdown)

			hb, err := os.ReadFile(filepath.Join(out, e.Handbook))
			if err != nil {
				t.Fatal(err)
			}
			for _, title := range titles {
				if !bytes.Contains(hb, []byte(htmlEscape(title))) {
					t.Errorf("handbook lacks %q", title)
				}
			}

			pdf := filepath.Join(out, e.PDF)
			info := run(t, "pdfinfo", pdf)
			pages := 0
			for _, line := range strings.Split(info, "\n") {
				if v, ok := strings.CutPrefix(line, "Pages:"); ok {
					pages, _ = strconv.Atoi(strings.TrimSpace(v))
				}
			}
			// A cover, the contents, a page per unit at least; far fewer
			// pages than three per node.
			if pages < 2+len(doc.Nodes) || pages > 3*len(titles) {
				t.Errorf("%d pages for %d nodes in %d units", pages, len(titles), len(doc.Nodes))
			}
			text := run(t, "pdftotext", pdf, "-")
			found := 0
			for _, title := range titles {
				// Arabic text comes out of a PDF with its ligatures
				// decomposed; compare what survives extraction intact.
				if e.Locale == "ar" && strings.ContainsFunc(title, func(r rune) bool { return r >= 0x600 && r <= 0x6ff }) {
					continue
				}
				found++
				if !strings.Contains(strings.Join(strings.Fields(text), " "), strings.Join(strings.Fields(title), " ")) {
					t.Errorf("the PDF's text lacks %q", title)
				}
			}
			if found == 0 {
				t.Error("no title could be checked in the PDF's text")
			}
			prefix := filepath.Join(t.TempDir(), "page")
			run(t, "pdftoppm", "-png", "-r", "40", "-f", "1", "-l", "1", pdf, prefix)
			pngs, _ := filepath.Glob(prefix + "*.png")
			if len(pngs) != 1 {
				t.Fatalf("pdftoppm wrote %v", pngs)
			}
			f, err := os.Open(pngs[0])
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			dark, b := 0, img.Bounds()
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					if r, g, bl, _ := img.At(x, y).RGBA(); r+g+bl < 3*0x8000 {
						dark++
					}
				}
			}
			if dark < b.Dx()*b.Dy()/1000 {
				t.Errorf("the first page is blank: %d dark pixels of %d", dark, b.Dx()*b.Dy())
			}
		})
	}
}

type jsonNode struct {
	Title    string     `json:"title"`
	Children []jsonNode `json:"children"`
}

// htmlEscape escapes a title as html/template does in text.
func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// checkZip compares markdown.zip with the markdown/ folder beside it.
func checkZip(t *testing.T, out, dir string) {
	t.Helper()
	zipPath := filepath.Join(out, strings.TrimSuffix(dir, "/")+".zip")
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	files := 0
	err = filepath.Walk(filepath.Join(out, dir), func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			files++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 || len(zr.File) != files {
		t.Errorf("markdown.zip holds %d files, the folder %d", len(zr.File), files)
	}
}

// TestSourceDate checks that Config.SourceDate (SOURCE_DATE_EPOCH, read
// by the command line: see cmd/curex TestSourceDateEpoch) dates the
// handbooks.
func TestSourceDate(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	cfg := exporter.Config{BaseURL: url, Token: token, Output: filepath.Join(t.TempDir(), "out"), Limits: ratelimit.Limits{},
		Formats: []string{"handbook"}, Filter: fetch.Filter{Curricula: []string{"101"}, Variants: []string{"base"}, Locales: []string{"en"}},
		SourceDate: time.Unix(1700000000, 0).UTC()} // 2023-11-14
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	hb, err := os.ReadFile(filepath.Join(cfg.Output, "algebra-1", "base", "en", "handbook.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(hb, []byte("2023")) || !bytes.Contains(hb, []byte("November")) {
		t.Errorf("the handbook is not dated by SOURCE_DATE_EPOCH (November 2023)")
	}
}

// TestPDFTimeoutFailsThatExportOnly exports two handbooks to PDF, then
// changes one upstream and exports again with a timeout no printing can
// meet (a nanosecond: an injected deadline, not a slow machine). The
// unchanged export is carried over; the changed one's handbook times
// out, and only that export fails (partial, exit 3): it keeps its previous
// PDF byte for byte and says so in the manifest, while its other formats
// and the other export are this run's.
func TestPDFTimeoutFailsThatExportOnly(t *testing.T) {
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
	h, url := sampleServer(t, sandbox.Options{})
	out := filepath.Join(t.TempDir(), "out")
	cfg := exporter.Config{BaseURL: url, Token: token, Output: out, CacheDir: t.TempDir(), Limits: ratelimit.Limits{},
		Generator: "curex test", Formats: []string{"json", "pdf"},
		Filter: fetch.Filter{Curricula: []string{"101", "curriculum_201"}, Variants: []string{"base"}, Locales: []string{"en"}}}
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	before := files(t, out)
	if err := h.Edit(func(d *dataset.Dataset) error {
		for i := range d.Curricula {
			if d.Curricula[i].ID == "curriculum_201" {
				d.Curricula[i].Nodes[0].Title = "Retitled upstream"
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	cfg.PDFTimeout, cfg.Revalidate = time.Nanosecond, fresh.Policy{Mode: fresh.Always}
	sum, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Failures) != 1 || !errors.Is(sum.Failures[0].Err, exporter.ErrPDFTimeout) || !sum.Failures[0].Kept ||
		sum.Failures[0].Export.CurriculumID != "curriculum_201" {
		t.Fatalf("failures %+v, want the timed-out PDF of curriculum_201, kept (written %d, reused %d, printed %d, from the cache %d)", sum.Failures, sum.Written, sum.Reused, sum.PDFsPrinted, sum.PDFsReused)
	}
	if sum.PDFsPrinted != 0 {
		t.Errorf("%d PDFs printed within a nanosecond", sum.PDFsPrinted)
	}
	after := files(t, out)
	var pdf201, json201 string
	for p := range before {
		if strings.Contains(p, "introduction-to-computer-science") && strings.HasSuffix(p, "handbook.pdf") {
			pdf201 = p
		}
		if strings.Contains(p, "introduction-to-computer-science") && strings.HasSuffix(p, "tree.json") {
			json201 = p
		}
	}
	if pdf201 == "" || json201 == "" {
		t.Fatalf("no handbook.pdf or tree.json of curriculum_201 in %v", slices.Collect(maps.Keys(before)))
	}
	if after[pdf201] != before[pdf201] {
		t.Errorf("%s changed: the timed-out export must keep its previous PDF", pdf201)
	}
	if !strings.Contains(after[json201], "Retitled upstream") {
		t.Errorf("%s is not this run's", json201)
	}
	mf, err := os.Open(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := output.ReadManifest(mf)
	mf.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Exports {
		want := output.StateOK
		if e.CurriculumID == "curriculum_201" {
			want = output.StateKept
			if !strings.Contains(e.Error, "printing took too long") {
				t.Errorf("manifest error %q does not say why", e.Error)
			}
		}
		if e.State != want {
			t.Errorf("%s: state %s, want %s", e.CurriculumID, e.State, want)
		}
	}
}

// TestCartridgeExport exports one curriculum's variants with the website
// and the cartridge: the manifest names each cartridge under the export's
// bundles, which is a zip with the manifest first, and the contents page
// links it.
func TestCartridgeExport(t *testing.T) {
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	out := filepath.Join(t.TempDir(), "out")
	cfg := exporter.Config{BaseURL: url, Token: token, Output: out, Limits: ratelimit.Limits{}, SiteURL: "https://curricula.example.org/",
		Generator: "curex test", Formats: []string{"html", "cartridge"}, Filter: fetch.Filter{Curricula: []string{"101"}, Locales: []string{"es"}}}
	if _, err := exporter.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	mf, err := os.Open(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := output.ReadManifest(mf)
	mf.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Exports) == 0 {
		t.Fatal("no export")
	}
	for _, e := range m.Exports {
		if e.Cartridge != filepath.ToSlash(filepath.Join("bundles", e.HTML[:strings.LastIndex(e.HTML, "/")], "course.imscc")) {
			t.Errorf("%s: cartridge %q", e.HTML, e.Cartridge)
			continue
		}
		data, err := os.ReadFile(filepath.Join(out, e.Cartridge))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil || len(zr.File) < 3 || zr.File[0].Name != "imsmanifest.xml" {
			t.Errorf("%s: not a cartridge (%v)", e.Cartridge, err)
		}
		toc, err := os.ReadFile(filepath.Join(out, e.HTML))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(toc, []byte(`course.imscc"`)) {
			t.Errorf("%s does not offer the cartridge", e.HTML)
		}
	}
}
