package retry

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"
)

// ErrFinal is matched by errors that no further attempt can cure, such as
// a request budget used up: Do returns such an error at once, whatever
// Retryable says.
var ErrFinal = errors.New("not worth another attempt")

// Defaults of Policy.
const (
	// DefaultMaxAttempts bounds the attempts, the first included.
	DefaultMaxAttempts = 6
	// DefaultBaseDelay is the backoff ceiling after the first failure.
	DefaultBaseDelay = 500 * time.Millisecond
	// DefaultMaxDelay bounds the backoff ceiling.
	DefaultMaxDelay = 30 * time.Second
	// DefaultAttemptTimeout bounds each attempt.
	DefaultAttemptTimeout = 60 * time.Second
)

// Policy retries an operation with exponential backoff and full
// jitter, bounded attempts and a per-attempt timeout. Which errors are
// worth a retry is injected (Retryable), so the policy knows nothing of
// HTTP. The zero value of every field but Retryable means its default.
//
// 429s need no long wait here: the pace.Limiter inside fetch.Transport
// already pauses every worker until the server's Retry-After, and the
// retry waits there too. So RetryAfter should report (0, false) for 429s and the server's
// wait for others (a 503 with Retry-After).
type Policy struct {
	// MaxAttempts bounds the attempts, the first included; 0 means
	// DefaultMaxAttempts, 1 means no retry.
	MaxAttempts int
	// BaseDelay and MaxDelay shape the backoff: after the n-th failed
	// attempt the wait is drawn uniformly from [0, min(MaxDelay,
	// BaseDelay × 2ⁿ⁻¹)). 0 means DefaultBaseDelay, DefaultMaxDelay.
	BaseDelay, MaxDelay time.Duration
	// AttemptTimeout bounds each attempt: each runs with its own context,
	// canceled that long after it starts; 0 means DefaultAttemptTimeout,
	// a negative value means none. Time a request spends waiting for the
	// Limiter (in fetch.Transport, see Hold) does not count.
	AttemptTimeout time.Duration
	// Retryable reports whether an error is worth another attempt; nil
	// means none is. An attempt that ran out of AttemptTimeout is retried
	// whatever Retryable says, and an error matching ErrFinal never is.
	Retryable func(error) bool
	// RetryAfter, when set, may report a wait the server asked for (a
	// 503's Retry-After); the policy then waits at least that long.
	RetryAfter func(error) (time.Duration, bool)
	// Rand returns numbers in [0, 1) for the jitter; nil means
	// math/rand/v2. Tests inject a fixed source.
	Rand func() float64
	// OnRetry, when set, is called before each wait for a retry, with the
	// number of the attempt that failed (from 1), its error and the wait.
	OnRetry func(attempt int, err error, wait time.Duration)
	// Throttled, when set, marks errors that say "not now" rather than
	// "broken" (a 429: the Limiter already paused everyone). They do not
	// use up MaxAttempts, so a busy shared quota does not fail a tree;
	// MaxThrottled bounds them instead (0 means DefaultMaxThrottled).
	Throttled    func(error) bool
	MaxThrottled int
}

// DefaultMaxThrottled bounds the throttled answers one operation accepts.
const DefaultMaxThrottled = 30

// Error is returned by Policy.Do when the attempts ran out. It wraps the
// last attempt's error.
type Error struct {
	// Attempts is how many attempts were made.
	Attempts int
	// Err is the last attempt's error.
	Err error
}

// Error says how many attempts were made and what the last one met.
func (e *Error) Error() string {
	return fmt.Sprintf("gave up after %d attempts: %v", e.Attempts, e.Err)
}

// Unwrap returns the last attempt's error.
func (e *Error) Unwrap() error { return e.Err }

// Do runs op until it succeeds, fails with an error that is not worth a
// retry (returned as it is), or the attempts run out (the last error,
// wrapped in a *Error with the count). Each attempt gets its own
// context, derived from ctx, with AttemptTimeout. Do never retries, and
// stops waiting, once ctx is done: it then returns an error that matches
// both ctx.Err() and the last attempt's error.
func (p Policy) Do(ctx context.Context, op func(ctx context.Context) error) error {
	p = p.withDefaults()
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	throttled := 0
	for attempt := 1; ; attempt++ {
		err := p.attempt(ctx, op)
		if err == nil {
			return nil
		}
		if cerr := ctx.Err(); cerr != nil {
			if errors.Is(err, cerr) {
				return err
			}
			return fmt.Errorf("%w (last error: %w)", cerr, err)
		}
		if errors.Is(err, ErrFinal) {
			return err
		}
		if !errors.Is(err, errAttemptTimeout) && (p.Retryable == nil || !p.Retryable(err)) {
			return err
		}
		if p.Throttled != nil && p.Throttled(err) && throttled < p.MaxThrottled {
			throttled++ // a throttled answer does not use up an attempt
		} else if attempt-throttled >= p.MaxAttempts {
			return &Error{Attempts: attempt, Err: err}
		}
		wait := p.Backoff(attempt)
		if p.RetryAfter != nil {
			if d, ok := p.RetryAfter(err); ok && d > wait {
				wait = d
			}
		}
		if p.OnRetry != nil {
			p.OnRetry(attempt, err, wait)
		}
		if timer == nil {
			timer = time.NewTimer(wait)
		} else {
			timer.Reset(wait)
		}
		select {
		case <-timer.C:
		case <-ctx.Done():
			return fmt.Errorf("retry stopped after %d attempts: %w (last error: %w)", attempt, ctx.Err(), err)
		}
	}
}

// attempt runs op once with its own context and timeout.
func (p Policy) attempt(ctx context.Context, op func(ctx context.Context) error) error {
	if p.AttemptTimeout < 0 {
		return op(ctx)
	}
	actx, stop := startAttempt(ctx, p.AttemptTimeout)
	err := op(actx)
	timedOut := errors.Is(context.Cause(actx), errAttemptTimeout) && ctx.Err() == nil
	stop()
	if err != nil && timedOut {
		return &attemptTimeoutError{timeout: p.AttemptTimeout, err: err}
	}
	return err
}

func (p Policy) withDefaults() Policy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = DefaultMaxAttempts
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultBaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultMaxDelay
	}
	if p.AttemptTimeout == 0 {
		p.AttemptTimeout = DefaultAttemptTimeout
	}
	if p.Rand == nil {
		p.Rand = rand.Float64
	}
	if p.MaxThrottled <= 0 {
		p.MaxThrottled = DefaultMaxThrottled
	}
	return p
}

// Backoff returns the wait after the attempt-th failed attempt (from 1),
// before any RetryAfter: full jitter, uniform in [0, min(MaxDelay,
// BaseDelay × 2^(attempt−1))).
func (p Policy) Backoff(attempt int) time.Duration {
	p = p.withDefaults()
	ceiling := p.MaxDelay
	if n := attempt - 1; n < 62 {
		if d := p.BaseDelay << max(n, 0); d > 0 && d>>max(n, 0) == p.BaseDelay && d < ceiling {
			ceiling = d
		}
	}
	r := p.Rand()
	if r < 0 || r >= 1 || math.IsNaN(r) {
		r = 0
	}
	return time.Duration(r * float64(ceiling))
}

// errAttemptTimeout is the cause of an attempt context canceled by its
// timeout. It matches context.DeadlineExceeded.
var errAttemptTimeout = fmt.Errorf("attempt timed out: %w", context.DeadlineExceeded)

// attemptTimeoutError is an attempt's error when its timeout ran out.
type attemptTimeoutError struct {
	timeout time.Duration
	err     error
}

// Error says the attempt timed out, and what the operation returned.
func (e *attemptTimeoutError) Error() string {
	return fmt.Sprintf("attempt timed out after %s: %v", e.timeout, e.err)
}

// Unwrap makes the error match errAttemptTimeout (and so
// context.DeadlineExceeded) and the attempt's own error.
func (e *attemptTimeoutError) Unwrap() []error { return []error{errAttemptTimeout, e.err} }

// attemptClock cancels an attempt's context once the attempt has run for
// its timeout, not counting the time it was held (waiting for the
// Limiter).
type attemptClock struct {
	mu      sync.Mutex
	left    time.Duration // time left when the clock last stopped
	started time.Time     // when it last started; zero while held
	held    int
	timer   *time.Timer
	done    bool
	cancel  context.CancelCauseFunc
}

type attemptClockKey struct{}

// startAttempt returns a context canceled (with cause errAttemptTimeout)
// after d of running time, and a func that ends the attempt.
func startAttempt(ctx context.Context, d time.Duration) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	c := &attemptClock{left: d, cancel: cancel, started: time.Now()}
	c.timer = time.AfterFunc(d, c.fire)
	return context.WithValue(ctx, attemptClockKey{}, c), func() {
		c.mu.Lock()
		c.done = true
		if c.timer != nil {
			c.timer.Stop()
		}
		c.mu.Unlock()
		cancel(context.Canceled)
	}
}

func (c *attemptClock) fire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held > 0 || c.done {
		return // stopped while the timer fired
	}
	c.done = true
	c.cancel(errAttemptTimeout)
}

// Hold stops the clock of the attempt ctx belongs to, if any, and returns
// the func that starts it again: time a request spends waiting its turn
// (for the rate limiter) is not the attempt's.
func Hold(ctx context.Context) (resume func()) {
	c, _ := ctx.Value(attemptClockKey{}).(*attemptClock)
	if c == nil {
		return func() {}
	}
	c.mu.Lock()
	c.held++
	if c.held == 1 && c.timer != nil {
		c.timer.Stop()
		c.timer = nil
		c.left -= time.Since(c.started)
		c.started = time.Time{}
	}
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.held--
		if c.held == 0 && !c.done {
			c.started = time.Now()
			c.timer = time.AfterFunc(max(c.left, 0), c.fire)
		}
	}
}
