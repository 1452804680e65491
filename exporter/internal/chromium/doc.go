// Package chromium drives one headless Chromium through the Chrome DevTools
// Protocol (chromedp) to print HTML files to PDF, to take screenshots, to
// run the axe-core accessibility checker on a page, and to drive a page
// step by step in tests ([Browser.Visit], [Capture], [AxeTab], and
// [ColorScheme] to switch a loaded page between light and dark).
//
// Launch starts the browser once; every call of [Browser.PDF],
// [Browser.Screenshot], [Browser.Axe] and [Browser.Visit] opens a tab of its
// own and closes it,
// so calls can run from several goroutines at once. The context of a call
// limits that call only: a deadline or a cancellation closes its tab and
// leaves the browser running. Give each call a deadline: a page that never
// finishes loading holds its call until ctx ends. [Browser.Close] stops the
// browser and removes its temporary profile.
//
// Every tab passes each request through one gate before it loads
// ([Access]): the CDP Fetch domain pauses it (redirect hops and frames
// included) and [Access.Decide] lets it load, answers it with
// [Access.Remote]'s bytes, or fails it. A PDF reads its own folder
// ([PDFOptions.Access]); Run, Visit, Screenshot and Axe, which tests use on
// pages curex wrote, read local files and the page's own origin only.
//
// The browser is Debian's chromium package (apt-get install chromium), or the
// program that CUREX_CHROMIUM names. Without one, Launch returns an error that
// wraps [ErrNoBrowser].
package chromium
