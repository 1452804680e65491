// Package pace paces the requests of a run under the Curriculum Content
// API's rate limits (60 requests a minute and 1000 an hour, spec section
// 8), so that a run never earns a 429 of its own making.
//
// Limiter is the one place where a run decides when a request may leave:
// a sliding-window log of the ratelimit package, shared by all workers,
// with a safety margin (never a token bucket, whose burst sends up to
// twice a limit in the first window). A request counts from its answer,
// so no transit time can earn a 429. A 429 pauses everyone until
// Retry-After, then one probe request goes first; 429s while it believed
// it had room lower its estimate of the limits, which then recovers
// slowly. ParseRateHeaders reads what a response says of the server's
// limits (RateLimit-Policy, X-RateLimit-*, Retry-After), which the
// Limiter learns from.
//
// The ratelimit package holds the limits and the log, which the sandbox
// also uses to refuse requests; this package is the client's side. The
// fetch package's Transport asks the Limiter before every attempt.
package pacer
