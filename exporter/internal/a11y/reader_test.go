package a11y_test

import (
	"context"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/curex/curex/exporter/internal/chromium"
)

// firstPage returns the first node page of the site, in the order of its
// paths, whose HTML holds every one of want, relative to site; "" when
// none does. Pages are picked by what they hold, not by name, so the tests
// and screenshots follow the sample dataset as it grows.
func firstPage(t *testing.T, site string, want ...string) string {
	t.Helper()
	var found string
	err := filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found != "" {
			return err
		}
		rel, _ := filepath.Rel(site, p)
		// Node pages: curriculum/variant/locale/node/index.html.
		if d.IsDir() || d.Name() != "index.html" || strings.Count(filepath.ToSlash(rel), "/") != 4 {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, w := range want {
			if !strings.Contains(string(data), w) {
				return nil
			}
		}
		found = filepath.ToSlash(rel)
		return fs.SkipAll
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// fileURL is the file:// URL of a page of the site.
func fileURL(site, page string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(site, filepath.FromSlash(page)))}).String()
}

// TestReaderTools drives the theme toggle, the copy buttons and the page's
// own table of contents in Chromium, from file:// (where the clipboard may
// be refused): the theme chosen survives a reload, a copy button reports
// what it did, every contents link leads to an element of the page, and
// the contents fold away on a phone.
func TestReaderTools(t *testing.T) {
	if testing.Short() {
		t.Skip("exports the sample site and runs a browser")
	}
	b := launch(t)
	site := exportSample(t, "html")
	page := firstPage(t, site, `class="on-this-page"`, "<pre")
	if page == "" {
		t.Fatal("no node page of the sample has both its own contents and a code block")
	}
	t.Logf("page: %s", page)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	eval := func(tab context.Context, js string) (string, error) {
		return chromedp.Run(tab, chromedp.Evaluate[string](js))
	}
	err := b.Visit(ctx, fileURL(site, page), chromium.ScreenshotOptions{}, func(tab context.Context) error {
		// The theme: light by the system's setting, dark once chosen, and
		// still dark after a reload.
		if err := until(tab, "the toggle is there", `document.querySelector("button.theme-toggle") !== null`); err != nil {
			return err
		}
		if got, _ := eval(tab, `document.querySelector("button.theme-toggle").getAttribute("aria-pressed")`); got != "false" {
			t.Errorf("toggle aria-pressed = %q in the light scheme, want false", got)
		}
		light, _ := eval(tab, `getComputedStyle(document.body).backgroundColor`)
		if _, err := chromedp.Run(tab, chromedp.Click("button.theme-toggle")); err != nil {
			return err
		}
		if err := until(tab, "the toggle is pressed", `document.querySelector("button.theme-toggle").getAttribute("aria-pressed") === "true"`); err != nil {
			return err
		}
		dark, _ := eval(tab, `getComputedStyle(document.body).backgroundColor`)
		if dark == light {
			t.Errorf("the background stays %s in the dark theme", dark)
		}
		if _, err := chromedp.Run(tab, chromedp.Reload()); err != nil {
			return err
		}
		if got, _ := eval(tab, `document.documentElement.getAttribute("data-theme") || ""`); got != "dark" {
			t.Errorf("after a reload, data-theme = %q at load, want dark", got)
		}
		if err := until(tab, "the toggle is pressed after the reload", `(document.querySelector("button.theme-toggle") || {getAttribute: () => ""}).getAttribute("aria-pressed") === "true"`); err != nil {
			return err
		}
		if got, _ := eval(tab, `getComputedStyle(document.body).backgroundColor`); got != dark {
			t.Errorf("after a reload the background is %s, want %s", got, dark)
		}
		if _, err := chromedp.Run(tab, chromedp.Click("button.theme-toggle")); err != nil {
			return err
		}
		// Back to the system's setting: the choice is forgotten.
		if err := until(tab, "the system's theme is back", `!document.documentElement.hasAttribute("data-theme")`); err != nil {
			return err
		}
		if got, _ := eval(tab, `localStorage.getItem("curex-theme") === null ? "" : localStorage.getItem("curex-theme")`); got != "" {
			t.Errorf("back to the system's theme, curex-theme = %q is still kept", got)
		}
		if got, _ := eval(tab, `getComputedStyle(document.body).backgroundColor`); got != light {
			t.Errorf("back to the system's theme, the background is %s, want %s", got, light)
		}

		// A copy button on a code block, and its announced outcome.
		if err := until(tab, "a copy button is there", `document.querySelector(".code-block > button.code-block__copy") !== null`); err != nil {
			return err
		}
		if _, err := chromedp.Run(tab, chromedp.Click(".code-block__copy")); err != nil {
			return err
		}
		if err := until(tab, "the copy is reported", `document.querySelector(".code-block__status").textContent !== ""`); err != nil {
			return err
		}
		got, _ := eval(tab, `document.querySelector(".code-block__status").textContent`)
		copied, _ := eval(tab, `document.body.dataset.copied`)
		selected, _ := eval(tab, `document.body.dataset.copySelect`)
		if got != copied && got != selected {
			t.Errorf("copy feedback %q, want %q or %q", got, copied, selected)
		}
		if live, _ := eval(tab, `document.querySelector(".code-block__status").getAttribute("aria-live")`); live != "polite" {
			t.Errorf("copy feedback aria-live = %q, want polite", live)
		}

		// Every link of the page's own contents leads to an element.
		n, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll(".on-this-page a").length`))
		if err != nil {
			return err
		}
		if n < 4 {
			t.Errorf("%d contents links, want 4 or more", n)
		}
		for i := range n {
			href, err := eval(tab, fmt.Sprintf(`document.querySelectorAll(".on-this-page a")[%d].getAttribute("href")`, i))
			if err != nil {
				return err
			}
			if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](fmt.Sprintf(`document.querySelectorAll(".on-this-page a")[%d].click(), true`, i))); err != nil {
				return err
			}
			cond := fmt.Sprintf(`location.hash !== "" && document.querySelector(":target") !== null && decodeURIComponent(location.hash) === decodeURIComponent(%q)`, href)
			if err := until(tab, "the link "+href+" is followed", cond); err != nil {
				t.Errorf("contents link %s: %v", href, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// On a phone, the contents start folded (site.js closes them).
	err = b.Visit(ctx, fileURL(site, page), chromium.ScreenshotOptions{Width: 390, Height: 844, Mobile: true}, func(tab context.Context) error {
		return until(tab, "the contents are folded on a phone", `document.getElementById("on-this-page").open === false`)
	})
	if err != nil {
		t.Fatal(err)
	}
}
