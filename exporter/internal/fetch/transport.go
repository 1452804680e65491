package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/internal/retry"
	"github.com/curex/curex/exporter/internal/setting"
)

// ErrBudget is returned by Transport.RoundTrip, without sending anything,
// once MaxRequests attempts have been sent. It names the setting
// max_requests (setting.Of finds it) and matches retry.ErrFinal: no retry
// can cure it.
var ErrBudget error = &stopError{setting.Error{Name: setting.MaxRequests, Err: errors.New("request budget used up")}}

// ErrDeadline is returned by Transport.RoundTrip, without sending
// anything, once the run's deadline has come. It names the setting
// deadline and matches retry.ErrFinal. errors.Is(ErrDeadline, ErrBudget)
// is true: a run treats both alike.
var ErrDeadline error = &stopError{setting.Error{Name: setting.Deadline, Err: errors.New("the run's deadline has come")}}

// stopError is a request a limit of the run does not let leave.
type stopError struct{ se setting.Error }

func (e *stopError) Error() string { return e.se.Error() }

// Unwrap makes the error match its setting and retry.ErrFinal.
func (e *stopError) Unwrap() []error { return []error{&e.se, retry.ErrFinal} }

// Is makes both ErrBudget and ErrDeadline match ErrBudget.
func (e *stopError) Is(target error) bool { return target == ErrBudget }

// Transport is the http.RoundTripper every API request goes through: it
// waits for the Limiter before each attempt (retries included, since each
// is a new round trip), sends it with Base, then reports the answer to the
// Limiter and counts it in Stats.
//
// Time spent waiting for the Limiter does not count against a
// retry.Policy's AttemptTimeout: the attempt's clock stops while the
// request waits its turn (retry.Hold).
//
// A Transport must not be copied after first use.
type Transport struct {
	// Base sends the requests; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Limiter paces the requests; nil means no pacing.
	Limiter *pacer.Limiter
	// Stats counts the attempts and answers; nil means no counting.
	Stats *Stats
	// MaxRequests bounds the attempts sent; 0 means unlimited. Past it,
	// RoundTrip returns ErrBudget without sending.
	MaxRequests int64
	// Deadline, when not zero, is when sending stops: a request that
	// would wait for the Limiter past it is not sent (ErrDeadline).
	Deadline time.Time

	sent atomic.Int64
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.MaxRequests > 0 && t.sent.Add(1) > t.MaxRequests {
		t.sent.Add(-1)
		closeBody(req)
		return nil, fmt.Errorf("%w (%d requests sent)", ErrBudget, t.MaxRequests)
	} else if t.MaxRequests <= 0 {
		t.sent.Add(1)
	}
	if !t.Deadline.IsZero() && !time.Now().Before(t.Deadline) {
		t.sent.Add(-1)
		closeBody(req)
		return nil, ErrDeadline
	}
	var ticket pacer.Ticket
	if t.Limiter != nil {
		resume := retry.Hold(req.Context())
		actx := req.Context()
		if !t.Deadline.IsZero() {
			var cancel context.CancelFunc
			actx, cancel = context.WithDeadline(actx, t.Deadline)
			defer cancel()
		}
		tk, err := t.Limiter.Acquire(actx)
		resume()
		if err != nil {
			t.sent.Add(-1) // nothing was sent
			closeBody(req)
			if req.Context().Err() == nil && actx.Err() != nil {
				return nil, ErrDeadline
			}
			return nil, err
		}
		ticket = tk
	}
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	t.Stats.addRequest()
	resp, err := base.RoundTrip(req)
	if err != nil {
		t.Stats.addStatus(0)
		if t.Limiter != nil {
			t.Limiter.Done(ticket, 0, nil)
		}
		return nil, err
	}
	t.Stats.addStatus(resp.StatusCode)
	if t.Limiter != nil {
		t.Limiter.Done(ticket, resp.StatusCode, resp.Header)
	}
	if resp.Body != nil && t.Stats != nil {
		resp.Body = &countedBody{ReadCloser: resp.Body, stats: t.Stats}
	}
	return resp, nil
}

// countedBody counts, once, a body that breaks off while it is read.
type countedBody struct {
	io.ReadCloser
	stats   *Stats
	counted atomic.Bool
}

func (b *countedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && b.counted.CompareAndSwap(false, true) {
		b.stats.CutShort.Add(1)
	}
	return n, err
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}
