// Package retry runs an operation again when it fails for a reason that
// may pass: exponential backoff with full jitter, bounded attempts, and a
// timeout per attempt whose clock stops while a request waits for the
// rate limiter (Hold).
//
// Which errors are worth another attempt is injected (Policy.Retryable,
// api.Retryable for the Curriculum Content API: 5xx and transport
// failures), so the package knows nothing of HTTP. Throttled answers (a
// 429, after which the rate limiter already paused everyone) do not use up
// the attempts; errors matching ErrFinal (a request budget used up) are
// never retried.
package retry
