package chromium

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// gate holds every request of one tab until its Access decides: the CDP
// Fetch domain pauses each request (redirects included: each hop is a
// request of its own), and the gate continues it, answers it with
// Access.Remote's bytes, or fails it.
type gate struct {
	access Access
	log    *slog.Logger
	wg     sync.WaitGroup

	mu sync.Mutex
	// told holds the URLs refused already, so each is logged once.
	told map[string]bool
	// refused counts the requests refused.
	refused int
}

// open enables interception in the tab, before anything loads in it, and
// handles the paused requests until the tab ends. Call wait after the tab
// is closed.
func (g *gate) open(tab context.Context) error {
	events := chromedp.Events(tab, fetch.RequestPaused) // subscribed before Enable
	_, err := chromedp.Call(tab, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*"}}})
	if err != nil {
		return fmt.Errorf("request interception: %w", err)
	}
	g.wg.Go(func() {
		for ev, err := range events {
			if err != nil {
				return // the tab ended
			}
			g.wg.Go(func() { g.handle(tab, ev) })
		}
	})
	return nil
}

// wait waits until the gate's goroutines end, which they do when the tab's
// context ends.
func (g *gate) wait() { g.wg.Wait() }

// handle answers one paused request.
func (g *gate) handle(tab context.Context, ev fetch.EventRequestPaused) {
	raw := ""
	if ev.Request != nil {
		raw = ev.Request.URL
		if ev.Request.URLFragment != "" {
			raw += ev.Request.URLFragment
		}
	}
	verdict, why := g.access.Decide(raw)
	var err error
	switch verdict {
	case Load:
		_, err = chromedp.Call(tab, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
	case Fetch:
		var body []byte
		body, why = g.access.Remote(tab, raw)
		if why != nil {
			break
		}
		_, err = chromedp.Call(tab, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: 200, Body: body,
			ResponseHeaders: []*fetch.HeaderEntry{{Name: "Cache-Control", Value: "no-store"}}})
	}
	if why != nil {
		g.refuse(raw, ev.ResourceType, why)
		_, err = chromedp.Call(tab, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
	}
	if err != nil && tab.Err() == nil {
		g.log.Debug("request interception", "err", err)
	}
}

// refuse counts a refused request and logs its URL, once per URL.
func (g *gate) refuse(raw string, kind network.ResourceType, why error) {
	g.mu.Lock()
	g.refused++
	first := !g.told[raw]
	if g.told == nil {
		g.told = map[string]bool{}
	}
	g.told[raw] = true
	g.mu.Unlock()
	if first {
		g.log.Warn("chromium: request refused", "url", shortURL(raw), "type", string(kind), "why", why.Error())
	}
}

// count returns how many requests the gate refused.
func (g *gate) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.refused
}
