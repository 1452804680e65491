package chromium_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/curex/curex/exporter/internal/chromium"
)

// shared is the one browser of the test binary (launching takes about a
// second); TestMain closes it.
var shared struct {
	once sync.Once
	b    *chromium.Browser
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.b != nil {
		if err := shared.b.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "closing the browser:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// requireTools reports whether a missing browser or tool fails the tests
// instead of skipping them (CI sets CUREX_REQUIRE_TOOLS=1).
func requireTools() bool { return os.Getenv("CUREX_REQUIRE_TOOLS") == "1" }

// browser returns the shared browser, launched on first use, or skips the
// test when there is no Chromium, or with -short (make check), which runs
// no external program.
func browser(t testing.TB) *chromium.Browser {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no Chromium (make test runs it)")
	}
	shared.once.Do(func() {
		shared.b, shared.err = chromium.Launch(context.Background(), chromium.Options{})
	})
	if shared.err != nil {
		if errors.Is(shared.err, chromium.ErrNoBrowser) && !requireTools() {
			t.Skip(shared.err)
		}
		t.Fatal(shared.err)
	}
	return shared.b
}

// tool returns the path of a poppler-utils program, or skips the (sub)test.
func tool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if requireTools() {
			t.Fatalf("%s is not on PATH: apt-get install poppler-utils", name)
		}
		t.Skipf("%s is not on PATH (poppler-utils)", name)
	}
	return p
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// page writes an HTML document into a temporary folder and returns its path.
func page(t *testing.T, html string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "index.html")
	if err := os.WriteFile(p, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func fileURL(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }

func ctxFor(t *testing.T) context.Context {
	t.Helper()
	// A generous per-document limit, on the call's context: a hung page
	// fails the test instead of the whole binary's timeout.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func TestLaunchWithoutBrowser(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-chromium")
	check := func(t *testing.T, o chromium.Options) {
		t.Helper()
		b, err := chromium.Launch(context.Background(), o)
		if err == nil {
			b.Close()
			t.Fatal("Launch found a browser")
		}
		if !errors.Is(err, chromium.ErrNoBrowser) {
			t.Fatalf("err = %v, want ErrNoBrowser", err)
		}
		for _, want := range []string{"apt-get install chromium", "Debian's chromium package", "CUREX_CHROMIUM"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
	}
	t.Run("ExecPath", func(t *testing.T) {
		check(t, chromium.Options{ExecPath: missing})
	})
	t.Run("CUREX_CHROMIUM", func(t *testing.T) {
		t.Setenv(chromium.EnvChromium, missing)
		check(t, chromium.Options{})
	})
	t.Run("PATH", func(t *testing.T) {
		t.Setenv(chromium.EnvChromium, "")
		t.Setenv("PATH", t.TempDir())
		check(t, chromium.Options{})
	})
}

func TestLaunchCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b, err := chromium.Launch(ctx, chromium.Options{})
	if errors.Is(err, chromium.ErrNoBrowser) && !requireTools() {
		t.Skip(err)
	}
	if err == nil {
		b.Close()
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

const handbook = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Handbook</title>
<style>
  body { font: 12pt serif; }
  section + section { break-before: page; }
</style></head>
<body>
<section><h1>Chapter One</h1><p>The first page.</p></section>
<section><h1>Chapter Two</h1><h2>Section Two A</h2><p>The second page.</p></section>
<section><h1>Chapter Three</h1><p>The third page.</p></section>
</body></html>`

func TestPDF(t *testing.T) {
	b := browser(t)
	src := page(t, handbook)
	pdf, err := b.PDF(ctxFor(t), src, chromium.PDFOptions{Outline: true})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", pdf[:min(len(pdf), 16)])
	}
	if !bytes.Contains(pdf, []byte("/Outlines")) {
		t.Error("no /Outlines in the PDF")
	}
	file := filepath.Join(t.TempDir(), "handbook.pdf")
	if err := os.WriteFile(file, pdf, 0o644); err != nil {
		t.Fatal(err)
	}

	t.Run("pdfinfo", func(t *testing.T) {
		info := run(t, tool(t, "pdfinfo"), file)
		for _, want := range []string{"Pages:           3", "(A4)", "Tagged:          yes"} {
			if !strings.Contains(info, want) {
				t.Errorf("pdfinfo does not say %q:\n%s", want, info)
			}
		}
	})
	t.Run("pdftotext", func(t *testing.T) {
		// pdftotext drops the spaces of the small footer: "1/3".
		text := run(t, tool(t, "pdftotext"), "-layout", file, "-")
		pages := strings.Split(strings.ReplaceAll(text, " / ", "/"), "\f")
		for i, want := range [][]string{
			{"Chapter One", "1/3"},
			{"Chapter Two", "Section Two A", "2/3"},
			{"Chapter Three", "3/3"},
		} {
			for _, w := range want {
				if !strings.Contains(pages[i], w) {
					t.Errorf("page %d does not contain %q:\n%s", i+1, w, pages[i])
				}
			}
		}
	})
	t.Run("outline", func(t *testing.T) {
		xml := run(t, tool(t, "pdftohtml"), "-xml", "-i", "-stdout", "-q", file)
		for _, want := range []string{"<outline>", ">Chapter One<", ">Chapter Two<", ">Section Two A<", ">Chapter Three<"} {
			if !strings.Contains(xml, want) {
				t.Errorf("the outline lacks %q:\n%s", want, xml)
			}
		}
	})
}

func TestPDFOptions(t *testing.T) {
	b := browser(t)
	tests := []struct {
		name     string
		html     string
		o        chromium.PDFOptions
		info     string // in pdfinfo's output
		text     string // in pdftotext's output; "" for none
		noText   string // not in pdftotext's output
		outlines bool
	}{
		{name: "letter", html: handbook, o: chromium.PDFOptions{Paper: chromium.PaperLetter}, info: "612 x 792 pts (letter)", text: "1/3"},
		{name: "css page size wins", html: strings.Replace(handbook, "<style>", "<style>@page { size: A5; }", 1),
			o: chromium.PDFOptions{Paper: chromium.PaperLetter}, info: "(A5)"},
		{name: "own footer", html: handbook, o: chromium.PDFOptions{FooterTemplate: `<div style="font-size:8px">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>`},
			info: "Pages:           3", text: "Page 2 of 3", noText: "2/3"},
		{name: "no footer", html: handbook, o: chromium.PDFOptions{NoHeaderFooter: true}, info: "Pages:           3", noText: "1/3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pdf, err := b.PDF(ctxFor(t), page(t, tt.html), tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(pdf, []byte("/Outlines")) != tt.outlines {
				t.Errorf("/Outlines present = %t, want %t", !tt.outlines, tt.outlines)
			}
			file := filepath.Join(t.TempDir(), "out.pdf")
			if err := os.WriteFile(file, pdf, 0o644); err != nil {
				t.Fatal(err)
			}
			if info := run(t, tool(t, "pdfinfo"), file); !strings.Contains(info, tt.info) {
				t.Errorf("pdfinfo does not say %q:\n%s", tt.info, info)
			}
			text := run(t, tool(t, "pdftotext"), file, "-")
			if tt.text != "" && !strings.Contains(text, tt.text) {
				t.Errorf("text lacks %q:\n%s", tt.text, text)
			}
			if tt.noText != "" && strings.Contains(text, tt.noText) {
				t.Errorf("text has %q:\n%s", tt.noText, text)
			}
		})
	}
}

func TestPDFErrors(t *testing.T) {
	b := browser(t)
	missing := filepath.Join(t.TempDir(), "missing.html")
	if _, err := b.PDF(ctxFor(t), missing, chromium.PDFOptions{}); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: err = %v", err)
	}
	if _, err := b.PDF(ctxFor(t), page(t, handbook), chromium.PDFOptions{Paper: "a0"}); err == nil || !strings.Contains(err.Error(), `"a0"`) {
		t.Errorf("unknown paper: err = %v", err)
	}
}

const schemes = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Schemes</title>
<style>
  body { margin: 0; background: #ffffff; color: #111111; }
  @media (prefers-color-scheme: dark) { body { background: #000000; color: #eeeeee; } }
  .tall { height: 2000px; }
</style></head>
<body><h1>Hello</h1><div class="tall"></div></body></html>`

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	return img
}

func colors(img image.Image) int {
	seen := map[color.RGBA]bool{}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			seen[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)] = true
		}
	}
	return len(seen)
}

func TestScreenshot(t *testing.T) {
	b := browser(t)
	u := fileURL(page(t, schemes))
	tests := []struct {
		name string
		o    chromium.ScreenshotOptions
		w, h int
	}{
		{"default", chromium.ScreenshotOptions{}, chromium.DefaultWidth, chromium.DefaultHeight},
		{"viewport", chromium.ScreenshotOptions{Width: 400, Height: 300}, 400, 300},
		{"scale 2", chromium.ScreenshotOptions{Width: 400, Height: 300, Scale: 2}, 800, 600},
		{"phone", chromium.ScreenshotOptions{Width: 390, Height: 844, Scale: 1, Mobile: true}, 390, 844},
		{"full page", chromium.ScreenshotOptions{Width: 400, Height: 300, FullPage: true}, 400, -2000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img := decode(t, mustScreenshot(t, b, u, tt.o))
			w, h := img.Bounds().Dx(), img.Bounds().Dy()
			if w != tt.w || (tt.h > 0 && h != tt.h) || (tt.h < 0 && h < -tt.h) {
				t.Errorf("image is %d×%d, want %d×%d", w, h, tt.w, tt.h)
			}
			if n := colors(img); n < 2 {
				t.Errorf("blank image: %d colour", n)
			}
		})
	}
}

func mustScreenshot(t *testing.T, b *chromium.Browser, u string, o chromium.ScreenshotOptions) []byte {
	t.Helper()
	png, err := b.Screenshot(ctxFor(t), u, o)
	if err != nil {
		t.Fatal(err)
	}
	return png
}

func TestScreenshotDark(t *testing.T) {
	b := browser(t)
	u := fileURL(page(t, schemes))
	o := chromium.ScreenshotOptions{Width: 400, Height: 300}
	light := decode(t, mustScreenshot(t, b, u, o))
	o.Dark = true
	dark := decode(t, mustScreenshot(t, b, u, o))
	white, black := color.RGBA{255, 255, 255, 255}, color.RGBA{0, 0, 0, 255}
	at := func(img image.Image) color.RGBA { return color.RGBAModel.Convert(img.At(390, 290)).(color.RGBA) }
	if got := at(light); got != white {
		t.Errorf("light background = %v, want %v", got, white)
	}
	if got := at(dark); got != black {
		t.Errorf("dark background = %v, want %v", got, black)
	}
}

const axePage = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width"><title>Axe</title></head>
<body><main><p id="x">Checked</p></main></body></html>`

func TestAxe(t *testing.T) {
	b := browser(t)
	stub, err := os.ReadFile(filepath.Join("testdata", "axe-stub.js"))
	if err != nil {
		t.Fatal(err)
	}
	u := fileURL(page(t, axePage))
	vs, err := b.Axe(ctxFor(t), u, stub, chromium.AxeOptions{Tags: []string{"wcag2a", "wcag2aa"}, Width: 390, Height: 700, Mobile: true, Dark: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []chromium.Violation{{
		ID: "stub-rule", Impact: "serious", Description: "dark=true width=390 injections=1", Help: "Stub help",
		HelpURL: "https://example.invalid/stub-rule", Tags: []string{"wcag2a", "wcag2aa"},
		Nodes: []chromium.ViolationNode{
			{Target: []string{"#x"}, HTML: `<p id="x">Checked</p>`, FailureSummary: "Fix any of the following:\n  the stub"},
			{Target: []string{"iframe #y"}, HTML: `<b id="y">`},
		},
	}}
	if fmt.Sprintf("%#v", vs) != fmt.Sprintf("%#v", want) {
		t.Errorf("violations:\n got %#v\nwant %#v", vs, want)
	}
	s := vs[0].String()
	for _, w := range []string{"stub-rule (serious): Stub help", "#x", `<p id="x">`, "the stub"} {
		if !strings.Contains(s, w) {
			t.Errorf("String() lacks %q:\n%s", w, s)
		}
	}

	vs, err = b.Axe(ctxFor(t), u, stub, chromium.AxeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := vs[0].Description; got != "dark=false width=1280 injections=1" {
		t.Errorf("default emulation: %s", got)
	}

	if _, err := b.Axe(ctxFor(t), u, []byte("var notAxe = 1;"), chromium.AxeOptions{}); err == nil || !strings.Contains(err.Error(), "axe.run") {
		t.Errorf("a source without axe.run: err = %v", err)
	}
}

// TestAxeTabOnOneLoad: AxeTab checks the page a Visit loaded as it is
// now, in the color scheme ColorScheme last set (the page restyled, its
// media queries matching), injecting axe-core once per document.
func TestAxeTabOnOneLoad(t *testing.T) {
	b := browser(t)
	stub, err := os.ReadFile(filepath.Join("testdata", "axe-stub.js"))
	if err != nil {
		t.Fatal(err)
	}
	u := fileURL(page(t, strings.Replace(schemes, "<h1>", `<p id="x">Checked</p><h1>`, 1)))
	var got []string
	err = b.Visit(ctxFor(t), u, chromium.ScreenshotOptions{Width: 400, Height: 300}, func(tab context.Context) error {
		for _, dark := range []bool{false, true, false} {
			if err := chromium.ColorScheme(tab, dark); err != nil {
				return err
			}
			vs, err := chromium.AxeTab(tab, stub, chromium.AxeOptions{})
			if err != nil {
				return err
			}
			bg, err := chromedp.Run(tab, chromedp.Evaluate[string]("getComputedStyle(document.body).backgroundColor"))
			if err != nil {
				return err
			}
			got = append(got, vs[0].Description+" "+bg)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"dark=false width=400 injections=1 rgb(255, 255, 255)",
		"dark=true width=400 injections=1 rgb(0, 0, 0)",
		"dark=false width=400 injections=1 rgb(255, 255, 255)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("checks on one load:\n got %q\nwant %q", got, want)
	}
}

// hanging serves a page that never finishes loading, and tells on started
// when a request arrives.
func hanging(t *testing.T) (url string, started <-chan struct{}) {
	t.Helper()
	ch := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case ch <- struct{}{}:
		default:
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs first
	return srv.URL, ch
}

func TestCancel(t *testing.T) {
	b := browser(t)
	t.Run("before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := b.PDF(ctx, page(t, handbook), chromium.PDFOptions{}); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
	t.Run("while loading", func(t *testing.T) {
		u, started := hanging(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-started:
				cancel()
			case <-ctx.Done():
			}
		}()
		if _, err := b.Screenshot(ctx, u, chromium.ScreenshotOptions{}); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		u, _ := hanging(t)
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		if _, err := b.Axe(ctx, u, []byte("window.axe={run:async()=>({violations:[]})}"), chromium.AxeOptions{}); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want context.DeadlineExceeded", err)
		}
	})
	t.Run("browser still works", func(t *testing.T) {
		mustScreenshot(t, b, fileURL(page(t, schemes)), chromium.ScreenshotOptions{Width: 200, Height: 100})
	})
}

func TestConcurrent(t *testing.T) {
	b := browser(t)
	src := page(t, handbook)
	u := fileURL(page(t, schemes))
	ctx := ctxFor(t)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				_, err = b.PDF(ctx, src, chromium.PDFOptions{})
			} else {
				_, err = b.Screenshot(ctx, u, chromium.ScreenshotOptions{Width: 300 + i, Height: 200, Dark: i%3 == 0})
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

// TestClose launches a browser of its own: Close removes the profile folder,
// later calls fail with ErrClosed, and a second Close is harmless.
func TestClose(t *testing.T) {
	browser(t) // skips without Chromium
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	b, err := chromium.Launch(context.Background(), chromium.Options{})
	if err != nil {
		t.Fatal(err)
	}
	profiles := func() []string {
		entries, err := os.ReadDir(tmp)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			if e.IsDir() && strings.HasPrefix(e.Name(), "chromedp-runner") {
				names = append(names, e.Name())
			}
		}
		return names
	}
	if len(profiles()) != 1 {
		t.Fatalf("profile folders while running: %v", profiles())
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if left := profiles(); len(left) != 0 {
		t.Errorf("left after Close: %v", left)
	}
	if _, err := b.Screenshot(context.Background(), fileURL(page(t, schemes)), chromium.ScreenshotOptions{}); !errors.Is(err, chromium.ErrClosed) {
		t.Errorf("after Close: err = %v, want ErrClosed", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if p := b.Path(); !filepath.IsAbs(p) {
		t.Errorf("Path() = %q, want an absolute path", p)
	}
}

// TestPDFDate checks that PDFOptions.Date replaces Chromium's clock in the
// document information, so a document prints to the same bytes any day.
func TestPDFDate(t *testing.T) {
	b := browser(t)
	path := filepath.Join(t.TempDir(), "doc.html")
	if err := os.WriteFile(path, []byte("<!doctype html><html lang=en><title>Dated</title><h1>Dated</h1>"), 0o600); err != nil {
		t.Fatal(err)
	}
	date := time.Date(2026, 2, 1, 12, 30, 0, 0, time.UTC)
	pdf, err := b.PDF(context.Background(), path, chromium.PDFOptions{Date: date})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"/CreationDate", "/ModDate"} {
		if !bytes.Contains(pdf, []byte(key+" (D:20260201123000+00'00')")) {
			t.Errorf("%s is not the given date", key)
		}
	}
	if _, err := exec.LookPath("pdfinfo"); err != nil {
		return
	}
	// The offsets still hold: poppler reads the file without complaint.
	file := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(file, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdfinfo", "-isodates", file).CombinedOutput()
	if err != nil || strings.Contains(string(out), "Error") || !strings.Contains(string(out), "2026-02-01T12:30:00") {
		t.Errorf("pdfinfo: %v\n%s", err, out)
	}
}

func TestVersion(t *testing.T) {
	v := browser(t).Version()
	// "HeadlessChrome/148.0.7778.96 @abc...": a product and a revision.
	product, revision, ok := strings.Cut(v, " ")
	if !ok || !strings.Contains(product, "/") || revision == "" {
		t.Errorf("Version() = %q, want a product/version and a revision", v)
	}
}
