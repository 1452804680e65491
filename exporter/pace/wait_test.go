package pace

import (
	"context"
	"net/http"
)

// The tests of this folder also drive a Limiter without tickets, as a
// caller that cannot tell which answer belongs to which request would:
// Wait and Observe. No caller of the package does, so they live here and
// stay out of the binary.

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
