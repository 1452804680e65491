// Package api is the typed client of the Curriculum Content API
// (shared/spec/curriculum-content-api.md).
//
// A Client is layered as NewRequest → Do → typed result: one method per
// endpoint builds the request, Do sends it, reads the whole body, turns any
// status other than 2xx or 304 into an *Error (CheckResponse is the one
// place that does), and decodes the JSON envelope into a result type.
//
//	c, err := api.New("https://curriculum.example.org", token, api.WithCache(cache))
//	page, _, err := c.ListCurricula(ctx, api.ListOptions{RootOnly: true})
//	tree, resp, err := c.Resolved(ctx, "101", api.ResolveOptions{Variant: "Texas", Locale: "es"})
//
// The eight endpoints are Me, ListCurricula, Curriculum, Variants, Locales,
// Resolved, Node and ResolvedNode.
//
// # Errors
//
// An *Error carries the status, the error code and message of the body, and
// the Retry-After of 429 and 5xx answers. It matches one sentinel with
// errors.Is: ErrUnauthorized, ErrForbidden, ErrNotFound, ErrBadRequest,
// ErrRateLimited or ErrServer. A 2xx body that is not the JSON expected (an
// HTML page from a proxy, a cut body) is a *DecodeError. Retryable tells
// which errors are worth retrying. Messages name the request (method, path
// and query), never the token; a token a server echoes is replaced by
// [REDACTED].
//
// # Decoding
//
// Decoding is tolerant: both curriculum record shapes are read (name or
// title; root nodes under content_nodes or root_nodes; an optional top-level
// status), every record is read as a resource object (fields under
// attributes) or as a plain object (fields at the top, as the
// specification describes the locale progress entry), unknown members are ignored, missing ones leave zero values,
// statuses the specification does not list are kept as they are, and the
// free-form attributes of a node are kept whole as raw JSON. Decode and
// DecodeResolved read stored bodies without a request.
//
// # Security
//
// The token travels as a bearer token, over HTTPS unless the host is a
// loopback address or WithAllowHTTP is given, and never on a redirect that
// leaves the origin (scheme, host and port) of the request. TokenFromEnv
// and ReadTokenFile load a token; no error of this package prints one.
//
// # Caching
//
// With WithCache, the Client sends If-None-Match for cached paths and reuses
// the cached body when the server answers 304 Not Modified
// (Response.NotModified). A process that reads the same cached answers
// over and over (the builds of a curex dev session) gives its Clients one
// DecodedMemo (WithDecodedMemo): a resolved curriculum is then decoded
// once per ETag. The package keeps no global state and logs nothing.
package api
