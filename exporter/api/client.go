package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
)

// DefaultMaxBodyBytes is the largest response body a Client reads unless
// WithMaxBodyBytes says otherwise.
const DefaultMaxBodyBytes int64 = 256 << 20

// DefaultUserAgent is the User-Agent header a Client sends unless
// WithUserAgent says otherwise.
const DefaultUserAgent = "curex-api-client (+https://github.com/curex/curex)"

// apiPrefix is the path of the API version below the base URL (spec 9).
const apiPrefix = "/api/v1"

// maxRedirects is how many redirects a request follows, as net/http does by
// default.
const maxRedirects = 10

// maxErrorBody bounds what is read of a non-2xx body: enough for any error
// message, and a wrong endpoint serving a huge page costs nothing.
const maxErrorBody = 1 << 20

// Client is a client of the Curriculum Content API. Create one with New. A
// Client is safe for concurrent use; it holds no state that changes after
// New except what its Cache keeps.
type Client struct {
	base      *url.URL // scheme://host[:port][/prefix], without /api/v1
	prefix    string   // escaped path of base, without a trailing slash
	token     string
	auth      string // "Bearer " + token
	hc        *http.Client
	userHC    *http.Client // from WithHTTPClient
	cache     Cache
	memo      *DecodedMemo // from WithDecodedMemo, with its scope
	memoScope string
	userAgent string
	allowHTTP bool
	maxBody   int64
}

// Option configures a Client in New.
type Option func(*Client)

// WithHTTPClient makes the Client send requests through hc: its Transport,
// Timeout and Jar are used (the fetch layer injects a rate-limited
// transport this way). hc itself is not modified. Its CheckRedirect, if set,
// still runs, but only after the Client's own rule, which removes the
// Authorization header from any redirect that leaves the origin (scheme,
// host and port) of the first request. Without this option requests use
// http.DefaultTransport and have no time limit but their context's.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) { c.userHC = hc }
}

// WithCache makes the Client send If-None-Match for bodies it has cached and
// reuse them when the server answers 304 Not Modified. See Cache.
func WithCache(cache Cache) Option {
	return func(c *Client) { c.cache = cache }
}

// WithUserAgent sets the User-Agent header of every request. An empty ua
// keeps DefaultUserAgent.
func WithUserAgent(ua string) Option {
	return func(c *Client) {
		if ua != "" {
			c.userAgent = ua
		}
	}
}

// WithAllowHTTP allows a plain-HTTP base URL on a host that is not a
// loopback address. The token then travels unencrypted; use it only on a
// network you trust.
func WithAllowHTTP() Option {
	return func(c *Client) { c.allowHTTP = true }
}

// WithMaxBodyBytes sets the largest response body the Client reads; a larger
// body is an error wrapping ErrBodyTooLarge that names the limit. n <= 0
// keeps DefaultMaxBodyBytes (256 MiB).
func WithMaxBodyBytes(n int64) Option {
	return func(c *Client) {
		if n > 0 {
			c.maxBody = n
		}
	}
}

// New returns a Client of the API served at baseURL, such as
// https://curriculum.example.org or http://127.0.0.1:8080, authenticated by
// the bearer token. Endpoint paths (/api/v1/...) are appended to baseURL;
// a trailing slash or a trailing /api/v1 in baseURL is tolerated.
//
// New fails when the token is empty or malformed, when baseURL is not an
// absolute http or https URL with a host (or carries credentials, a query or
// a fragment), and when it uses plain HTTP on a host that is not a loopback
// address (127.0.0.0/8, ::1 or localhost) unless WithAllowHTTP is given. No
// error names the token.
func New(baseURL, token string, opts ...Option) (*Client, error) {
	c := &Client{userAgent: DefaultUserAgent, maxBody: DefaultMaxBodyBytes}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if err := checkToken(token); err != nil {
		return nil, fmt.Errorf("api: %w", err)
	}
	base, prefix, err := parseBaseURL(baseURL, c.allowHTTP)
	if err != nil {
		return nil, err
	}
	c.base, c.prefix = base, prefix
	c.token, c.auth = token, "Bearer "+token
	c.hc = c.newHTTPClient()
	return c, nil
}

// parseBaseURL checks and normalizes the base URL of New. It returns the
// URL without a trailing slash or /api/v1, and its escaped path.
func parseBaseURL(raw string, allowHTTP bool) (*url.URL, string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, "", errors.New("api: empty base URL: want one such as https://curriculum.example.org")
	}
	u, err := url.Parse(raw)
	if err != nil {
		// The url.Error would repeat raw, which may hold a password.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, "", fmt.Errorf("api: base URL is not a valid URL (%w): want an absolute https:// URL such as https://curriculum.example.org", err)
	}
	shown := u.Redacted()
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme != "http" && scheme != "https":
		return nil, "", fmt.Errorf("api: base URL %s: want an absolute https:// URL (or http:// on a loopback address)", shown)
	case u.Opaque != "" || u.Host == "" || u.Hostname() == "":
		return nil, "", fmt.Errorf("api: base URL %s has no host", shown)
	case u.User != nil:
		return nil, "", fmt.Errorf("api: base URL %s carries credentials; pass the token separately", shown)
	case u.RawQuery != "" || u.ForceQuery:
		return nil, "", fmt.Errorf("api: base URL %s has a query; give only scheme, host and path", shown)
	case u.Fragment != "":
		return nil, "", fmt.Errorf("api: base URL %s has a fragment; give only scheme, host and path", shown)
	case scheme == "http" && !allowHTTP && !isLoopback(u.Hostname()):
		return nil, "", &plainHTTPError{shown: shown}
	}
	p := strings.TrimRight(u.EscapedPath(), "/")
	p = strings.TrimRight(strings.TrimSuffix(p, apiPrefix), "/")
	path, err := url.PathUnescape(p)
	if err != nil {
		return nil, "", fmt.Errorf("api: base URL %s: path: %w", shown, err)
	}
	return &url.URL{Scheme: scheme, Host: u.Host, Path: path, RawPath: p}, p, nil
}

// isLoopback reports whether host (without a port) names the local machine:
// localhost, 127.0.0.0/8 or ::1.
func isLoopback(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}

// newHTTPClient returns the http.Client the Client sends with: a copy of the
// one given to WithHTTPClient (or a plain one) whose CheckRedirect applies
// the same-origin rule for the token.
func (c *Client) newHTTPClient() *http.Client {
	var hc http.Client
	if c.userHC != nil {
		hc = *c.userHC
	}
	next := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > 0 && !sameOrigin(req.URL, via[0].URL) {
			req.Header.Del("Authorization")
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		return nil
	}
	return &hc
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (default ports made explicit).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		portOf(a) == portOf(b)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}

// BaseURL returns a copy of the normalized base URL: scheme, host and any
// path prefix, without /api/v1 or a trailing slash.
func (c *Client) BaseURL() *url.URL {
	u := *c.base
	return &u
}

// String describes the Client without its token, so that printing a Client
// (even with %+v) never shows it.
func (c *Client) String() string {
	return "api.Client(" + c.base.String() + ")"
}

// GoString is like String, for %#v.
func (c *Client) GoString() string { return c.String() }

// Cache lets the Client send If-None-Match and reuse bodies on 304 Not
// Modified. Keys are the request's path and query (no host, no token), so
// one Cache should serve one base URL. Implementations must be safe for
// concurrent use when the Client is used concurrently.
type Cache interface {
	// Get returns the ETag and body stored under key, and whether there
	// is an entry. The Client does not modify body.
	Get(key string) (etag string, body []byte, ok bool)
	// Put stores body and its ETag under key, replacing any entry. It may
	// keep body: the Client does not modify it afterwards.
	Put(key, etag string, body []byte) error
}

// Response is an answer of the API: a 2xx or 304 one on success, or the
// answer that caused an error. Body must not be modified: it may be shared
// with the Cache.
type Response struct {
	// StatusCode is 200 (or another 2xx), or 304 when NotModified. On an
	// error it is the status received.
	StatusCode int
	// ETag is the response's ETag header, or the cached one on a 304
	// without it.
	ETag string
	// NotModified reports that the server answered 304 and Body came from
	// the Cache.
	NotModified bool
	// Header holds the response headers.
	Header http.Header
	// Body is the raw JSON body (from the Cache on a 304).
	Body []byte
}

// NewRequest returns a GET request for an endpoint with Accept,
// Authorization and User-Agent set. path is the escaped endpoint path below
// /api/v1, such as "me" or "curricula/"+url.PathEscape(id); a leading slash
// or a leading /api/v1/ is tolerated. query may be nil; it is encoded in
// sorted order.
func (c *Client) NewRequest(ctx context.Context, path string, query url.Values) (*http.Request, error) {
	p := strings.TrimPrefix(path, "/")
	p = strings.TrimPrefix(p, strings.TrimPrefix(apiPrefix, "/")+"/")
	if p == "" {
		return nil, errors.New("api: NewRequest: empty endpoint path")
	}
	if strings.ContainsAny(p, "?#") {
		return nil, fmt.Errorf("api: NewRequest: path %q holds a query or fragment; pass the query as url.Values", path)
	}
	escaped := c.prefix + apiPrefix + "/" + p
	unescaped, err := url.PathUnescape(escaped)
	if err != nil {
		return nil, fmt.Errorf("api: NewRequest: path %q is not properly escaped: %w", path, err)
	}
	u := &url.URL{Scheme: c.base.Scheme, Host: c.base.Host, Path: unescaped, RawPath: escaped, RawQuery: query.Encode()}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("api: NewRequest: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", c.auth)
	req.Header.Set("User-Agent", c.userAgent)
	return req, nil
}

// Do sends req and returns the response, decoding its JSON body into v when
// v is not nil. v may point to one of this package's result types (User,
// CurriculumPage, ResolvedCurriculum, ...), which are read from the API's
// envelope as the typed methods read them, or to anything encoding/json can
// decode into.
//
// With a Cache, a GET for a cached path carries If-None-Match; a 304 answer
// reuses the cached body (Response.NotModified), and a 200 answer with an
// ETag is stored. A 304 with no cached body is an error; a cached body that
// no longer decodes is fetched again without If-None-Match.
//
// Non-2xx answers are returned as *Error by CheckResponse. A 2xx body that
// is not JSON (such as an HTML page from a proxy or a wrong base URL) or
// does not decode into v is a *DecodeError. A body larger than the limit of
// WithMaxBodyBytes wraps ErrBodyTooLarge. Transport failures, including a
// connection lost mid-body, are returned wrapped with the request named;
// Retryable tells which errors are worth retrying. The Response is returned
// whenever an answer was received, also with an error.
func (c *Client) Do(req *http.Request, v any) (*Response, error) {
	return c.do(req, v, true)
}

func (c *Client) do(req *http.Request, v any, useCache bool) (*Response, error) {
	if req == nil || req.URL == nil {
		return nil, errors.New("api: Do: nil request")
	}
	method, path := req.Method, requestPath(req)
	if method == "" {
		method = http.MethodGet // as net/http reads it
	}
	key := ""
	if c.cache != nil && method == http.MethodGet {
		key = req.URL.RequestURI()
	}
	var (
		cachedTag  string
		cachedBody []byte
		cached     bool
	)
	send := req
	if key != "" && useCache {
		cachedTag, cachedBody, cached = c.cache.Get(key)
		cached = cached && cachedTag != ""
		if cached {
			send = req.Clone(req.Context())
			send.Header.Set("If-None-Match", cachedTag)
		}
	}

	resp, err := c.hc.Do(send)
	if err != nil {
		return nil, &transportError{
			err:       fmt.Errorf("%s %s: %w", method, path, err),
			retryable: req.Context().Err() == nil && transient(err),
		}
	}
	defer resp.Body.Close()

	r := &Response{StatusCode: resp.StatusCode, ETag: resp.Header.Get("ETag"), Header: resp.Header}
	ok := resp.StatusCode >= 200 && resp.StatusCode <= 299
	body, err := c.readBody(req, resp, ok)
	r.Body = body
	if err != nil {
		return r, err
	}
	if err := CheckResponse(req, resp, c.scrubBody(body)); err != nil {
		return r, c.scrubError(err)
	}
	ctype := resp.Header.Get("Content-Type")

	if resp.StatusCode == http.StatusNotModified {
		if !cached {
			return r, fmt.Errorf("%s %s: the server answered 304 Not Modified, but the cache holds no body for it", method, path)
		}
		r.NotModified, r.Body = true, cachedBody
		if r.ETag == "" {
			r.ETag = cachedTag
		}
		if err := c.decodeCached(method, path, r.ETag, cachedBody, v); err != nil {
			// The cached copy is damaged: ask for the whole body.
			return c.do(req, v, false)
		}
		return r, nil
	}

	if err := c.decode(method, path, ctype, body, v); err != nil {
		var de *DecodeError
		if errors.As(err, &de) {
			de.Complete = complete(resp, body)
		}
		return r, err
	}
	if key != "" && r.ETag != "" && resp.StatusCode == http.StatusOK {
		if err := c.cache.Put(key, r.ETag, body); err != nil {
			return r, fmt.Errorf("%s %s: store the response in the cache: %w: %w", method, path, ErrCache, err)
		}
	}
	return r, nil
}

// complete reports whether body, read without error, is the whole body the
// server sent: as long as the Content-Length announced, chunked (the last
// chunk arrived), or an HTTP/2 stream (it ended cleanly). A body delimited
// by the connection's close alone may have been cut.
func complete(resp *http.Response, body []byte) bool {
	switch {
	case resp.ContentLength >= 0:
		return int64(len(body)) == resp.ContentLength
	case slices.Contains(resp.TransferEncoding, "chunked"):
		return true
	}
	return resp.ProtoMajor >= 2
}

// requestPath is how errors name a request: its path and query.
func requestPath(req *http.Request) string {
	if req == nil || req.URL == nil {
		return ""
	}
	return req.URL.RequestURI()
}

// bodyReservationKey is the context key of WithBodyReservation.
type bodyReservationKey struct{}

// WithBodyReservation returns a copy of ctx under which the Client, before
// it reads a 2xx body, calls reserve with the most bytes that body can
// take: its Content-Length when the server sent one, else the Client's
// body limit. reserve may block (a caller bounding the bytes of bodies
// held at once waits for room there); an error from it, such as the
// context's, ends the request with that error, not retried. The
// reservation is the caller's to release, once it lets go of the body.
func WithBodyReservation(ctx context.Context, reserve func(ctx context.Context, n int64) error) context.Context {
	return context.WithValue(ctx, bodyReservationKey{}, reserve)
}

// readBody reads the whole body of resp, up to the Client's limit for a 2xx
// answer and up to maxErrorBody (silently cut) for others.
func (c *Client) readBody(req *http.Request, resp *http.Response, ok bool) ([]byte, error) {
	method, path := req.Method, requestPath(req)
	limit := c.maxBody
	if !ok {
		limit = min(limit, maxErrorBody)
	}
	tooLarge := func() error {
		return fmt.Errorf("%s %s: %w: more than %s (raise the limit with WithMaxBodyBytes)", method, path, ErrBodyTooLarge, formatBytes(c.maxBody))
	}
	if ok && resp.ContentLength > limit {
		return nil, tooLarge()
	}
	if reserve, _ := req.Context().Value(bodyReservationKey{}).(func(context.Context, int64) error); ok && reserve != nil {
		n := resp.ContentLength
		if n < 0 {
			n = limit
		}
		if err := reserve(req.Context(), n); err != nil {
			return nil, &transportError{err: fmt.Errorf("%s %s: wait for room to read the body: %w", method, path, err)}
		}
	}
	n := limit
	if n < math.MaxInt64 {
		n++ // one byte more tells a body of exactly limit bytes from a larger one
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, n))
	if err != nil {
		return body, &transportError{
			err:       fmt.Errorf("%s %s: read response body: %w", method, path, err),
			retryable: req.Context().Err() == nil && transient(err),
		}
	}
	if int64(len(body)) > limit {
		if ok {
			return nil, tooLarge()
		}
		body = body[:limit]
	}
	return body, nil
}

// decode checks that body is JSON and decodes it into v.
func (c *Client) decode(method, path, ctype string, body []byte, v any) error {
	if err := decodeInto(body, v); err != nil {
		return &DecodeError{
			Method:      method,
			Path:        path,
			ContentType: ctype,
			Snippet:     sanitize(string(c.scrubBody(body)), snippetBytes),
			Err:         err,
		}
	}
	return nil
}

// bodyDecoder is implemented by the result types, which decode from the
// API's envelope rather than from their own field names.
type bodyDecoder interface {
	decodeBody(body []byte) error
}

// MaxNesting is how deeply a response's JSON may nest (objects and arrays):
// the limit of encoding/json. A resolved tree nests two levels per tree
// level, so this bounds trees at about 5,000 levels.
const MaxNesting = 10000

// ErrTooDeep is wrapped by the *DecodeError of a body that nests deeper
// than MaxNesting. Asking again returns the same body, so Retryable is
// false for it.
var ErrTooDeep = errors.New("the JSON nests too deeply")

// decodeInto checks that body is JSON and decodes it into v (nil: only the
// check).
func decodeInto(body []byte, v any) error {
	// Checked first and said plainly: encoding/json would only report
	// "exceeded max depth", and the error would pass for a damaged body
	// worth asking again.
	if nestsDeeper(body, MaxNesting) {
		return fmt.Errorf("%w: more than %d levels (a tree that deep is broken)", ErrTooDeep, MaxNesting)
	}
	var err error
	switch d := v.(type) {
	case nil:
		if json.Valid(body) {
			return nil
		}
	case bodyDecoder:
		// Every decodeBody reads the whole body with encoding/json first,
		// so a body that is not JSON fails there: it is checked below,
		// not scanned once more before every body that is.
		if err = d.decodeBody(body); err == nil {
			return nil
		}
	default:
		if err = json.Unmarshal(body, v); err == nil {
			return nil
		}
	}
	if !json.Valid(body) {
		// A body that is not JSON is said so, whatever the decoder made
		// of it: Unmarshal reports where it stops being JSON.
		if err := json.Unmarshal(body, &struct{}{}); err != nil {
			return err
		}
		return errors.New("invalid JSON")
	}
	return err
}

// nestsDeeper reports whether the JSON text in body nests more than limit
// objects and arrays deep. Brackets inside strings do not count; a body
// that is not JSON gets an answer that json.Valid then makes irrelevant.
func nestsDeeper(body []byte, limit int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range body {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > limit {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

// redacted replaces the token wherever a server echoes it.
const redacted = "[REDACTED]"

// scrubBody removes the token from a body before any of it is shown.
func (c *Client) scrubBody(body []byte) []byte {
	if c.token == "" || !strings.Contains(string(body), c.token) {
		return body
	}
	return []byte(strings.ReplaceAll(string(body), c.token, redacted))
}

// scrubError removes the token from the fields of an *Error.
func (c *Client) scrubError(err error) error {
	var e *Error
	if !errors.As(err, &e) || c.token == "" {
		return err
	}
	e.Code = strings.ReplaceAll(e.Code, c.token, redacted)
	e.Message = strings.ReplaceAll(e.Message, c.token, redacted)
	e.Snippet = strings.ReplaceAll(e.Snippet, c.token, redacted)
	if e.Details != nil {
		e.Details, _ = c.scrubValue(e.Details).(map[string]any)
	}
	return err
}

func (c *Client) scrubValue(v any) any {
	switch x := v.(type) {
	case string:
		return strings.ReplaceAll(x, c.token, redacted)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[strings.ReplaceAll(k, c.token, redacted)] = c.scrubValue(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = c.scrubValue(val)
		}
		return out
	default:
		return v
	}
}

// get builds and sends a request for path and decodes the answer into v.
func (c *Client) get(ctx context.Context, path string, query url.Values, v any) (*Response, error) {
	req, err := c.NewRequest(ctx, path, query)
	if err != nil {
		return nil, err
	}
	return c.Do(req, v)
}

// escapeID escapes an identifier as one path segment. Dot segments are
// escaped too, so that no id can climb out of its endpoint.
func escapeID(what, id string) (string, error) {
	if id == "" {
		return "", fmt.Errorf("api: empty %s id", what)
	}
	s := url.PathEscape(id)
	if s == "." || s == ".." {
		s = strings.ReplaceAll(s, ".", "%2E")
	}
	return s, nil
}

// formatBytes formats a size for messages, such as 256 MiB.
func formatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
