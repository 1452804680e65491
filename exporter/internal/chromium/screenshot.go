package chromium

import (
	"context"
	"fmt"
	"math"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Default viewport of Screenshot and Axe.
const (
	DefaultWidth  = 1280
	DefaultHeight = 800
)

// ScreenshotOptions configures [Browser.Screenshot]. The zero value takes a
// 1280×800 screenshot in the light color scheme.
type ScreenshotOptions struct {
	// Width and Height are the viewport in CSS pixels (default 1280×800).
	Width, Height int
	// Scale is the device scale factor (default 1): 2 gives an image twice
	// as wide and high.
	Scale float64
	// Mobile emulates a phone: the page's viewport meta tag applies and
	// scrollbars overlay the content.
	Mobile bool
	// Dark sets prefers-color-scheme: dark; otherwise light.
	Dark bool
	// FullPage captures the whole page, not only the viewport: the image
	// is then as high as the page.
	FullPage bool
}

// Screenshot loads url (file:// or http://) in a viewport set by o, waits for
// its load event and its web fonts, and returns a PNG.
func (b *Browser) Screenshot(ctx context.Context, url string, o ScreenshotOptions) ([]byte, error) {
	v := viewport{Width: o.Width, Height: o.Height, Scale: o.Scale, Mobile: o.Mobile, Dark: o.Dark}
	var png []byte
	err := b.inTab(ctx, "screenshot", url, accessOf(url), func(tab context.Context) error {
		if err := v.apply(tab); err != nil {
			return err
		}
		if err := load(tab, url); err != nil {
			return err
		}
		var err error
		png, err = chromedp.Run(tab, capture(o.FullPage))
		return err
	})
	return png, err
}

// capture takes a PNG of the viewport, or of the whole page.
func capture(fullPage bool) chromedp.Action[[]byte] {
	return func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		p := page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, FromSurface: new(true)}
		if fullPage {
			m, err := cdp.Call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
			if err != nil {
				return nil, err
			}
			if m.CSSContentSize == nil || m.CSSLayoutViewport == nil {
				return nil, fmt.Errorf("no layout metrics")
			}
			w := max(float64(m.CSSLayoutViewport.ClientWidth), math.Ceil(m.CSSContentSize.Width))
			h := max(float64(m.CSSLayoutViewport.ClientHeight), math.Ceil(m.CSSContentSize.Height))
			p.CaptureBeyondViewport = new(true)
			p.Clip = &page.Viewport{X: 0, Y: 0, Width: w, Height: h, Scale: 1}
		}
		res, err := cdp.Call(ctx, t, page.CaptureScreenshot, p)
		if err != nil {
			return nil, err
		}
		return res.Data, nil
	}
}

// viewport is the emulated device of a tab.
type viewport struct {
	Width, Height int
	Scale         float64
	Mobile, Dark  bool
}

// apply sets the device metrics and the color scheme of the tab. Both hold
// for the documents the tab loads afterwards.
func (v viewport) apply(tab context.Context) error {
	w, h, s := v.Width, v.Height, v.Scale
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	if s <= 0 {
		s = 1
	}
	err := chromedp.Do(tab, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: int64(w), Height: int64(h), DeviceScaleFactor: s, Mobile: v.Mobile,
		})
		if err != nil {
			return fmt.Errorf("viewport: %w", err)
		}
		return nil
	}))
	if err != nil {
		return err
	}
	return ColorScheme(tab, v.Dark)
}

// ColorScheme sets prefers-color-scheme (dark, or light) in a tab: before a
// page loads, or on the page [Browser.Visit] opened, which restyles as it
// would when the reader's system changes its scheme (its media queries and
// matchMedia listeners see the change). It holds for the documents the tab
// loads afterwards.
func ColorScheme(tab context.Context, dark bool) error {
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	return chromedp.Do(tab, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		if err != nil {
			return fmt.Errorf("color scheme: %w", err)
		}
		return nil
	}))
}
