package retry_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/curex/curex/exporter/internal/retry"
)

var (
	errFlaky = errors.New("flaky")
	errFatal = errors.New("fatal")
)

func retryableFlaky(err error) bool { return errors.Is(err, errFlaky) }

// TestRetryBackoff checks full jitter within [0, min(MaxDelay, Base×2ⁿ⁻¹)).
func TestRetryBackoff(t *testing.T) {
	tests := []struct {
		base, max time.Duration
		attempt   int
		r         float64
		want      time.Duration
	}{
		{0, 0, 1, 0.5, 250 * time.Millisecond}, // defaults: 500ms, 30s
		{0, 0, 1, 0.999, 499500 * time.Microsecond},
		{0, 0, 1, 0, 0},
		{0, 0, 2, 0.5, 500 * time.Millisecond},
		{0, 0, 3, 0.5, time.Second},
		{0, 0, 6, 0.5, 8 * time.Second},
		{0, 0, 7, 0.5, 15 * time.Second}, // 32s capped at 30s
		{0, 0, 8, 0.5, 15 * time.Second},
		{0, 0, 64, 0.5, 15 * time.Second},
		{0, 0, 1000, 0.5, 15 * time.Second},
		{time.Second, 5 * time.Second, 3, 0.25, time.Second},
		{time.Second, 5 * time.Second, 4, 0.25, 1250 * time.Millisecond},
		{time.Hour, 100 * time.Hour, 40, 0.5, 50 * time.Hour},
		{0, 0, 1, 1.5, 0}, // a broken source counts as 0
		{0, 0, 1, -1, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("base=%v/max=%v/attempt=%d/r=%g", tt.base, tt.max, tt.attempt, tt.r), func(t *testing.T) {
			p := retry.Policy{BaseDelay: tt.base, MaxDelay: tt.max, Rand: func() float64 { return tt.r }}
			if got := p.Backoff(tt.attempt); got != tt.want {
				t.Errorf("Backoff(%d) = %v, want %v", tt.attempt, got, tt.want)
			}
		})
	}
}

// TestRetryDo runs scenarios in virtual time and checks the attempts, the
// waits and the error.
func TestRetryDo(t *testing.T) {
	tests := []struct {
		name string
		p    retry.Policy
		// errs are the errors of the attempts, in order; past the end, nil.
		errs         []error
		wantAttempts int
		wantWaits    []time.Duration
		wantErr      error // matched with errors.Is; nil for success
		wantRetryErr bool  // the error is a *RetryError
	}{
		{
			name:         "succeeds at once",
			p:            retry.Policy{Retryable: retryableFlaky},
			wantAttempts: 1,
		},
		{
			name:         "succeeds after two failures",
			p:            retry.Policy{Retryable: retryableFlaky},
			errs:         []error{errFlaky, errFlaky},
			wantAttempts: 3,
			wantWaits:    []time.Duration{250 * time.Millisecond, 500 * time.Millisecond},
		},
		{
			name:         "non-retryable at once",
			p:            retry.Policy{Retryable: retryableFlaky},
			errs:         []error{errFatal},
			wantAttempts: 1,
			wantErr:      errFatal,
		},
		{
			name:         "non-retryable after a retry",
			p:            retry.Policy{Retryable: retryableFlaky},
			errs:         []error{errFlaky, errFatal},
			wantAttempts: 2,
			wantWaits:    []time.Duration{250 * time.Millisecond},
			wantErr:      errFatal,
		},
		{
			name:         "attempts run out",
			p:            retry.Policy{Retryable: retryableFlaky},
			errs:         []error{errFlaky, errFlaky, errFlaky, errFlaky, errFlaky, errFlaky, errFlaky},
			wantAttempts: 6,
			wantWaits:    []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second},
			wantErr:      errFlaky,
			wantRetryErr: true,
		},
		{
			name:         "MaxAttempts 1",
			p:            retry.Policy{MaxAttempts: 1, Retryable: retryableFlaky},
			errs:         []error{errFlaky},
			wantAttempts: 1,
			wantErr:      errFlaky,
			wantRetryErr: true,
		},
		{
			name:         "backoff bounded by MaxDelay",
			p:            retry.Policy{MaxAttempts: 5, BaseDelay: time.Second, MaxDelay: 3 * time.Second, Retryable: retryableFlaky},
			errs:         []error{errFlaky, errFlaky, errFlaky, errFlaky},
			wantAttempts: 5,
			wantWaits:    []time.Duration{500 * time.Millisecond, time.Second, 1500 * time.Millisecond, 1500 * time.Millisecond},
		},
		{
			name: "RetryAfter waits at least that long",
			p: retry.Policy{Retryable: retryableFlaky, RetryAfter: func(err error) (time.Duration, bool) {
				return 10 * time.Second, errors.Is(err, errFlaky)
			}},
			errs:         []error{errFlaky, errFlaky},
			wantAttempts: 3,
			wantWaits:    []time.Duration{10 * time.Second, 10 * time.Second},
		},
		{
			name: "RetryAfter shorter than the backoff",
			p: retry.Policy{BaseDelay: time.Minute, MaxDelay: time.Hour, Retryable: retryableFlaky, RetryAfter: func(error) (time.Duration, bool) {
				return time.Second, true
			}},
			errs:         []error{errFlaky},
			wantAttempts: 2,
			wantWaits:    []time.Duration{30 * time.Second},
		},
		{
			name: "RetryAfter says nothing (a 429)",
			p: retry.Policy{Retryable: retryableFlaky, RetryAfter: func(error) (time.Duration, bool) {
				return 0, false
			}},
			errs:         []error{errFlaky},
			wantAttempts: 2,
			wantWaits:    []time.Duration{250 * time.Millisecond},
		},
		{
			name:         "ErrFinal is never retried",
			p:            retry.Policy{Retryable: func(error) bool { return true }},
			errs:         []error{fmt.Errorf("get: %w", retry.ErrFinal)},
			wantAttempts: 1,
			wantErr:      retry.ErrFinal,
		},
		{
			name:         "nil Retryable retries nothing",
			p:            retry.Policy{},
			errs:         []error{errFlaky},
			wantAttempts: 1,
			wantErr:      errFlaky,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := tt.p
				p.Rand = func() float64 { return 0.5 }
				var waits []time.Duration
				p.OnRetry = func(attempt int, err error, wait time.Duration) {
					if attempt != len(waits)+1 || err == nil {
						t.Errorf("OnRetry(%d, %v) after %d retries", attempt, err, len(waits))
					}
					waits = append(waits, wait)
				}
				attempts := 0
				start := time.Now()
				var sum time.Duration
				err := p.Do(t.Context(), func(ctx context.Context) error {
					if elapsed := time.Since(start); elapsed != sum {
						t.Errorf("attempt %d after %v, want %v", attempts+1, elapsed, sum)
					}
					attempts++
					var err error
					if attempts <= len(tt.errs) {
						err = tt.errs[attempts-1]
					}
					if err != nil && attempts <= len(tt.wantWaits) {
						sum += tt.wantWaits[attempts-1]
					}
					return err
				})
				if attempts != tt.wantAttempts {
					t.Errorf("%d attempts, want %d", attempts, tt.wantAttempts)
				}
				if fmt.Sprint(waits) != fmt.Sprint(tt.wantWaits) && (len(waits) > 0 || len(tt.wantWaits) > 0) {
					t.Errorf("waits %v, want %v", waits, tt.wantWaits)
				}
				switch {
				case tt.wantErr == nil && err != nil:
					t.Errorf("error %v, want success", err)
				case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
					t.Errorf("error %v, want %v", err, tt.wantErr)
				}
				var re *retry.Error
				if errors.As(err, &re) != tt.wantRetryErr {
					t.Errorf("error %v (%T): RetryError %v, want %v", err, err, re != nil, tt.wantRetryErr)
				} else if re != nil && re.Attempts != tt.wantAttempts {
					t.Errorf("RetryError.Attempts %d, want %d", re.Attempts, tt.wantAttempts)
				}
			})
		})
	}
}

// TestRetryContextDone checks that Do stops waiting at once when its
// context ends, and never retries after.
func TestRetryContextDone(t *testing.T) {
	tests := []struct {
		name string
		// cancelAfter cancels the context this long after the start.
		cancelAfter time.Duration
		// duringOp cancels inside the first attempt instead.
		duringOp     bool
		wantAttempts int
		wantElapsed  time.Duration
	}{
		{"during the backoff", 10 * time.Second, false, 1, 10 * time.Second},
		{"during the attempt", 0, true, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				if tt.cancelAfter > 0 {
					time.AfterFunc(tt.cancelAfter, cancel)
				}
				p := retry.Policy{BaseDelay: time.Minute, MaxDelay: time.Minute, Retryable: func(error) bool { return true }, Rand: func() float64 { return 0.9 }}
				attempts := 0
				start := time.Now()
				err := p.Do(ctx, func(context.Context) error {
					attempts++
					if tt.duringOp {
						cancel()
					}
					return errFlaky
				})
				if !errors.Is(err, context.Canceled) || !errors.Is(err, errFlaky) {
					t.Errorf("error %v, want one matching context.Canceled and the last error", err)
				}
				if attempts != tt.wantAttempts || time.Since(start) != tt.wantElapsed {
					t.Errorf("%d attempts in %v, want %d in %v", attempts, time.Since(start), tt.wantAttempts, tt.wantElapsed)
				}
			})
		})
	}
}

// TestRetryAttemptTimeout checks that each attempt gets its own context
// with AttemptTimeout, and that a timed-out attempt is retried.
func TestRetryAttemptTimeout(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		// hang is how long each attempt takes unless canceled.
		hang         []time.Duration
		wantAttempts int
		wantElapsed  time.Duration
		wantErr      bool
	}{
		{"every attempt hangs", 10 * time.Second, []time.Duration{time.Hour, time.Hour, time.Hour}, 3, 30 * time.Second, true},
		{"second attempt is quick", 10 * time.Second, []time.Duration{time.Hour, time.Second}, 2, 11 * time.Second, false},
		{"default timeout is 60s", 0, []time.Duration{time.Hour, 0}, 2, time.Minute, false},
		{"no timeout", -1, []time.Duration{time.Hour}, 1, time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := retry.Policy{MaxAttempts: 3, AttemptTimeout: tt.timeout, Retryable: retryableFlaky, Rand: func() float64 { return 0 }}
				attempts := 0
				start := time.Now()
				err := p.Do(t.Context(), func(ctx context.Context) error {
					d := tt.hang[attempts]
					attempts++
					if _, ok := ctx.Deadline(); ok {
						t.Error("the attempt context has a deadline; the timeout is a pausable clock")
					}
					select {
					case <-time.After(d):
						return nil
					case <-ctx.Done():
						return fmt.Errorf("op: %w", ctx.Err())
					}
				})
				if (err != nil) != tt.wantErr || attempts != tt.wantAttempts || time.Since(start) != tt.wantElapsed {
					t.Fatalf("%d attempts in %v: %v", attempts, time.Since(start), err)
				}
				if tt.wantErr {
					var re *retry.Error
					if !errors.As(err, &re) || !errors.Is(err, context.DeadlineExceeded) {
						t.Errorf("error %v, want a RetryError matching context.DeadlineExceeded", err)
					}
				}
			})
		})
	}
}

func TestRetryThrottledDoesNotUseAttempts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		errThrottled := errors.New("429")
		errBroken := errors.New("500")
		tests := []struct {
			name    string
			errs    []error // answers in order; past the end: success
			wantErr bool
			calls   int
		}{
			{"throttled answers are free", []error{errThrottled, errThrottled, errThrottled, errThrottled, errBroken}, false, 6},
			{"other errors still bounded", []error{errBroken, errThrottled, errBroken, errBroken}, true, 4},
			{"throttled answers bounded too", repeat(errThrottled, 10), true, 3 + 3},
		}
		for _, tt := range tests {
			calls := 0
			p := retry.Policy{
				MaxAttempts: 3, MaxThrottled: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond,
				Retryable: func(error) bool { return true },
				Throttled: func(err error) bool { return errors.Is(err, errThrottled) },
				Rand:      func() float64 { return 0.5 },
			}
			err := p.Do(t.Context(), func(context.Context) error {
				calls++
				if calls <= len(tt.errs) {
					return tt.errs[calls-1]
				}
				return nil
			})
			if (err != nil) != tt.wantErr || calls != tt.calls {
				t.Errorf("%s: err %v after %d calls; want error %v after %d", tt.name, err, calls, tt.wantErr, tt.calls)
			}
		}
	})
}

func repeat(err error, n int) []error {
	out := make([]error, n)
	for i := range out {
		out[i] = err
	}
	return out
}
