package fresh

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/setting"
)

// Mode is how unchanged trees are revalidated (--revalidate).
type Mode int

const (
	// Rolling revalidates a share of the unchanged trees each run, oldest
	// first, so that every tree is revalidated within Policy.Window.
	Rolling Mode = iota
	// Always revalidates every unchanged tree (a conditional request each).
	Always
	// Never trusts the signals alone.
	Never
)

// String returns the mode as --revalidate spells it.
func (m Mode) String() string {
	switch m {
	case Always:
		return "always"
	case Never:
		return "never"
	}
	return "rolling"
}

// DefaultWindow is the default of --revalidate-within.
const DefaultWindow = 7 * 24 * time.Hour

// Policy is how a run revalidates the trees whose signals did not change.
type Policy struct {
	Mode Mode
	// Window is the longest a tree goes without revalidation (Rolling).
	Window time.Duration
}

// DefaultPolicy is rolling revalidation within DefaultWindow.
func DefaultPolicy() Policy { return Policy{Mode: Rolling, Window: DefaultWindow} }

// ParsePolicy reads the settings revalidate (rolling, always or never;
// empty means rolling) and revalidate_within (a duration such as 7d, 36h
// or 90m; empty means DefaultWindow). Its errors are *setting.Error naming
// the one that is wrong.
func ParsePolicy(revalidate, within string) (Policy, error) {
	p := DefaultPolicy()
	switch strings.ToLower(strings.TrimSpace(revalidate)) {
	case "", "rolling":
	case "always":
		p.Mode = Always
	case "never":
		p.Mode = Never
	default:
		return p, setting.Errorf(setting.Revalidate, "%q: want rolling, always or never", revalidate)
	}
	if strings.TrimSpace(within) != "" {
		d, err := ParseDays(within)
		if err != nil {
			return p, &setting.Error{Name: setting.RevalidateWithin, Err: err}
		}
		if d < time.Hour {
			return p, setting.Errorf(setting.RevalidateWithin, "%q: want at least 1h", within)
		}
		p.Window = d
	}
	return p, nil
}

// maxDays bounds the days ParseDays reads (ten years).
const maxDays = 3653

// ParseDays reads a duration as time.ParseDuration does, and also whole
// or fractional days with a d suffix ("7d", "1.5d", "2d12h").
func ParseDays(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var days float64
	if i := strings.IndexByte(s, 'd'); i >= 0 {
		if _, err := fmt.Sscanf(s[:i], "%g", &days); err != nil || !(days >= 0 && days <= maxDays) || s[:i] == "" {
			return 0, fmt.Errorf("%q is not a duration (such as 7d, 36h or 90m)", s)
		}
		s = s[i+1:]
	}
	var rest time.Duration
	if s != "" {
		var err error
		if rest, err = time.ParseDuration(s); err != nil || rest < 0 {
			return 0, fmt.Errorf("%q is not a duration (such as 7d, 36h or 90m)", s)
		}
	}
	d := time.Duration(days*float64(24*time.Hour)) + rest
	if d <= 0 {
		return 0, fmt.Errorf("%q is not a positive duration", s)
	}
	return d, nil
}

// Reason is why a tree is fetched, or not.
type Reason int

const (
	// New: no record of the tree, or its cached body is gone.
	New Reason = iota
	// Changed: its signal differs from the recorded one.
	Changed
	// Due: unchanged, and its turn to be revalidated.
	Due
	// Unchanged: served from the cache with no request.
	Unchanged
)

// String names the reason.
func (r Reason) String() string {
	return [...]string{"new", "changed", "due", "unchanged"}[r]
}

// Tree is a planned tree with its current signal.
type Tree struct {
	Export model.Export
	Signal string
}

// Item is a tree with the decision taken on it.
type Item struct {
	Tree
	Reason Reason
	// Record is what was known of the tree (zero for New).
	Record Record
}

// Schedule is what a run does with each planned tree.
type Schedule struct {
	// Fetch holds the trees to request, in order: new, then changed (both
	// in plan order), then due for revalidation (oldest first).
	Fetch []Item
	// Skip holds the unchanged trees not due, served from the cache.
	Skip []Item
	// Policy is the policy the schedule follows.
	Policy Policy
	// Elapsed is the time since the last completed run, as the share of
	// revalidation was sized for (capped at the window).
	Elapsed time.Duration
}

// Count returns the number of trees decided for r.
func (s *Schedule) Count(r Reason) int {
	n := 0
	for _, list := range [][]Item{s.Fetch, s.Skip} {
		for _, it := range list {
			if it.Reason == r {
				n++
			}
		}
	}
	return n
}

// Cached reports whether the ETag cache holds a body of e's tree with the
// given ETag.
type Cached func(e model.Export, etag string) bool

// Decide decides, for each tree, whether this run fetches it and in what
// order. A tree is Unchanged when its record has its signal and the cache
// still holds the recorded body. Rolling then takes, oldest first, at
// least the share of the unchanged trees that the time since the last run
// is of the window (nightly runs with a 7-day window: a seventh a night),
// and every tree that would pass the window before the next run if runs
// keep their cadence: every tree is revalidated within the window.
//
// st may be nil (no state: every tree is New); so may cached (the cache is
// then trusted to hold every recorded body).
func Decide(trees []Tree, st *Store, cached Cached, now time.Time, p Policy) *Schedule {
	if p.Window <= 0 {
		p.Window = DefaultWindow
	}
	s := &Schedule{Policy: p}
	var changed, unchanged []Item
	for _, t := range trees {
		it := Item{Tree: t, Reason: New}
		if st != nil {
			if r, ok := st.Get(t.Export); ok && r.ETag != "" && (cached == nil || cached(t.Export, r.ETag)) {
				it.Record = r
				it.Reason = Changed
				if r.Signal == t.Signal {
					it.Reason = Unchanged
				}
			}
		}
		switch it.Reason {
		case New:
			s.Fetch = append(s.Fetch, it)
		case Changed:
			changed = append(changed, it)
		default:
			unchanged = append(unchanged, it)
		}
	}
	s.Fetch = append(s.Fetch, changed...)
	// The share is sized by the time since the last completed run. With
	// none (the first runs were killed or cut short), only overdue trees
	// are due: the records are from those runs.
	s.Elapsed = 0
	if st != nil {
		if last := st.LastRun(); !last.IsZero() && now.After(last) {
			s.Elapsed = min(now.Sub(last), p.Window)
		}
	}
	// Oldest first; ties (trees validated in the same run) in plan order.
	slices.SortStableFunc(unchanged, func(a, b Item) int { return a.Record.Validated.Compare(b.Record.Validated) })
	due := 0
	switch p.Mode {
	case Always:
		due = len(unchanged)
	case Rolling:
		// The share of the window that passed since the last run, rounded
		// down (runs back to back revalidate nothing), and every tree that
		// would pass the window before the next run at the same cadence.
		share := int(math.Floor(float64(len(unchanged)) * float64(s.Elapsed) / float64(p.Window)))
		overdue := 0
		for _, it := range unchanged {
			if now.Sub(it.Record.Validated)+s.Elapsed > p.Window {
				overdue++
			}
		}
		due = min(len(unchanged), max(share, overdue))
	}
	for i := range unchanged {
		if i < due {
			unchanged[i].Reason = Due
			s.Fetch = append(s.Fetch, unchanged[i])
		} else {
			s.Skip = append(s.Skip, unchanged[i])
		}
	}
	return s
}
