package chromium

import "context"

// Run loads url (file:// or http://) in a new tab with the default
// viewport (1280×800, light color scheme, as [Browser.Screenshot] and
// [Browser.Axe] with zero options: a desktop, where the site's navigation
// is not folded into its phone drawer), waits for its load event and web
// fonts, and calls fn with the tab's chromedp context, on which fn runs
// chromedp actions: typing, polling, evaluating scripts. The tab closes
// when fn returns; ctx bounds the whole call. It is for tests and
// benchmarks that drive a page curex wrote.
func (b *Browser) Run(ctx context.Context, url string, fn func(tab context.Context) error) error {
	return b.inTab(ctx, "run", url, accessOf(url), func(tab context.Context) error {
		if err := (viewport{}).apply(tab); err != nil {
			return err
		}
		if err := load(tab, url); err != nil {
			return err
		}
		return fn(tab)
	})
}
