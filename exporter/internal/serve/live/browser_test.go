package live_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/serve"
	"github.com/curex/curex/exporter/internal/serve/live"
)

// site writes a one-page site whose page says word.
func site(t *testing.T, word string) *serve.Handler {
	t.Helper()
	dir := t.TempDir()
	page := `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>` + word + `</title></head><body><p id="v">` + word + `</p></body></html>`
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := serve.New(dir, serve.Options{Inject: live.Snippet})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestOverlayAndReloadInChromium opens a page in Chromium under the site's
// Content-Security-Policy (serve sends it): a failed build shows over the
// page, styled by live.css (so script, style sheet and event stream all
// passed the policy), and a published build reloads the page. It waits on
// the page's state, never on time. Skipped with -short or without
// Chromium, unless CUREX_REQUIRE_TOOLS=1.
func TestOverlayAndReloadInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no Chromium")
	}
	b, err := chromium.Launch(t.Context(), chromium.Options{})
	if err != nil {
		if errors.Is(err, chromium.ErrNoBrowser) && os.Getenv("CUREX_REQUIRE_TOOLS") != "1" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	defer b.Close()
	s := live.New()
	s.Publish(site(t, "one"))
	srv := httptest.NewServer(s)
	defer srv.Close()
	defer s.Close()

	err = b.Run(t.Context(), srv.URL+"/", func(tab context.Context) error {
		s.Fail("template: theme/node.html:3: boom")
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelector("#curex-live-overlay pre")?.textContent === "template: theme/node.html:3: boom"`, chromedp.WithPollingTimeout(0))); err != nil {
			return err
		}
		pos, err := chromedp.Run(tab, chromedp.Evaluate[string](`getComputedStyle(document.getElementById("curex-live-overlay")).position`))
		if err != nil {
			return err
		}
		if pos != "fixed" {
			t.Errorf("overlay position %q: live.css did not apply", pos)
		}
		s.Publish(site(t, "two"))
		// The reload destroys the document the poll runs in: poll
		// again in the new one.
		for range 5 {
			_, err = chromedp.Run(tab, chromedp.Poll[bool](`document.getElementById("v")?.textContent === "two" && !document.getElementById("curex-live-overlay")`, chromedp.WithPollingTimeout(0)))
			if err == nil || !navigated(err) {
				return err
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// navigated tells whether err is DevTools saying the document a call ran
// in went away (a reload).
func navigated(err error) bool {
	for _, m := range []string{"navigated", "context was destroyed", "Cannot find context"} {
		if strings.Contains(err.Error(), m) {
			return true
		}
	}
	return false
}
