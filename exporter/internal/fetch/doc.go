// Package fetch discovers, plans and fetches the curricula of a run
// through the Curriculum Content API:
//
//   - Discover verifies the token and lists what the Filter selects (base
//     curricula, their variants and locales) into a Plan of exports.
//   - Fetcher fetches the resolved tree of each export, a few at a time,
//     checks it (depth, node count, bodies in flight) and normalizes it
//     into the model.
//   - Transport is the http.RoundTripper every API request goes through:
//     the pace.Limiter before each attempt, retries included, then Stats;
//     it stops sending at the run's request budget or deadline.
//
// Requests are the cost unit, and the other parts of the client live in
// their own packages: pace paces every request under all the API's rate
// limits at once (60 requests a minute and 1000 an hour, spec section 8),
// retry retries 5xx and transport failures with backoff, and etagcache
// keeps ETags and bodies between runs so that conditional requests get
// 304s. Concurrency only hides latency; the Limiter sets the pace.
package fetch
