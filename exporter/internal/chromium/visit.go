package chromium

import (
	"context"

	"github.com/chromedp/chromedp"
)

// Visit loads url in a new tab set up as o says (viewport, scale, phone,
// color scheme; FullPage is not used), waits for its load event and its
// web fonts, then calls fn with the tab's chromedp context, in which fn
// may click, type, evaluate and wait for conditions with chromedp actions,
// and take pictures with [Capture]. The tab closes when fn returns; the
// error of fn is Visit's, wrapped with the URL.
func (b *Browser) Visit(ctx context.Context, url string, o ScreenshotOptions, fn func(tab context.Context) error) error {
	v := viewport{Width: o.Width, Height: o.Height, Scale: o.Scale, Mobile: o.Mobile, Dark: o.Dark}
	return b.inTab(ctx, "visit", url, accessOf(url), func(tab context.Context) error {
		if err := v.apply(tab); err != nil {
			return err
		}
		if err := load(tab, url); err != nil {
			return err
		}
		return fn(tab)
	})
}

// Capture returns a PNG of the viewport of a tab that [Browser.Visit]
// opened, or of its whole page when fullPage is set.
func Capture(tab context.Context, fullPage bool) ([]byte, error) {
	return chromedp.Run(tab, capture(fullPage))
}
