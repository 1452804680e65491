// Package sandbox implements the Curriculum Content API
// (shared/spec/curriculum-content-api.md) over a dataset, for tests, demos
// and offline theme work.
//
// A Handler serves all eight endpoints with bearer-token authentication,
// organizations, both curriculum record shapes, pagination, nested variant
// resolution with translation fallback, ETags with conditional requests,
// sliding-window rate limits per token, and seeded fault injection. It is an
// http.Handler, so tests can serve it with httptest.NewServer, or drive it
// without sockets through sandboxtest.Transport (which keeps
// testing/synctest bubbles free of network I/O). Listen serves it on an address, as `curex sandbox`
// does.
//
// Choices made where the specification says "not shown" are documented in
// docs/sandbox.md.
package sandbox
