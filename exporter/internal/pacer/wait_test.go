package pacer

import (
	"context"
	"net/http"
	"time"
)

// What only the tests of this folder call: they drive a Limiter without
// tickets, as a caller that cannot tell which answer belongs to which
// request would (Wait and Observe), pause it by hand, and look inside
// tickets. No caller of the package does, so these live here and stay out
// of the binary.

// Wait blocks until one more request fits every window (and any pause is
// over, and any probe has reported back), then records it. It returns
// ctx.Err() when ctx ends first, recording nothing. Prefer Acquire and
// Done, which tell the limiter which answer belongs to which request;
// after Wait, report the answer with Observe.
func (l *Limiter) Wait(ctx context.Context) error {
	t, err := l.Acquire(ctx)
	if err == nil {
		// No ticket comes back to Done: count the request from its release.
		l.mu.Lock()
		delete(l.inflight, t.seq)
		l.mu.Unlock()
	}
	return err
}

// Observe reports a response to a request released by Wait; see Done.
// Without a ticket the limiter cannot tell which request it answers: any
// answer other than a 429 ends the wait for a probe, and a 429 lowers the
// limits only when no pause is in force and the log has room now.
func (l *Limiter) Observe(status int, header http.Header) {
	l.Done(Ticket{}, status, header)
}

// Pause makes everyone wait: nobody is released before now+d. After the
// pause one probe request goes first, and the others wait until it
// reports back (Done) or ProbeTimeout passes. A pause never
// shortens one already in force.
func (l *Limiter) Pause(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pause(l.now(), d)
}

// Paused returns the end of the pause or hold in force, and whether there
// is one, for progress displays.
func (l *Limiter) Paused() (until time.Time, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	until = later(l.pauseUntil, l.holdUntil)
	return until, until.After(l.now())
}

// String describes the limiter's limits, for logs.
func (l *Limiter) String() string {
	ls := l.Limits()
	if len(ls) == 0 {
		return "no limit"
	}
	return ls.String()
}

// Sent returns when the request was released.
func (t Ticket) Sent() time.Time { return t.sent }

// Probe reports whether the request is the probe that goes first after a
// pause.
func (t Ticket) Probe() bool { return t.probe }
