package chromium

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/chromedp/chromedp"
)

// AxeOptions configures [Browser.Axe]. The zero value runs axe-core's
// default rules on a 1280×800 viewport in the light color scheme.
type AxeOptions struct {
	// Tags runs only the rules with one of these tags, for example
	// "wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice". Empty
	// runs axe-core's default set.
	Tags []string
	// DisableRules turns these rule ids off.
	DisableRules []string
	// Width and Height are the viewport in CSS pixels (default 1280×800).
	Width, Height int
	// Mobile emulates a phone (viewport meta tag, overlay scrollbars).
	Mobile bool
	// Dark sets prefers-color-scheme: dark, so that color contrast is
	// checked in the dark theme; otherwise light.
	Dark bool
}

// Violation is one axe-core rule that failed, with the elements that fail it.
type Violation struct {
	// ID is the rule id, such as "color-contrast".
	ID string `json:"id"`
	// Impact is "minor", "moderate", "serious" or "critical".
	Impact      string   `json:"impact"`
	Description string   `json:"description"`
	Help        string   `json:"help"`
	HelpURL     string   `json:"helpUrl"`
	Tags        []string `json:"tags"`
	// Nodes are the failing elements.
	Nodes []ViolationNode `json:"nodes"`
}

// ViolationNode is an element that fails a rule.
type ViolationNode struct {
	// Target holds the CSS selectors of the element, one for each frame or
	// shadow root on the way to it (usually one).
	Target []string `json:"target"`
	// HTML is the element's opening tag, as axe-core abbreviates it.
	HTML string `json:"html"`
	// FailureSummary tells what to fix.
	FailureSummary string `json:"failureSummary"`
}

// String formats v for a test failure or a log: the rule, its impact and
// help, then each element with its selector, HTML and what to fix.
func (v Violation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s <%s>", v.ID, v.Impact, v.Help, v.HelpURL)
	for _, n := range v.Nodes {
		fmt.Fprintf(&b, "\n  %s\n    %s", strings.Join(n.Target, " "), n.HTML)
		for line := range strings.SplitSeq(n.FailureSummary, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				fmt.Fprintf(&b, "\n    %s", line)
			}
		}
	}
	return b.String()
}

// axeRun is the script that runs axe on the document; the first %s is the
// global that holds the injected axe, the second the options object
// (JSON). It maps the result to the shape of Violation.
const axeRun = `(async () => {
  const r = await window.%s.run(document, %s);
  return r.violations.map(v => ({
    id: v.id, impact: v.impact || "", description: v.description, help: v.help,
    helpUrl: v.helpUrl, tags: v.tags || [],
    nodes: v.nodes.map(n => ({
      target: n.target.map(t => Array.isArray(t) ? t.join(" ") : String(t)),
      html: n.html || "", failureSummary: n.failureSummary || "",
    })),
  }));
})()`

// Axe loads url (file:// or http://) in a viewport set by o, waits for its
// load event and web fonts, injects axeSource (the contents of axe-core's
// axe.min.js) and runs axe.run on the document. It returns the violations,
// in axe-core's order; none is an empty result.
func (b *Browser) Axe(ctx context.Context, url string, axeSource []byte, o AxeOptions) ([]Violation, error) {
	if len(axeSource) == 0 {
		return nil, fmt.Errorf("axe %s: no axe-core source", url)
	}
	v := viewport{Width: o.Width, Height: o.Height, Mobile: o.Mobile, Dark: o.Dark}
	var out []Violation
	err := b.inTab(ctx, "axe", url, accessOf(url), func(tab context.Context) error {
		if err := v.apply(tab); err != nil {
			return err
		}
		if err := load(tab, url); err != nil {
			return err
		}
		var err error
		out, err = AxeTab(tab, axeSource, o)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AxeTab runs axe-core (axeSource, the contents of axe.min.js) on the
// document of a tab that [Browser.Visit] opened, as it is now: after fn
// has clicked, typed or opened what it wants checked. The viewport is
// Visit's, the color scheme Visit's or the last [ColorScheme]'s; of o, only
// Tags and DisableRules apply. Calls on the same document inject axe-core
// once. It returns the violations, in axe-core's order; none is an empty
// result.
func AxeTab(tab context.Context, axeSource []byte, o AxeOptions) ([]Violation, error) {
	if len(axeSource) == 0 {
		return nil, errors.New("axe: no axe-core source")
	}
	opts := map[string]any{"resultTypes": []string{"violations"}}
	if len(o.Tags) > 0 {
		opts["runOnly"] = map[string]any{"type": "tag", "values": o.Tags}
	}
	if len(o.DisableRules) > 0 {
		rules := map[string]any{}
		for _, id := range o.DisableRules {
			rules[id] = map[string]bool{"enabled": false}
		}
		opts["rules"] = rules
	}
	js, err := json.Marshal(opts)
	if err != nil {
		return nil, fmt.Errorf("axe options: %w", err)
	}
	// The source is injected once per document: a second call on the same
	// page (in the other color scheme, or after a click) reuses it. The
	// global's name holds the source's hash, so that another source on the
	// same page is injected afresh, and a page's own "axe" is never run.
	sum := sha256.Sum256(axeSource)
	global := "__curexAxe" + hex.EncodeToString(sum[:8])
	injected, err := chromedp.Run(tab, chromedp.Evaluate[bool]("typeof window."+global+" === 'object'"))
	if err != nil {
		return nil, fmt.Errorf("injecting axe-core: %w", err)
	}
	if !injected {
		ok, err := chromedp.Run(tab, chromedp.Evaluate[bool](string(axeSource)+"\n;(typeof axe === 'object' && typeof axe.run === 'function') ? ((window."+global+" = axe), true) : false"))
		if err != nil {
			return nil, fmt.Errorf("injecting axe-core: %w", err)
		}
		if !ok {
			return nil, errors.New("injecting axe-core: the source defines no axe.run")
		}
	}
	out, err := chromedp.Run(tab, chromedp.Evaluate[[]Violation](fmt.Sprintf(axeRun, global, js), chromedp.EvalAwaitPromise))
	if err != nil {
		return nil, fmt.Errorf("axe.run: %w", err)
	}
	if out == nil {
		out = []Violation{}
	}
	return out, nil
}
