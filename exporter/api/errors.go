package api

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"
)

// Sentinel errors, one per class of HTTP status. An *Error matches exactly
// one of them with errors.Is.
var (
	// ErrUnauthorized matches 401: the token is invalid, expired or
	// missing.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrForbidden matches 403: the token has no access to the resource.
	ErrForbidden = errors.New("forbidden")
	// ErrNotFound matches 404: the resource does not exist.
	ErrNotFound = errors.New("not found")
	// ErrBadRequest matches 400 and every other 4xx not listed here.
	ErrBadRequest = errors.New("bad request")
	// ErrRateLimited matches 429; Error.RetryAfter says how long to wait.
	ErrRateLimited = errors.New("rate limit exceeded")
	// ErrServer matches 5xx, and any other status a client cannot use
	// (an unfollowed 3xx, a 1xx).
	ErrServer = errors.New("server error")
)

// ErrBodyTooLarge is wrapped by the error of Do when a response body is
// larger than the limit of WithMaxBodyBytes.
var ErrBodyTooLarge = errors.New("response body too large")

// ErrPlainHTTP is matched by the error of New for a plain-HTTP base URL
// on a host that is not a loopback address, given without WithAllowHTTP:
// the token would travel unencrypted. Callers that name their own setting
// for WithAllowHTTP (curex's --allow-http) find it with errors.Is.
var ErrPlainHTTP = errors.New("plain HTTP to a host that is not loopback")

// plainHTTPError is New's refusal of a plain-HTTP base URL; it matches
// ErrPlainHTTP.
type plainHTTPError struct{ shown string }

func (e *plainHTTPError) Error() string {
	return "api: base URL " + e.shown + " is not HTTPS: the token would travel unencrypted to a host that is not a loopback address; use https://, or allow plain HTTP on a network you trust"
}

// Is reports whether target is ErrPlainHTTP.
func (e *plainHTTPError) Is(target error) bool { return target == ErrPlainHTTP }

// ErrCache is wrapped by the error of a response that was received and
// decoded but could not be stored in the Client's Cache (a full disk, a
// folder that is not writable). Asking again would not help: Retryable is
// false for it.
var ErrCache = errors.New("cache write failed")

// Error is an API answer with a status other than 2xx or 304, as returned
// by CheckResponse. Its message names the request but never the token.
type Error struct {
	// Method and Path name the request; Path includes the query string.
	Method, Path string
	// StatusCode is the HTTP status received.
	StatusCode int
	// Code and Message are error.code and error.message of the body
	// (spec section 7); empty when the body had none.
	Code, Message string
	// Details is error.details of the body, nil when absent.
	Details map[string]any
	// RetryAfter is the wait the Retry-After header asked for (seconds or
	// an HTTP date) on 429 and 5xx answers; 0 when absent.
	RetryAfter time.Duration
	// HasRetryAfter reports whether a valid Retry-After header was sent.
	HasRetryAfter bool
	// Snippet is the start of a body that held no error message (such as
	// an HTML page from a proxy), without control characters.
	Snippet string
}

// Error returns a message such as
// `GET /api/v1/curricula/101: 404 not_found: curriculum "101" not found`.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Method != "" || e.Path != "" {
		b.WriteString(strings.TrimSpace(e.Method + " " + e.Path))
		b.WriteString(": ")
	}
	b.WriteString(strconv.Itoa(e.StatusCode))
	switch {
	case e.Code != "":
		b.WriteString(" " + e.Code)
	case e.Message == "":
		if t := http.StatusText(e.StatusCode); t != "" {
			b.WriteString(" " + t)
		}
	}
	switch {
	case e.Message != "":
		b.WriteString(": " + e.Message)
	case e.Snippet != "":
		b.WriteString(": " + strconv.Quote(e.Snippet))
	}
	if e.HasRetryAfter {
		b.WriteString(" (retry after " + e.RetryAfter.String() + ")")
	}
	return b.String()
}

// Is reports whether target is the sentinel of e's status class:
// ErrUnauthorized (401), ErrForbidden (403), ErrNotFound (404),
// ErrRateLimited (429), ErrBadRequest (other 4xx) or ErrServer (5xx and
// other unusable statuses).
func (e *Error) Is(target error) bool {
	return target != nil && target == e.class()
}

func (e *Error) class() error {
	switch s := e.StatusCode; {
	case s == http.StatusUnauthorized:
		return ErrUnauthorized
	case s == http.StatusForbidden:
		return ErrForbidden
	case s == http.StatusNotFound:
		return ErrNotFound
	case s == http.StatusTooManyRequests:
		return ErrRateLimited
	case s >= 400 && s <= 499:
		return ErrBadRequest
	default:
		return ErrServer
	}
}

// DecodeError reports a 2xx response body that is not the JSON expected: an
// HTML page from a proxy or a wrong base URL, a cut body, or a document of
// another shape.
type DecodeError struct {
	// Method and Path name the request (empty for Decode and
	// DecodeResolved); Path includes the query string.
	Method, Path string
	// ContentType is the response's Content-Type header.
	ContentType string
	// Snippet is the start of the body, without control characters.
	Snippet string
	// Err is the decoding error.
	Err error
	// Complete reports that the body arrived whole: as long as its
	// Content-Length, chunked to its last chunk, or ended by an HTTP/2
	// stream. Asking again returns the same body, so Retryable is false
	// for it. A body that only the connection's close ended may have been
	// cut.
	Complete bool
}

// Error names the request, the Content-Type and the start of the body.
func (e *DecodeError) Error() string {
	var b strings.Builder
	if e.Method != "" || e.Path != "" {
		b.WriteString(strings.TrimSpace(e.Method + " " + e.Path))
		b.WriteString(": ")
	}
	b.WriteString("response is not the JSON expected (")
	if e.ContentType != "" {
		b.WriteString("Content-Type " + strconv.Quote(e.ContentType))
	} else {
		b.WriteString("no Content-Type")
	}
	if e.Snippet != "" {
		b.WriteString(", body " + strconv.Quote(e.Snippet))
	} else {
		b.WriteString(", empty body")
	}
	b.WriteString(")")
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the decoding error.
func (e *DecodeError) Unwrap() error { return e.Err }

// CheckResponse returns nil when resp has a 2xx or 304 status, and an
// *Error otherwise, read from body (the whole or leading response body, which
// may be nil) and from the Retry-After header. req names the request in the
// message; when nil, resp.Request is used.
func CheckResponse(req *http.Request, resp *http.Response, body []byte) error {
	if resp == nil {
		return errors.New("api: CheckResponse: nil response")
	}
	if (resp.StatusCode >= 200 && resp.StatusCode <= 299) || resp.StatusCode == http.StatusNotModified {
		return nil
	}
	if req == nil {
		req = resp.Request
	}
	e := &Error{StatusCode: resp.StatusCode}
	if req != nil {
		e.Method, e.Path = req.Method, requestPath(req)
	}
	parseErrorBody(e, body)
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		e.RetryAfter, e.HasRetryAfter = ParseRetryAfter(resp.Header.Get("Retry-After"), resp.Header.Get("Date"), time.Now())
	}
	return e
}

// Limits on what an Error keeps of a server's text.
const (
	snippetBytes = 80
	maxCodeLen   = 100
	maxMessage   = 2000
)

// parseErrorBody fills Code, Message and Details from the error body of
// spec section 7, tolerating the other common shapes ({"error": "..."},
// {"errors": [...]}, a top-level code and message). A body with none of
// them leaves a Snippet.
func parseErrorBody(e *Error, body []byte) {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) == nil {
		var obj map[string]json.RawMessage
		switch {
		case json.Unmarshal(top["error"], &obj) == nil && obj != nil:
			e.Code, e.Message = text(obj["code"]), firstText(obj["message"], obj["detail"], obj["title"])
			var d map[string]any
			if json.Unmarshal(obj["details"], &d) == nil {
				e.Details = d
			}
		case text(top["error"]) != "":
			if desc := text(top["error_description"]); desc != "" {
				e.Code, e.Message = text(top["error"]), desc // OAuth style
			} else {
				e.Message = text(top["error"])
			}
		default:
			var list []map[string]json.RawMessage
			if json.Unmarshal(top["errors"], &list) == nil && len(list) > 0 && list[0] != nil {
				e.Code, e.Message = text(list[0]["code"]), firstText(list[0]["detail"], list[0]["message"], list[0]["title"])
			} else {
				e.Code, e.Message = text(top["code"]), firstText(top["message"], top["detail"], top["title"])
			}
		}
	}
	e.Code = sanitize(e.Code, maxCodeLen)
	e.Message = sanitize(e.Message, maxMessage)
	if e.Code == "" && e.Message == "" {
		e.Snippet = sanitize(string(body), snippetBytes)
	}
}

// text returns a JSON string or number as text, and "" for anything else.
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

func firstText(raws ...json.RawMessage) string {
	for _, r := range raws {
		if s := text(r); s != "" {
			return s
		}
	}
	return ""
}

// maxRetryAfter bounds a Retry-After so that adding it to a time cannot
// overflow.
const maxRetryAfter = 100 * 365 * 24 * time.Hour

// ParseRetryAfter reads a Retry-After header: a number of seconds or an
// HTTP date. A date is taken relative to date, the response's Date header,
// when that parses (so clock skew does not matter), else to now. A date in
// the past means 0; waits are capped at 100 years. It reports false for an
// absent or malformed value.
func ParseRetryAfter(v, date string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		secs, err := strconv.ParseFloat(v, 64)
		if (err != nil && !errors.Is(err, strconv.ErrRange)) || math.IsNaN(secs) || secs < 0 {
			return 0, false
		}
		if secs >= maxRetryAfter.Seconds() {
			return maxRetryAfter, true
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d, err := http.ParseTime(strings.TrimSpace(date)); err == nil {
		now = d
	}
	d := at.Sub(now)
	switch {
	case d < 0:
		d = 0
	case d > maxRetryAfter:
		d = maxRetryAfter
	}
	return d, true
}

// sanitize makes server text safe to print: invalid UTF-8 becomes U+FFFD,
// control and format characters (escape sequences, bidi overrides) and runs
// of white space become one space, and the result is cut to about limit
// bytes with "…".
func sanitize(s string, limit int) string {
	var b strings.Builder
	space := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			space = b.Len() > 0
			continue
		}
		if b.Len() >= limit {
			b.WriteString("…")
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r) // utf8.RuneError for invalid bytes
	}
	return b.String()
}

// transportError is a failure to exchange a request, wrapped with the
// request's name; retryable is decided when it happens, knowing whether
// the caller's context had ended.
type transportError struct {
	err       error
	retryable bool
}

func (e *transportError) Error() string { return e.err.Error() }
func (e *transportError) Unwrap() error { return e.err }

// Retryable reports whether err is worth retrying after a pause: a 429 or
// 5xx *Error, a *DecodeError of a 2xx body (a proxy page or cut JSON), or a
// transport failure (a lost connection, a refused connection, a body cut
// short, a timeout). It is false for nil, for other 4xx errors, for a body
// over the size limit or nested deeper than MaxNesting, and when the
// caller's context was canceled or ran out.
func Retryable(err error) bool {
	if err == nil {
		return false
	}
	var te *transportError
	if errors.As(err, &te) {
		return te.retryable
	}
	if errors.Is(err, ErrCache) {
		return false
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var ae *Error
	if errors.As(err, &ae) {
		return ae.StatusCode == http.StatusTooManyRequests || ae.StatusCode >= 500
	}
	var de *DecodeError
	if errors.As(err, &de) {
		return !de.Complete && !errors.Is(err, ErrTooDeep) // else the same body again
	}
	return transient(err)
}

// transient reports whether a transport error is likely to pass: network
// failures and timeouts, but not certificate problems, unknown hosts or
// refused redirects.
func transient(err error) bool {
	var (
		ue       *url.Error
		dnsErr   *net.DNSError
		certErr  *tls.CertificateVerificationError
		unknown  x509.UnknownAuthorityError
		hostErr  x509.HostnameError
		invalid  x509.CertificateInvalidError
		recordHd tls.RecordHeaderError
		netErr   net.Error
	)
	var pathErr *fs.PathError
	if errors.As(err, &ue) {
		err = ue.Err // *url.Error is a net.Error itself; look inside
	}
	switch {
	case err == nil:
		return false
	case errors.As(err, &pathErr):
		// A file's error (its syscall.Errno is a net.Error too): no
		// network fault, and no retry clears it.
		return false
	case errors.As(err, &certErr), errors.As(err, &unknown), errors.As(err, &hostErr), errors.As(err, &invalid), errors.As(err, &recordHd):
		return false
	case errors.As(err, &dnsErr):
		return !dnsErr.IsNotFound
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE),
		errors.Is(err, net.ErrClosed):
		return true
	case errors.As(err, &netErr):
		return true
	}
	return false
}
