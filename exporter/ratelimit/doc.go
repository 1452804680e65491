// Package ratelimit parses request-rate limits such as "60/1m,1000/1h" and
// keeps a sliding-window log that enforces every limit of a list at once.
//
// The same log serves both sides of the Curriculum Content API: the sandbox
// uses it to reject requests past a limit with 429, and the client's
// pace.Limiter uses it to pace its own requests so that it never earns one.
package ratelimit
