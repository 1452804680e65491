package pacer

import (
	"context"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/curex/curex/exporter/ratelimit"
)

// Defaults of LimiterOptions.
const (
	// DefaultMargin is the share of every window a Limiter keeps as safety
	// time: windows are stretched by 0.5%, so a minute window is paced as
	// 60.3 s and an hour as 60 min 18 s. Transit needs no margin: a request
	// is counted from its answer (see Limiter), so only clock granularity
	// and drift are left to absorb.
	DefaultMargin = 0.005
	// DefaultRetryAfter is the pause after a 429 without Retry-After, as
	// the API specification says (section 8).
	DefaultRetryAfter = 60 * time.Second
	// DefaultProbeTimeout is how long the others wait for a probe request
	// that never reports back before they go on.
	DefaultProbeTimeout = 30 * time.Second
)

// Adaptive rules: a 429 while the limiter believed it had room multiplies
// the count of the suspect limits by cutFactor (at least 1 remains); each
// window of a limit that passes without such a 429, once any pause is
// over, gives that limit back recoverShare of its configured count (at
// least 1 request). The suspects are the limits whose window is long
// enough for the server's Retry-After and that we used the most (within
// suspectSlack of the busiest, as shares of their counts).
const (
	cutFactor    = 0.8
	recoverShare = 0.05
	suspectSlack = 0.1
)

// LimiterOptions configure a Limiter.
type LimiterOptions struct {
	// Limits are the limits to stay under, all at once. Nil means
	// ratelimit.Default(); an empty, non-nil list means no limit (pauses
	// after a 429 still apply).
	Limits ratelimit.Limits
	// Margin is the share of each limit kept unused, as time: every
	// window is paced as Window × (1 + Margin), so that at most Count
	// requests leave in any stretch of that length. The long-run rate is
	// then Count/(Window × (1 + Margin)), about (1 − Margin) of the
	// limit, while the busiest window of the true length still holds the
	// full Count. Unlike a count cut, the stretch costs a run its share of
	// time and no more. 0 means DefaultMargin; a negative value means no
	// margin (pace on the exact windows); values above 1 count as 1.
	Margin float64
	// DefaultRetryAfter is the pause after a 429 without a usable
	// Retry-After header; 0 means DefaultRetryAfter.
	DefaultRetryAfter time.Duration
	// ProbeTimeout is how long the others wait, after a pause, for the
	// probe request to report back (Done) before they go on anyway; 0
	// means DefaultProbeTimeout.
	ProbeTimeout time.Duration
	// Now is the clock; nil means time.Now, which testing/synctest fakes.
	// Waits use timers, so a replacement must move with real (or bubble)
	// time.
	Now func() time.Time
}

// Limiter paces every request of a run under all limits at once: one
// sliding-window log for all the limits, shared by all workers, with a
// safety margin (see LimiterOptions.Margin). It is the one place where a
// run decides when a request may leave.
//
// Waiting callers are served first come, first served: only the first in
// line sleeps, on a timer set to the exact moment its request fits, and
// the log records the moment the request is actually released.
//
// The server counts a request when it arrives, which is some moment
// between its release here and its answer. So a request released with
// Acquire counts as arriving "now" until Done reports its answer, and from
// then on as arriving when the answer came. However late a request reaches
// the server (a slow connection, a loaded machine), the server's windows
// never hold more than the limiter's: no 429 is earned by transit time.
// The cost is one round trip per window, which a minute window hardly
// feels.
//
// A 429 pauses everyone (Retry-After, or 60 s when absent); after a pause
// one probe request goes first and the others wait until it reports back.
// A 429 while the limiter believed it had room means the server counts
// requests it cannot see (another client of the same organization): the
// limiter lowers the count of the limit it suspects to 80% (the limits
// whose window fits the server's Retry-After and that it used the most),
// and gives back 5% of the configured count per window without such a 429
// once the pause is over. Rate-limit headers, when the server sends them,
// teach it the real budget; it never goes above the configured limits.
//
// A Limiter is safe for concurrent use.
type Limiter struct {
	now          func() time.Time
	margin       float64
	defaultRetry time.Duration
	probeTimeout time.Duration
	maxRetry     time.Duration // the longest Retry-After honoured as it is

	// turn is held by the caller first in line; the others queue on it.
	turn chan struct{}

	mu     sync.Mutex
	wake   chan struct{} // closed (and replaced) when waiting may end sooner
	limits []limitState  // one per configured limit, in order
	log    *ratelimit.Log
	last   time.Time // latest recorded release
	seq    uint64    // tickets issued
	// inflight maps tickets without an answer yet to their release time.
	// The server counts a request when it arrives, at some moment between
	// release and answer: until the answer, the limiter counts it as
	// arriving now; after, as arriving when the answer came.
	inflight map[uint64]time.Time

	pauseUntil time.Time // nobody leaves before, then a probe goes first
	holdUntil  time.Time // nobody leaves before (no probe): the server said so
	staleSeq   uint64    // tickets up to here left before the latest pause
	probeNext  bool      // the next release is a probe
	probeSeq   uint64    // the probe under way, 0 for none
	probeStart time.Time
}

// limitState is one configured limit and what the limiter learnt of it.
type limitState struct {
	cfg    ratelimit.Limit
	paced  time.Duration // cfg.Window stretched by the margin
	policy int           // count announced by RateLimit-Policy, at most cfg.Count
	est    int           // adaptive estimate, at most cfg.Count
	stepAt time.Time     // next recovery step, when est < cfg.Count

	hidden      int // requests the server counts that we did not send
	hiddenUntil time.Time
	hiddenSeq   uint64 // ticket the estimate came from
}

// count returns the count to pace under now.
func (s *limitState) count(now time.Time) int {
	c := min(s.est, s.policy)
	if s.hidden > 0 && now.Before(s.hiddenUntil) {
		c -= s.hidden
	}
	return max(c, 1)
}

// NewLimiter returns a Limiter for o.
func NewLimiter(o LimiterOptions) *Limiter {
	l := &Limiter{
		now:          o.Now,
		margin:       o.Margin,
		defaultRetry: o.DefaultRetryAfter,
		probeTimeout: o.ProbeTimeout,
		turn:         make(chan struct{}, 1),
		wake:         make(chan struct{}),
		inflight:     map[uint64]time.Time{},
	}
	if l.now == nil {
		l.now = time.Now
	}
	switch {
	case l.margin == 0:
		l.margin = DefaultMargin
	case l.margin < 0 || math.IsNaN(l.margin):
		l.margin = 0
	case l.margin > 1:
		l.margin = 1
	}
	if l.defaultRetry <= 0 {
		l.defaultRetry = DefaultRetryAfter
	}
	if l.probeTimeout <= 0 {
		l.probeTimeout = DefaultProbeTimeout
	}
	ls := o.Limits
	if ls == nil {
		ls = ratelimit.Default()
	}
	paced := make(ratelimit.Limits, 0, len(ls))
	for _, lim := range ls {
		if lim.Count < 1 || lim.Window <= 0 {
			continue // Parse never yields these; ignore rather than panic
		}
		s := limitState{cfg: lim, paced: stretch(lim.Window, l.margin), policy: lim.Count, est: lim.Count}
		l.limits = append(l.limits, s)
		paced = append(paced, ratelimit.Limit{Count: lim.Count, Window: s.paced})
	}
	l.log = ratelimit.NewLog(paced)
	l.maxRetry = 2 * l.defaultRetry
	for _, lim := range l.limits {
		l.maxRetry = max(l.maxRetry, 2*lim.cfg.Window)
	}
	return l
}

// stretch returns w × (1 + margin).
func stretch(w time.Duration, margin float64) time.Duration {
	if margin <= 0 {
		return w
	}
	return w + time.Duration(math.Round(float64(w)*margin))
}

// Ticket is one request released by a Limiter. Report its outcome with
// Limiter.Done, so that the limiter knows which answer belongs to a probe
// and which 429 is news.
type Ticket struct {
	seq   uint64
	sent  time.Time
	probe bool
	usage []int // requests in each configured window at release, this one included
}

// Acquire blocks until one more request fits every window (and any pause
// is over, and any probe has reported back), then records it and returns
// its ticket; pass the ticket to Done with the answer. It returns
// ctx.Err() when ctx ends first, recording nothing.
func (l *Limiter) Acquire(ctx context.Context) (Ticket, error) {
	if err := ctx.Err(); err != nil {
		return Ticket{}, err
	}
	select {
	case l.turn <- struct{}{}:
	case <-ctx.Done():
		return Ticket{}, ctx.Err()
	}
	defer func() { <-l.turn }()

	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		l.mu.Lock()
		now := l.now()
		l.refresh(now)
		at, wakeAt := l.next(now)
		if !at.After(now) {
			t := l.release(now)
			l.mu.Unlock()
			return t, nil
		}
		wake := l.wake
		l.mu.Unlock()

		d := wakeAt.Sub(now)
		if timer == nil {
			timer = time.NewTimer(d)
		} else {
			timer.Reset(d)
		}
		select {
		case <-timer.C:
		case <-wake:
		case <-ctx.Done():
			return Ticket{}, ctx.Err()
		}
	}
}

// next returns when the next request may leave, and when to look again
// (sooner, when a limit is due to rise before then). l.mu is held.
func (l *Limiter) next(now time.Time) (at, wakeAt time.Time) {
	at = later(now, l.pauseUntil, l.holdUntil)
	at = later(at, l.counted(now).NextFor(now, l.pacedLimits(now)))
	if l.probeSeq != 0 {
		at = later(at, l.probeStart.Add(l.probeTimeout))
	}
	wakeAt = at
	for i := range l.limits {
		s := &l.limits[i]
		if s.est < s.cfg.Count && s.stepAt.Before(wakeAt) {
			wakeAt = s.stepAt
		}
		if s.hidden > 0 && s.hiddenUntil.Before(wakeAt) && s.hiddenUntil.After(now) {
			wakeAt = s.hiddenUntil
		}
	}
	return at, later(wakeAt, now)
}

// counted returns the log as the server may see it now: requests still
// waiting for their answer count as arriving now. l.mu is held.
func (l *Limiter) counted(now time.Time) *ratelimit.Log {
	if len(l.inflight) == 0 {
		return l.log
	}
	c := l.log.Clone()
	for _, sent := range l.inflight {
		c.Move(sent, later(now, l.last))
	}
	return c
}

func later(a time.Time, bs ...time.Time) time.Time {
	for _, b := range bs {
		if b.After(a) {
			a = b
		}
	}
	return a
}

// configured returns the configured limits. l.mu is held.
func (l *Limiter) configured() ratelimit.Limits {
	ls := make(ratelimit.Limits, len(l.limits))
	for i := range l.limits {
		ls[i] = l.limits[i].cfg
	}
	return ls
}

// pacedLimits returns the limits to pace under now: adapted counts over
// stretched windows. l.mu is held.
func (l *Limiter) pacedLimits(now time.Time) ratelimit.Limits {
	ls := make(ratelimit.Limits, len(l.limits))
	for i := range l.limits {
		ls[i] = ratelimit.Limit{Count: l.limits[i].count(now), Window: l.limits[i].paced}
	}
	return ls
}

// release records a request leaving at now. l.mu is held.
func (l *Limiter) release(now time.Time) Ticket {
	if now.Before(l.last) {
		now = l.last // a clock that went back must not unsort the log
	}
	l.log.Add(now)
	l.last = now
	l.seq++
	l.inflight[l.seq] = now
	t := Ticket{seq: l.seq, sent: now, usage: l.log.UsageFor(now, l.configured())}
	if l.probeNext {
		l.probeNext = false
		l.probeSeq, l.probeStart = l.seq, now
		t.probe = true
	}
	return t
}

// refresh applies recovery steps that fell due and forgets expired
// hidden-usage estimates. l.mu is held.
func (l *Limiter) refresh(now time.Time) {
	for i := range l.limits {
		s := &l.limits[i]
		for s.est < s.cfg.Count && !now.Before(s.stepAt) {
			s.est = min(s.cfg.Count, s.est+s.step())
			s.stepAt = s.stepAt.Add(s.cfg.Window)
		}
		if s.hidden > 0 && !now.Before(s.hiddenUntil) {
			s.hidden = 0
		}
	}
}

// step is how much a quiet window gives back.
func (s *limitState) step() int {
	return max(1, int(math.Round(float64(s.cfg.Count)*recoverShare)))
}

// broadcast wakes the caller first in line to look again. l.mu is held.
func (l *Limiter) broadcast() {
	close(l.wake)
	l.wake = make(chan struct{})
}

// pause makes everyone wait: nobody is released before now+d. After the
// pause one probe request goes first, and the others wait until it
// reports back (Done) or ProbeTimeout passes. A pause never shortens one
// already in force. l.mu is held.
func (l *Limiter) pause(now time.Time, d time.Duration) {
	l.pauseUntil = later(l.pauseUntil, now.Add(max(d, 0)))
	for i := range l.limits {
		// A window spent paused proves nothing: recovery restarts after.
		if s := &l.limits[i]; s.est < s.cfg.Count {
			s.stepAt = later(s.stepAt, l.pauseUntil.Add(s.cfg.Window))
		}
	}
	l.probeNext = true
	l.probeSeq = 0 // a probe under way no longer speaks for after this pause
	l.staleSeq = l.seq
	l.broadcast()
}

// Done reports the outcome of the request released with t: its status and
// header, or status 0 when no response came (a transport error or a
// cancellation).
//
//   - A 429 pauses everyone for its Retry-After (seconds or an HTTP date;
//     at most twice the longest window, or twice DefaultRetryAfter if that
//     is longer), or DefaultRetryAfter when absent. If the request left after the
//     latest pause began (the limiter believed it had room), the suspect
//     counts are lowered to 80% (see Limiter) and then recover by 5% of the
//     configured count per quiet window after the pause. 429s of requests
//     that left before the pause only extend it: they are the same news.
//   - RateLimit-Policy lowers a count to what the server announces for the
//     same window (never above the configured count); X-RateLimit-Limit and
//     -Remaining (or RateLimit-Limit and -Remaining) reveal requests the
//     server counts but we did not send, which the limiter keeps out of its
//     own budget for one window (or until the Reset the server gives);
//     Remaining 0 with such requests holds everyone until the Reset.
//   - Any other answer to the probe releases the others; no answer to the
//     probe lets the next request probe instead.
func (l *Limiter) Done(t Ticket, status int, header http.Header) {
	now := l.now()
	var info RateHeaders
	if status != 0 {
		info = ParseRateHeaders(header, now)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now = later(l.now(), now)
	l.refresh(now)
	if sent, ok := l.inflight[t.seq]; ok && t.seq != 0 {
		// Count the request from its answer: the server saw it by then.
		delete(l.inflight, t.seq)
		at := later(now, l.last)
		if l.log.Move(sent, at) {
			l.last = at
		}
		l.broadcast()
	}
	if status != 0 {
		l.learn(t, info, now)
	}
	switch {
	case status == http.StatusTooManyRequests:
		d := l.defaultRetry
		if info.HasRetryAfter {
			// Past twice the longest window the number is more likely a
			// mistake than a wait: the probe after the capped pause asks
			// again.
			d = min(info.RetryAfter, l.maxRetry)
		}
		if l.hadRoom(t, now) {
			usage := t.usage
			if t.seq == 0 {
				usage = l.log.UsageFor(now, l.configured())
			}
			var hint time.Duration // only the server's own wait tells windows apart
			if info.HasRetryAfter {
				hint = info.RetryAfter
			}
			l.cut(now, usage, hint)
		}
		l.pause(now, d)
	case status == 0:
		if t.seq != 0 && t.seq == l.probeSeq {
			l.probeSeq = 0
			l.probeNext = true // the next request probes instead
			l.broadcast()
		}
	default:
		if l.probeSeq != 0 && (t.seq == l.probeSeq || t.seq == 0) {
			l.probeSeq = 0
			l.broadcast()
		}
	}
}

// hadRoom reports whether a 429 for t is news: the request left after the
// latest pause began. Without a ticket: no pause is in force and the log
// has room now. l.mu is held.
func (l *Limiter) hadRoom(t Ticket, now time.Time) bool {
	if t.seq != 0 {
		return t.seq > l.staleSeq
	}
	if now.Before(l.pauseUntil) {
		return false
	}
	return !l.log.NextFor(now, l.pacedLimits(now)).After(now)
}

// cut lowers the counts of the suspect limits after a 429 that was news:
// usage is ours in each window when the refused request left, wait the
// server's Retry-After (0 when it gave none). l.mu is held.
func (l *Limiter) cut(now time.Time, usage []int, wait time.Duration) {
	if len(l.limits) == 0 {
		return
	}
	// A limit whose window frees up well before the server asks us to
	// wait is not the one that refused (whole seconds of rounding
	// allowed); of the others, the ones we used the most are the suspects.
	share := make([]float64, len(l.limits))
	best, longest := -1.0, 0
	for i := range l.limits {
		s := &l.limits[i]
		if s.cfg.Window > l.limits[longest].cfg.Window {
			longest = i
		}
		share[i] = -1
		if wait > s.cfg.Window+time.Second {
			continue
		}
		u := 0
		if i < len(usage) {
			u = usage[i]
		}
		share[i] = float64(u) / float64(s.count(now))
		best = max(best, share[i])
	}
	if best < 0 { // a longer wait than every window: suspect the longest
		share[longest], best = 1, 1
	}
	for i := range l.limits {
		if share[i] < 0 || share[i] < best-suspectSlack {
			continue
		}
		s := &l.limits[i]
		s.est = max(1, int(math.Floor(float64(min(s.est, s.policy))*cutFactor)))
		s.stepAt = now.Add(s.cfg.Window)
	}
}

// learn applies what the rate-limit headers of a response say. l.mu is
// held.
func (l *Limiter) learn(t Ticket, info RateHeaders, now time.Time) {
	if len(info.Policy) > 0 {
		for i := range l.limits {
			s := &l.limits[i]
			for _, p := range info.Policy {
				if sameWindow(p.Window, s.cfg.Window) {
					s.policy = min(s.cfg.Count, max(p.Count, 1))
				}
			}
		}
	}
	if !info.HasLimit || !info.HasRemaining {
		return
	}
	i := l.limitFor(info)
	if i < 0 {
		return
	}
	s := &l.limits[i]
	if t.seq != 0 && t.seq < s.hiddenSeq {
		return // an older answer than the one the estimate came from
	}
	// Our requests the server may have counted: those of its window when
	// it admitted the request (which began at t.sent-Window at the
	// earliest) up to now, since requests sent after it may have
	// overtaken it. Counting too many of ours only underestimates what
	// others use; the 429s are the backstop.
	w := s.cfg.Window
	if t.seq != 0 {
		w = min(w+now.Sub(t.sent), s.paced)
	}
	ours := l.log.UsageFor(now, ratelimit.Limits{{Count: 1, Window: w}})[0]
	used := info.Limit - info.Remaining
	s.hidden = max(0, min(used-ours, s.cfg.Count))
	s.hiddenUntil = now.Add(s.cfg.Window)
	if info.HasReset && info.Reset > 0 && info.Reset < s.cfg.Window {
		s.hiddenUntil = now.Add(info.Reset) // the server says when it frees up
	}
	s.hiddenSeq = t.seq
	if s.hidden > 0 && info.Remaining == 0 && info.HasReset && info.Reset > 0 && info.Reset <= s.cfg.Window {
		l.holdUntil = later(l.holdUntil, now.Add(info.Reset))
	}
}

// limitFor finds the configured limit that X-RateLimit-Limit speaks of: the
// one whose window the policy gives for that count, or else the one with
// that count (configured or announced). It returns -1 when none matches.
func (l *Limiter) limitFor(info RateHeaders) int {
	for _, p := range info.Policy {
		if p.Count != info.Limit {
			continue
		}
		for i := range l.limits {
			if sameWindow(p.Window, l.limits[i].cfg.Window) {
				return i
			}
		}
	}
	for i := range l.limits {
		if l.limits[i].cfg.Count == info.Limit || l.limits[i].policy == info.Limit {
			return i
		}
	}
	return -1
}

// sameWindow compares a window announced in whole seconds with a
// configured one.
func sameWindow(announced, configured time.Duration) bool {
	return announced == configured || announced == time.Duration(math.Ceil(configured.Seconds()))*time.Second
}

// Limits returns the limits the limiter paces under now: the configured
// windows with the counts as lowered by 429s and rate-limit headers (the
// margin stretches the windows and is not shown).
func (l *Limiter) Limits() ratelimit.Limits {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.refresh(now)
	ls := make(ratelimit.Limits, len(l.limits))
	for i := range l.limits {
		ls[i] = ratelimit.Limit{Count: l.limits[i].count(now), Window: l.limits[i].cfg.Window}
	}
	return ls
}

// ETA returns how long that many more requests take from now under the
// current limits: the time until the last of them can leave in the greedy
// schedule (each as early as every window, the margin and any pause
// allow), not counting the answer's latency. Progress bars and `curex plan`
// show it.
func (l *Limiter) ETA(requests int) time.Duration {
	if requests <= 0 {
		return 0
	}
	l.mu.Lock()
	now := l.now()
	l.refresh(now)
	log := l.log.Clone()
	ls := l.pacedLimits(now)
	t := later(now, l.pauseUntil, l.holdUntil, l.last)
	l.mu.Unlock()
	if len(ls) == 0 {
		return t.Sub(now)
	}
	for range requests {
		t = log.NextFor(t, ls)
		log.Add(t)
	}
	return t.Sub(now)
}
