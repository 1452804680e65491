package a11y_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/curex/curex/exporter/internal/chromium"
)

// phone is the viewport of the phone tests and shots: 390 × 844 CSS
// pixels, as an iPhone 12 to 15 shows a page.
var phone = chromium.ScreenshotOptions{Width: 390, Height: 844, Mobile: true}

// phoneLessons are the lesson pages measured on a phone: one left to
// right, one right to left.
var phoneLessons = []struct{ name, page string }{
	{"ltr", "algebra-1/texas/es/alg-u1-l1/index.html"},
	{"rtl", "algebra-1/houston-isd/ar/alg-u1-l1/index.html"},
}

// phoneFacts is what a phone test reads off a page (phoneFactsJS).
type phoneFacts struct {
	// TitleTop is where the lesson's title starts, in percent of the
	// first screen's height.
	TitleTop float64 `json:"titleTop"`
	// ScrollWidth and Width are the page's width and the viewport's.
	ScrollWidth int `json:"scrollWidth"`
	Width       int `json:"width"`
	// Toggle is the navigation button: whether it shows, its
	// aria-expanded, the id it controls, and whether its middle is in
	// the inline-end half of the screen (right in LTR, left in RTL).
	Toggle       bool   `json:"toggle"`
	Expanded     string `json:"expanded"`
	Controls     string `json:"controls"`
	ToggleAtEnd  bool   `json:"toggleAtEnd"`
	DrawerShown  bool   `json:"drawerShown"`
	SearchShown  bool   `json:"searchShown"`
	CurrentShown bool   `json:"currentShown"`
	Focused      string `json:"focused"`
}

// phoneFactsJS reads phoneFacts in the page.
const phoneFactsJS = `(() => {
  const shown = e => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  const h1 = document.querySelector("h1");
  const b = document.querySelector(".nav-toggle");
  const rtl = getComputedStyle(document.documentElement).direction === "rtl";
  let atEnd = false;
  if (shown(b)) {
    const r = b.getBoundingClientRect(), mid = (r.left + r.right) / 2;
    atEnd = rtl ? mid < innerWidth / 2 : mid > innerWidth / 2;
  }
  const d = b && document.getElementById(b.getAttribute("aria-controls") || "");
  const a = document.activeElement;
  return {
    titleTop: h1 ? h1.getBoundingClientRect().top / innerHeight * 100 : -1,
    scrollWidth: document.documentElement.scrollWidth, width: innerWidth,
    toggle: shown(b), expanded: b ? b.getAttribute("aria-expanded") || "" : "",
    controls: b ? b.getAttribute("aria-controls") || "" : "", toggleAtEnd: atEnd,
    drawerShown: shown(d), searchShown: shown(document.querySelector("input[type=search]")),
    currentShown: shown(document.querySelector(".tree a[aria-current=page]")),
    focused: a ? (a.className || a.tagName) : "",
  };
})()`

// readPhone reads phoneFacts in tab.
func readPhone(tab context.Context) (phoneFacts, error) {
	return chromedp.Run(tab, chromedp.Evaluate[phoneFacts](phoneFactsJS))
}

// TestPhoneLessonTitleOnFirstScreen: issue 26 part 4. At 390 × 844 the
// site's title, search, theme toggle, two switchers, contents and
// breadcrumbs came before the lesson, whose title started 45 % down the
// first screen. On a lesson page, left to right and right to left, the
// title must start in the top quarter of the first screen, with the
// navigation behind one button at the inline end of the header: the
// button opens it (aria-expanded, aria-controls), Escape closes it and
// gives the focus back to the button. Without JavaScript the contents
// tree follows the lesson instead.
func TestPhoneLessonTitleOnFirstScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("exports the sample site and runs a browser")
	}
	b := launch(t)
	site := exportSample(t, "html")
	for _, l := range phoneLessons {
		t.Run(l.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			err := b.Visit(ctx, fileURL(site, l.page), phone, func(tab context.Context) error {
				f, err := readPhone(tab)
				if err != nil {
					return err
				}
				t.Logf("%s: the lesson's title starts %.1f %% down the first screen (%d px wide page)", l.page, f.TitleTop, f.ScrollWidth)
				if f.TitleTop < 0 || f.TitleTop > 25 {
					t.Errorf("the lesson's title starts %.1f %% down the first screen, want within the top 25 %%", f.TitleTop)
				}
				if f.ScrollWidth > phone.Width {
					t.Errorf("the page is %d px wide on a %d px screen", f.ScrollWidth, phone.Width)
				}
				if !f.Toggle || f.Expanded != "false" || f.Controls == "" {
					t.Fatalf("navigation button: shown %v, aria-expanded %q, aria-controls %q; want a closed button controlling the navigation", f.Toggle, f.Expanded, f.Controls)
				}
				if !f.ToggleAtEnd {
					t.Errorf("the navigation button is not at the inline end of the header (%s)", l.name)
				}
				if f.DrawerShown || f.SearchShown || f.CurrentShown {
					t.Errorf("closed navigation shows: drawer %v, search %v, contents %v", f.DrawerShown, f.SearchShown, f.CurrentShown)
				}
				if err := chromedp.Do(tab, chromedp.Click(".nav-toggle")); err != nil {
					return err
				}
				if f, err = readPhone(tab); err != nil {
					return err
				}
				if f.Expanded != "true" || !f.DrawerShown || !f.SearchShown || !f.CurrentShown {
					t.Errorf("opened navigation: aria-expanded %q, drawer %v, search %v, the current page in the contents %v; want all shown", f.Expanded, f.DrawerShown, f.SearchShown, f.CurrentShown)
				}
				if f.ScrollWidth > phone.Width {
					t.Errorf("with the navigation open the page is %d px wide on a %d px screen", f.ScrollWidth, phone.Width)
				}
				// Escape from inside the drawer closes it and brings the
				// focus back to the button.
				if err := chromedp.Do(tab, chromedp.Focus("#search-q"), chromedp.KeyEvent(kb.Escape)); err != nil {
					return err
				}
				if f, err = readPhone(tab); err != nil {
					return err
				}
				if f.Expanded != "false" || f.DrawerShown || f.Focused != "nav-toggle" {
					t.Errorf("after Escape: aria-expanded %q, drawer shown %v, focus on %q; want closed, focus on the button", f.Expanded, f.DrawerShown, f.Focused)
				}
				// The keyboard opens it again (Enter on the button).
				if err := chromedp.Do(tab, chromedp.KeyEvent(kb.Enter)); err != nil {
					return err
				}
				if f, err = readPhone(tab); err != nil {
					return err
				}
				if f.Expanded != "true" || !f.DrawerShown {
					t.Errorf("Enter on the button: aria-expanded %q, drawer shown %v; want it open", f.Expanded, f.DrawerShown)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	// Without JavaScript there is no button: the contents tree is reachable,
	// after the lesson.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := b.Visit(ctx, fileURL(site, phoneLessons[0].page), phone, func(tab context.Context) error {
		err := chromedp.Do(tab, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}), chromedp.Reload())
		if err != nil {
			return err
		}
		f, err := readPhone(tab)
		if err != nil {
			return err
		}
		if f.Toggle || !f.CurrentShown || !f.SearchShown {
			t.Errorf("without JavaScript: button shown %v, contents shown %v, search shown %v; want no button, the contents and search shown", f.Toggle, f.CurrentShown, f.SearchShown)
		}
		after, err := chromedp.Run(tab, chromedp.Evaluate[bool](`!!(document.querySelector("h1").compareDocumentPosition(document.querySelector(".tree a[aria-current=page]")) & Node.DOCUMENT_POSITION_FOLLOWING) && document.querySelector(".tree a[aria-current=page]").getBoundingClientRect().top > document.querySelector("h1").getBoundingClientRect().top`))
		if err != nil {
			return err
		}
		if !after {
			t.Error("without JavaScript the contents come before the lesson on a phone, want after it")
		}
		t.Logf("without JavaScript: the lesson's title starts %.1f %% down the first screen", f.TitleTop)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPhoneMatrixIsAList: issue 26 part 4. The variant × locale matrix of
// a curriculum scrolled sideways at 390 px with half its languages hidden.
// On a phone the landing page and the catalog must fit the screen's width,
// and every cell of the matrix must show within it.
func TestPhoneMatrixIsAList(t *testing.T) {
	if testing.Short() {
		t.Skip("exports the sample site and runs a browser")
	}
	b := launch(t)
	site := exportSample(t, "html")
	for _, page := range []string{"algebra-1/index.html", "introduction-to-computer-science/index.html", "index.html"} {
		t.Run(page, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			type fit struct {
				ScrollWidth int      `json:"scrollWidth"`
				Width       int      `json:"width"`
				Cells       int      `json:"cells"`
				Outside     []string `json:"outside"`
				WrapScrolls bool     `json:"wrapScrolls"`
			}
			err := b.Visit(ctx, fileURL(site, page), phone, func(tab context.Context) error {
				f, err := chromedp.Run(tab, chromedp.Evaluate[fit](`(() => {
  const cells = [...document.querySelectorAll(".matrix td")];
  const w = document.querySelector(".matrix-wrap");
  return {
    scrollWidth: document.documentElement.scrollWidth, width: innerWidth, cells: cells.length,
    outside: cells.filter(c => { const r = c.getBoundingClientRect(); return r.width === 0 || r.left < 0 || r.right > 390.5; }).map(c => c.textContent.trim().slice(0, 40)),
    wrapScrolls: !!w && w.scrollWidth > w.clientWidth,
  };
})()`))
				if err != nil {
					return err
				}
				t.Logf("%s: page %d px wide on %d px; %d cells, %d outside the screen", page, f.ScrollWidth, f.Width, f.Cells, len(f.Outside))
				// A page wider than the phone's 390 px widens the layout
				// viewport too (innerWidth), so 390 is the measure.
				if f.ScrollWidth > phone.Width || f.WrapScrolls {
					t.Errorf("the page is %d px wide on a %d px screen (matrix scrolls sideways: %v)", f.ScrollWidth, phone.Width, f.WrapScrolls)
				}
				if len(f.Outside) > 0 {
					t.Errorf("%d of %d cells of the matrix are not within the screen: %q", len(f.Outside), f.Cells, f.Outside)
				}
				if page != "index.html" && f.Cells == 0 {
					t.Error("no matrix on the landing page")
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// openDrawer presses the navigation's button of a page on a phone and waits
// for the drawer to open.
func openDrawer(tab context.Context) error {
	if err := until(tab, "the navigation button is there", `(b => b !== null && !b.hidden)(document.querySelector(".nav-toggle"))`); err != nil {
		return err
	}
	if err := chromedp.Do(tab, chromedp.Click(".nav-toggle")); err != nil {
		return err
	}
	return until(tab, "the drawer is open", `document.querySelector(".nav-toggle").getAttribute("aria-expanded") === "true"`)
}

// phoneShots takes the README's pictures of the site on a phone that need
// a reader's action: the drawer open on a lesson, left to right and right
// to left, and a curriculum's matrix as a list. (TestScreenshots takes the
// lesson pages themselves.)
func phoneShots(t *testing.T, b *chromium.Browser, site, dir string) {
	t.Helper()
	shot := phone
	shot.Scale = 2
	for _, s := range []struct {
		name, page string
		act        func(tab context.Context) error
	}{
		{"node-phone-drawer", phoneLessons[0].page, openDrawer},
		{"node-phone-drawer-rtl", phoneLessons[1].page, openDrawer},
		{"landing-phone", "algebra-1/index.html", func(context.Context) error { return nil }},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		err := b.Visit(ctx, fileURL(site, s.page), shot, func(tab context.Context) error {
			if err := s.act(tab); err != nil {
				return err
			}
			png, err := chromium.Capture(tab, false)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, s.name+".png"), png, 0o644)
		})
		cancel()
		if err != nil {
			t.Errorf("%s (%s): %v", s.name, s.page, err)
		}
	}
}
