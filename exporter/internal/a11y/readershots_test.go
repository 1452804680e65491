package a11y_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/curex/curex/exporter/internal/chromium"
)

// readerShot is a screenshot of what a reader does on a page: the page is
// picked by what its HTML holds (firstPage), so a shot follows the sample
// as it grows, and is skipped, with a note in the log, while no page has
// it yet.
type readerShot struct {
	name string
	// want is what the page's HTML holds; prefer, when set, is tried
	// first, with want, to pick a page in English for the README.
	want, prefer []string
	// page, when set, is the page instead.
	page string
	// act prepares the picture: it scrolls, types, clicks and waits.
	act func(tab context.Context) error
}

// until waits for a JavaScript condition, polled at each animation frame,
// within the deadline of tab's context.
func until(tab context.Context, what, js string) error {
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(0))); err != nil {
		return fmt.Errorf("waiting until %s: %w", what, err)
	}
	return nil
}

// scrollTo brings the first element matching css to the middle of the
// viewport once it has loaded (an image: once decoded).
func scrollTo(css string) func(tab context.Context) error {
	return func(tab context.Context) error {
		sel := fmt.Sprintf("document.querySelector(%q)", css)
		if err := until(tab, css+" is there", sel+` !== null && (`+sel+`.complete !== false)`); err != nil {
			return err
		}
		_, err := chromedp.Run(tab, chromedp.Evaluate[bool](sel+`.scrollIntoView({block: "center"}), true`))
		return err
	}
}

// readerShots takes the README's pictures of what readers see and do:
// equations, a content image, search results, the page's own contents and
// the dark theme chosen with the toggle. Pages written by features still
// to come are looked up by their HTML; shots without a page are logged.
func readerShots(t *testing.T, b *chromium.Browser, site, dir string) {
	t.Helper()
	desktop := chromium.ScreenshotOptions{Width: 1280, Height: 800}
	search := "algebra-1/base/en/index.html"
	if _, err := os.Stat(filepath.Join(site, filepath.FromSlash(search))); err != nil {
		search = "algebra-1/texas/es/index.html"
	}
	shots := []readerShot{
		// A lesson's display equations: aligned, its columns right then
		// left aligned, in the math font (issue 25).
		{name: "node-equations", page: "algebra-1/base/en/alg-u2-l1/index.html", want: []string{"<math"}, act: scrollTo(".math-display")},
		{name: "node-image", want: []string{"assets/content/"}, prefer: []string{`<html lang="en"`}, act: scrollTo(`img[src*="assets/content/"]`)},
		{name: "search-results", page: search, act: searchFor("equations", "ecuaciones")},
		{name: "node-contents", want: []string{`class="on-this-page"`, "<pre"}, prefer: []string{`<html lang="en"`},
			act: scrollTo(".on-this-page")},
		{name: "node-dark-toggle", want: []string{`class="on-this-page"`, "<pre"}, prefer: []string{`<html lang="en"`}, act: chooseDark},
	}
	var skipped []string
	for _, s := range shots {
		page := s.page
		if page == "" && s.prefer != nil {
			page = firstPage(t, site, append(append([]string{}, s.want...), s.prefer...)...)
		}
		if page == "" {
			page = firstPage(t, site, s.want...)
		}
		if page == "" {
			t.Logf("%s: skipped, no page of the sample holds %q yet", s.name, s.want)
			skipped = append(skipped, s.name)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var png []byte
		err := b.Visit(ctx, fileURL(site, page), desktop, func(tab context.Context) error {
			if err := s.act(tab); err != nil {
				return err
			}
			var err error
			png, err = chromium.Capture(tab, false)
			return err
		})
		cancel()
		if err != nil {
			// The other shots are still taken.
			t.Errorf("%s (%s): %v", s.name, page, err)
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, s.name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %s", s.name, page)
	}
	if skipped != nil {
		t.Logf("skipped shots: %v (make screenshots again once the sample has them)", skipped)
	}
}

// searchFor types the first query into the page's search box and waits for
// a result link; with none, it tries the next query. It drives the box the
// way a reader does (the page's first input type="search"), so it does not
// depend on how results are drawn.
func searchFor(queries ...string) func(tab context.Context) error {
	return func(tab context.Context) error {
		input := `input[type=search]`
		if err := until(tab, "the search box is there", fmt.Sprintf("document.querySelector(%q) !== null", input)); err != nil {
			return err
		}
		// A result: a visible link inside the search form or in the
		// element the input controls.
		found := fmt.Sprintf(`(() => {
  const i = document.querySelector(%q);
  const out = i.form || i.closest("[role=search]");
  const ctl = i.getAttribute("aria-controls") && document.getElementById(i.getAttribute("aria-controls"));
  return [out, ctl].some(e => e && Array.from(e.querySelectorAll("a")).some(a => a.offsetParent !== null));
})()`, input)
		var last error
		for _, q := range queries {
			_, err := chromedp.Run(tab, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const i = document.querySelector(%q); i.value = ""; i.focus(); return true; })()`, input)))
			if err != nil {
				return err
			}
			if _, err := chromedp.Run(tab, chromedp.SendKeys(input, q)); err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(tab, 10*time.Second)
			last = until(ctx, "results for "+q, found)
			cancel()
			if last == nil {
				return nil
			}
		}
		return last
	}
}

// chooseDark presses the theme toggle into the dark theme, then forgets the
// choice, which the browser keeps for every file:// page.
func chooseDark(tab context.Context) error {
	if err := until(tab, "the toggle is there", `document.querySelector("button.theme-toggle") !== null`); err != nil {
		return err
	}
	if _, err := chromedp.Run(tab, chromedp.Click("button.theme-toggle")); err != nil {
		return err
	}
	if err := until(tab, "the dark theme is on", `document.documentElement.getAttribute("data-theme") === "dark"`); err != nil {
		return err
	}
	_, err := chromedp.Run(tab, chromedp.Evaluate[bool](`localStorage.removeItem("curex-theme"), true`))
	return err
}
