// Package fetch discovers, plans and fetches the curricula of a run within
// the Curriculum Content API's rate limits (60 requests a minute and 1000
// an hour, spec section 8).
//
// Requests are the cost unit, so the package is built around one shared
// pace-setter:
//
//   - Limiter paces every request of a run under all limits at once, with
//     a sliding-window log shared by all workers (never a token bucket,
//     whose burst sends up to twice a limit in the first window). A 429
//     pauses everyone until Retry-After, then one probe request goes first;
//     429s while it believed it had room lower its estimate of the limits,
//     which then recovers slowly.
//   - Transport is the http.RoundTripper every API request goes through:
//     the Limiter before each attempt, retries included, then Stats.
//   - RetryPolicy retries 5xx and transport failures with exponential
//     backoff and full jitter, bounded attempts and a per-attempt timeout.
//   - DiskCache keeps ETags and bodies between runs, so that conditional
//     requests get 304s and reuse what is already known.
//
// Concurrency only hides latency; the Limiter sets the pace.
package fetch
