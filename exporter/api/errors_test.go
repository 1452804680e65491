package api_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
)

var sentinels = []error{api.ErrUnauthorized, api.ErrForbidden, api.ErrNotFound, api.ErrBadRequest, api.ErrRateLimited, api.ErrServer}

// allTokens are never to appear in an error.
var allTokens = []string{sampleToken, northwindToken, expiredToken, tokA, tokB, tokOld, "sandbox-teacher-token"}

// TestErrorClasses provokes every class of error from the sandbox.
func TestErrorClasses(t *testing.T) {
	type call func(c *api.Client, ctx context.Context) error
	me := func(c *api.Client, ctx context.Context) error { _, _, err := c.Me(ctx); return err }
	curriculum := func(id string) call {
		return func(c *api.Client, ctx context.Context) error { _, _, err := c.Curriculum(ctx, id); return err }
	}
	resolved := func(id string, o api.ResolveOptions) call {
		return func(c *api.Client, ctx context.Context) error { _, _, err := c.Resolved(ctx, id, o); return err }
	}
	withRequest := func(edit func(*http.Request)) call {
		return func(c *api.Client, ctx context.Context) error {
			req, err := c.NewRequest(ctx, "me", nil)
			if err != nil {
				return err
			}
			edit(req)
			_, err = c.Do(req, new(api.User))
			return err
		}
	}
	limited, err := ratelimit.Parse("2/1m")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		opts      sandbox.Options
		tiny      bool
		token     string
		warmup    int // calls before the one tested
		call      call
		sentinel  error // nil: a *DecodeError or a transport error
		status    int
		code      string
		path      string // in the message
		retryable bool
		check     func(t *testing.T, err error)
	}{
		{name: "401 missing token", token: sampleToken, call: withRequest(func(r *http.Request) { r.Header.Del("Authorization") }),
			sentinel: api.ErrUnauthorized, status: 401, code: "unauthorized", path: "GET " + prefix + "/api/v1/me"},
		{name: "401 expired token", token: expiredToken, call: me,
			sentinel: api.ErrUnauthorized, status: 401, code: "unauthorized", path: "GET " + prefix + "/api/v1/me"},
		{name: "401 expired token (tiny)", tiny: true, token: tokOld, call: curriculum("b1"),
			sentinel: api.ErrUnauthorized, status: 401, code: "unauthorized", path: "GET " + prefix + "/api/v1/curricula/b1"},
		{name: "401 unknown token", token: "sandbox-riverbend-tokem", call: me,
			sentinel: api.ErrUnauthorized, status: 401, code: "unauthorized"},
		{name: "403 other organization", token: sampleToken, call: curriculum("301"),
			sentinel: api.ErrForbidden, status: 403, code: "forbidden", path: "GET " + prefix + "/api/v1/curricula/301"},
		{name: "403 other organization's node (tiny)", tiny: true, token: tokA,
			call:     func(c *api.Client, ctx context.Context) error { _, _, err := c.Node(ctx, "o1"); return err },
			sentinel: api.ErrForbidden, status: 403, code: "forbidden", path: "/api/v1/content_nodes/o1"},
		{name: "404 curriculum", token: sampleToken, call: curriculum("999"),
			sentinel: api.ErrNotFound, status: 404, code: "not_found", path: "GET " + prefix + "/api/v1/curricula/999"},
		{name: "404 node", tiny: true, token: tokA,
			call: func(c *api.Client, ctx context.Context) error {
				_, _, err := c.ResolvedNode(ctx, "zz", api.ResolveOptions{})
				return err
			},
			sentinel: api.ErrNotFound, status: 404, code: "not_found", path: "/api/v1/content_nodes/zz/resolved"},
		{name: "404 unknown variant", token: sampleToken, call: resolved("101", api.ResolveOptions{Variant: "Atlantis"}),
			sentinel: api.ErrNotFound, status: 404, code: "not_found", path: "/api/v1/curricula/101/resolved?variant=Atlantis",
			check: func(t *testing.T, err error) {
				var e *api.Error
				errors.As(err, &e)
				if e.Details["parameter"] != "variant" || e.Details["available"] == nil {
					t.Errorf("details = %v", e.Details)
				}
			}},
		{name: "404 locale not enabled", token: sampleToken, call: resolved("101", api.ResolveOptions{Locale: "fr"}),
			sentinel: api.ErrNotFound, status: 404, code: "not_found", path: "?locale=fr"},
		{name: "400 bad locale", token: sampleToken, call: resolved("101", api.ResolveOptions{Locale: "x_y"}),
			sentinel: api.ErrBadRequest, status: 400, code: "bad_request", path: "GET " + prefix + "/api/v1/curricula/101/resolved?locale=x_y",
			check: func(t *testing.T, err error) {
				var e *api.Error
				errors.As(err, &e)
				if e.Details["parameter"] != "locale" {
					t.Errorf("details = %v", e.Details)
				}
			}},
		{name: "400 bad status filter", token: sampleToken,
			call: func(c *api.Client, ctx context.Context) error {
				_, _, err := c.ListCurricula(ctx, api.ListOptions{Status: "bogus"})
				return err
			},
			sentinel: api.ErrBadRequest, status: 400, code: "bad_request", path: "/api/v1/curricula?status=bogus"},
		{name: "405 is another 4xx", token: sampleToken, call: withRequest(func(r *http.Request) { r.Method = http.MethodDelete }),
			sentinel: api.ErrBadRequest, status: 405, code: "method_not_allowed", path: "DELETE " + prefix + "/api/v1/me"},
		{name: "429 rate limited", opts: sandbox.Options{Limits: limited}, token: sampleToken, warmup: 2, call: me,
			sentinel: api.ErrRateLimited, status: 429, code: "rate_limit_exceeded", retryable: true,
			check: func(t *testing.T, err error) {
				var e *api.Error
				errors.As(err, &e)
				if !e.HasRetryAfter || e.RetryAfter <= 0 || e.RetryAfter > time.Minute {
					t.Errorf("Retry-After = %v (%v), want (0, 1m]", e.RetryAfter, e.HasRetryAfter)
				}
				if !strings.Contains(err.Error(), "retry after") {
					t.Errorf("message does not say when to retry: %v", err)
				}
			}},
		{name: "429 injected", opts: sandbox.Options{Faults: mustFaults(t, "429=1:7s")}, token: sampleToken, call: me,
			sentinel: api.ErrRateLimited, status: 429, code: "rate_limit_exceeded", retryable: true,
			check: func(t *testing.T, err error) {
				var e *api.Error
				errors.As(err, &e)
				if !e.HasRetryAfter || e.RetryAfter != 7*time.Second {
					t.Errorf("Retry-After = %v (%v), want 7s", e.RetryAfter, e.HasRetryAfter)
				}
			}},
		{name: "500", opts: sandbox.Options{Faults: mustFaults(t, "500=1")}, token: sampleToken, call: me,
			sentinel: api.ErrServer, status: 500, code: "internal_error", retryable: true,
			check: func(t *testing.T, err error) {
				var e *api.Error
				errors.As(err, &e)
				if e.HasRetryAfter || e.RetryAfter != 0 {
					t.Errorf("Retry-After = %v (%v), want none", e.RetryAfter, e.HasRetryAfter)
				}
			}},
		{name: "503 with Retry-After", opts: sandbox.Options{Faults: mustFaults(t, "503=1:2s")}, token: sampleToken, call: curriculum("101"),
			sentinel: api.ErrServer, status: 503, code: "service_unavailable", retryable: true,
			check: func(t *testing.T, err error) {
				var e *api.Error
				errors.As(err, &e)
				if !e.HasRetryAfter || e.RetryAfter != 2*time.Second {
					t.Errorf("Retry-After = %v (%v), want 2s", e.RetryAfter, e.HasRetryAfter)
				}
			}},
		{name: "HTML page with 200", opts: sandbox.Options{Faults: mustFaults(t, "html=1")}, token: sampleToken, call: curriculum("101"),
			// Whole (Content-Length): the same page would come back.
			path: "GET " + prefix + "/api/v1/curricula/101", retryable: false,
			check: func(t *testing.T, err error) {
				var de *api.DecodeError
				if !errors.As(err, &de) {
					t.Fatalf("%v is no *DecodeError", err)
				}
				if de.ContentType != "text/html; charset=utf-8" || !strings.HasPrefix(de.Snippet, "<!DOCTYPE html> <html><head>") || len(de.Snippet) > 90 {
					t.Errorf("DecodeError = %+v", de)
				}
				if !strings.Contains(err.Error(), `Content-Type "text/html; charset=utf-8"`) || !strings.Contains(err.Error(), "<!DOCTYPE html>") {
					t.Errorf("message = %v", err)
				}
			}},
		{name: "truncated JSON with 200", opts: sandbox.Options{Faults: mustFaults(t, "invalid-json=1")}, token: sampleToken, call: me,
			// Cut by the server but whole on the wire (its Content-Length
			// matches): asking again returns the same body.
			path: "GET " + prefix + "/api/v1/me", retryable: false,
			check: func(t *testing.T, err error) {
				var de *api.DecodeError
				var syn *json.SyntaxError
				if !errors.As(err, &de) || !errors.As(err, &syn) || !strings.HasPrefix(de.Snippet, `{"status":"ok"`) {
					t.Errorf("%v: want a *DecodeError wrapping a *json.SyntaxError", err)
				}
			}},
		{name: "body cut mid-way", opts: sandbox.Options{Faults: mustFaults(t, "cut=1")}, token: sampleToken, call: resolved("101", api.ResolveOptions{}),
			path: "GET " + prefix + "/api/v1/curricula/101/resolved", retryable: true,
			check: func(t *testing.T, err error) {
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Errorf("%v does not wrap io.ErrUnexpectedEOF", err)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := sampleDataset(t)
			if tc.tiny {
				ds = tinyDataset(t)
			}
			s := serve(t, ds, tc.opts)
			c := newClient(t, s.BaseURL(), tc.token)
			for range tc.warmup {
				if err := tc.call(c, ctx(t)); err != nil {
					t.Fatalf("warm-up call: %v", err)
				}
			}
			err := tc.call(c, ctx(t))
			if err == nil {
				t.Fatal("no error")
			}
			noToken(t, err, allTokens...)
			if tc.path != "" && !strings.Contains(err.Error(), tc.path) {
				t.Errorf("message %q does not name %q", err, tc.path)
			}
			if got := api.Retryable(err); got != tc.retryable {
				t.Errorf("Retryable = %v, want %v", got, tc.retryable)
			}
			for _, s := range sentinels {
				if got := errors.Is(err, s); got != (s == tc.sentinel) {
					t.Errorf("errors.Is(err, %q) = %v", s, got)
				}
			}
			var e *api.Error
			if isAPI := errors.As(err, &e); isAPI != (tc.sentinel != nil) {
				t.Fatalf("errors.As(*api.Error) = %v for %v", isAPI, err)
			}
			if e != nil {
				if e.StatusCode != tc.status || e.Code != tc.code || e.Message == "" || e.Method == "" || !strings.HasPrefix(e.Path, prefix+"/api/v1/") {
					t.Errorf("Error = %+v", e)
				}
			}
			if tc.check != nil {
				tc.check(t, err)
			}
		})
	}
}

func mustFaults(t *testing.T, spec string) sandbox.Faults {
	t.Helper()
	fs, err := sandbox.ParseFaults(spec)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func TestErrorMessage(t *testing.T) {
	c, _ := setup(t, sampleDataset(t), sampleToken)
	_, _, err := c.Curriculum(ctx(t), "999")
	want := `GET ` + prefix + `/api/v1/curricula/999: 404 not_found: curriculum "999" not found`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
}

// TestServerEchoingTheToken: a server that repeats the token in an error
// message, in details or in a page gets it replaced before anyone sees it.
func TestServerEchoingTheToken(t *testing.T) {
	const tok = "echo-me-0123456789abcdef"
	srv := fixed(t, map[string]http.HandlerFunc{
		"me": jsonBody(401, `{"error":{"code":"unauthorized","message":"token `+tok+` is unknown","details":{"token":"`+tok+`","seen":["`+tok+`"]}}}`),
		"curricula": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			// The snippet ends inside where the token was.
			_, _ = io.WriteString(w, strings.Repeat("x", 70)+r.Header.Get("Authorization")+"<p>you sent that</p>")
		},
		"content_nodes/n": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, "upstream said: "+r.Header.Get("Authorization"))
		},
	})
	c := newClient(t, srv.URL, tok)
	_, _, err1 := c.Me(ctx(t))
	_, _, err2 := c.ListCurricula(ctx(t), api.ListOptions{})
	_, _, err3 := c.Node(ctx(t), "n")
	for _, err := range []error{err1, err2, err3} {
		if err == nil {
			t.Fatal("no error")
		}
		noToken(t, err, tok, tok[:12])
		if err != err2 && !strings.Contains(err.Error(), "[REDACTED]") {
			t.Errorf("error %q does not show where the token was", err)
		}
	}
	var e *api.Error
	if errors.As(err1, &e) && (strings.Contains(e.Details["token"].(string), tok) || strings.Contains(e.Details["seen"].([]any)[0].(string), tok)) {
		t.Errorf("details show the token: %v", e.Details)
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	date := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name       string
		status     int
		date       string // the response's Date header; "-" for none
		retryAfter string
		want       time.Duration
		has        bool
	}{
		{"date relative to the response's Date", 429, date.Format(http.TimeFormat), date.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{"RFC 850 date", 503, date.Format(http.TimeFormat), date.Add(time.Hour).Format(time.RFC850), time.Hour, true},
		{"ANSI C date", 429, date.Format(http.TimeFormat), date.Add(5 * time.Second).Format(time.ANSIC), 5 * time.Second, true},
		{"date in the past", 429, date.Format(http.TimeFormat), date.Add(-time.Minute).Format(http.TimeFormat), 0, true},
		{"seconds", 429, "", "120", 2 * time.Minute, true},
		{"zero seconds", 429, "", "0", 0, true},
		{"fractional seconds", 503, "", "1.5", 1500 * time.Millisecond, true},
		{"huge", 429, "", "99999999999999999999999", 100 * 365 * 24 * time.Hour, true},
		{"negative", 429, "", "-5", 0, false},
		{"garbage", 429, "", "soon", 0, false},
		{"absent", 429, "", "", 0, false},
		{"ignored on 404", 404, "", "30", 0, false},
		{"on 500", 500, "", "30", 30 * time.Second, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fixed(t, map[string]http.HandlerFunc{"me": func(w http.ResponseWriter, r *http.Request) {
				if tc.date != "" {
					w.Header().Set("Date", tc.date)
				}
				if tc.retryAfter != "" {
					w.Header().Set("Retry-After", tc.retryAfter)
				}
				jsonBody(tc.status, `{"error":{"code":"x","message":"y","details":{}}}`)(w, r)
			}})
			c := newClient(t, srv.URL, "tok")
			_, _, err := c.Me(ctx(t))
			var e *api.Error
			if !errors.As(err, &e) {
				t.Fatalf("%v is no *api.Error", err)
			}
			if e.RetryAfter != tc.want || e.HasRetryAfter != tc.has {
				t.Errorf("RetryAfter = %v, %v; want %v, %v", e.RetryAfter, e.HasRetryAfter, tc.want, tc.has)
			}
		})
	}

	// Without a Date header, a date counts from the local clock.
	srv := fixed(t, map[string]http.HandlerFunc{"me": func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Date"] = nil // suppress the automatic Date
		w.Header().Set("Retry-After", time.Now().Add(2*time.Minute).UTC().Format(http.TimeFormat))
		jsonBody(429, `{}`)(w, r)
	}})
	_, _, err := newClient(t, srv.URL, "tok").Me(ctx(t))
	var e *api.Error
	if !errors.As(err, &e) || e.RetryAfter < time.Minute || e.RetryAfter > 2*time.Minute {
		t.Errorf("RetryAfter without Date = %v", err)
	}
}

func TestCheckResponse(t *testing.T) {
	req := httptest.NewRequest(http.MethodGet, "https://api.example.org/api/v1/curricula?page=2", nil)
	for _, tc := range []struct {
		name    string
		status  int
		body    string
		want    string // Error(), or "" for nil
		code    string
		message string
		snippet string
	}{
		{"200", 200, `anything`, "", "", "", ""},
		{"204", 204, ``, "", "", "", ""},
		{"304", 304, ``, "", "", "", ""},
		{"spec body", 404, `{"error":{"code":"not_found","message":"curriculum \"7\" not found","details":{}}}`,
			`GET /api/v1/curricula?page=2: 404 not_found: curriculum "7" not found`, "not_found", `curriculum "7" not found`, ""},
		{"OAuth style", 401, `{"error":"invalid_token","error_description":"The access token expired"}`,
			`GET /api/v1/curricula?page=2: 401 invalid_token: The access token expired`, "invalid_token", "The access token expired", ""},
		{"error string", 400, `{"error":"page must be positive"}`,
			`GET /api/v1/curricula?page=2: 400: page must be positive`, "", "page must be positive", ""},
		{"errors list", 422, `{"errors":[{"code":"invalid","title":"Invalid","detail":"page is too large"}]}`,
			`GET /api/v1/curricula?page=2: 422 invalid: page is too large`, "invalid", "page is too large", ""},
		{"top-level members", 500, `{"code":42,"message":"boom"}`,
			`GET /api/v1/curricula?page=2: 500 42: boom`, "42", "boom", ""},
		{"code only", 403, `{"error":{"code":"forbidden"}}`,
			`GET /api/v1/curricula?page=2: 403 forbidden`, "forbidden", "", ""},
		{"HTML", 502, "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body></html>",
			`GET /api/v1/curricula?page=2: 502 Bad Gateway: "<html> <head><title>502 Bad Gateway</title></head> <body>nginx</body></html>"`, "", "", "<html> <head><title>502 Bad Gateway</title></head> <body>nginx</body></html>"},
		{"empty", 503, ``, `GET /api/v1/curricula?page=2: 503 Service Unavailable`, "", "", ""},
		{"JSON without an error", 400, `{"data":null}`, `GET /api/v1/curricula?page=2: 400 Bad Request: "{\"data\":null}"`, "", "", `{"data":null}`},
		{"escape sequences", 400, `{"error":{"code":"bad\u001b[31m","message":"red\u001b[0m\ttext\u202eevil\r\nnext"}}`,
			`GET /api/v1/curricula?page=2: 400 bad [31m: red [0m text evil next`, "bad [31m", "red [0m text evil next", ""},
		{"unusual status", 302, ``, `GET /api/v1/curricula?page=2: 302 Found`, "", "", ""},
		{"long body", 500, strings.Repeat("é", 500), "", "", "", strings.Repeat("é", 40) + "…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := &http.Response{StatusCode: tc.status, Header: http.Header{}, Request: req}
			err := api.CheckResponse(nil, resp, []byte(tc.body))
			if tc.status < 300 || tc.status == 304 {
				if err != nil {
					t.Errorf("CheckResponse = %v, want nil", err)
				}
				return
			}
			var e *api.Error
			if !errors.As(err, &e) {
				t.Fatalf("CheckResponse = %v, want an *api.Error", err)
			}
			if tc.want != "" && err.Error() != tc.want {
				t.Errorf("Error() = %s\nwant      %s", err, tc.want)
			}
			if e.Code != tc.code || e.Message != tc.message || e.Snippet != tc.snippet {
				t.Errorf("code %q message %q snippet %q", e.Code, e.Message, e.Snippet)
			}
			if e.Method != "GET" || e.Path != "/api/v1/curricula?page=2" || e.StatusCode != tc.status {
				t.Errorf("request = %s %s %d", e.Method, e.Path, e.StatusCode)
			}
			n := 0
			for _, s := range sentinels {
				if errors.Is(err, s) {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%v matches %d sentinels, want 1", err, n)
			}
		})
	}
	if err := api.CheckResponse(nil, nil, nil); err == nil {
		t.Error("CheckResponse(nil response) = nil")
	}
}

func TestErrorIs(t *testing.T) {
	for status, want := range map[int]error{
		400: api.ErrBadRequest, 401: api.ErrUnauthorized, 402: api.ErrBadRequest, 403: api.ErrForbidden, 404: api.ErrNotFound,
		405: api.ErrBadRequest, 409: api.ErrBadRequest, 410: api.ErrBadRequest, 422: api.ErrBadRequest, 429: api.ErrRateLimited,
		500: api.ErrServer, 502: api.ErrServer, 503: api.ErrServer, 504: api.ErrServer, 599: api.ErrServer, 301: api.ErrServer,
	} {
		err := error(&api.Error{StatusCode: status})
		for _, s := range sentinels {
			if got := errors.Is(err, s); got != (s == want) {
				t.Errorf("%d: errors.Is(%q) = %v", status, s, got)
			}
		}
	}
	if errors.Is(&api.Error{StatusCode: 404}, errors.New("not found")) {
		t.Error("an *Error matches an unrelated error with the same text")
	}
}

func TestRetryable(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"canceled", context.Canceled, false},
		{"deadline", context.DeadlineExceeded, false},
		{"wrapped canceled", &url.Error{Op: "Get", URL: "x", Err: context.Canceled}, false},
		{"429", &api.Error{StatusCode: 429}, true},
		{"500", &api.Error{StatusCode: 500}, true},
		{"503", &api.Error{StatusCode: 503}, true},
		{"400", &api.Error{StatusCode: 400}, false},
		{"401", &api.Error{StatusCode: 401}, false},
		{"403", &api.Error{StatusCode: 403}, false},
		{"404", &api.Error{StatusCode: 404}, false},
		{"decode", &api.DecodeError{Err: io.ErrUnexpectedEOF}, true},
		{"unexpected EOF", io.ErrUnexpectedEOF, true},
		{"connection reset", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, true},
		{"connection refused", &url.Error{Op: "Get", URL: "x", Err: &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}}, true},
		{"temporary DNS failure", &net.DNSError{Err: "server misbehaving", Name: "x", IsTemporary: true}, true},
		{"unknown host", &url.Error{Op: "Get", URL: "x", Err: &net.DNSError{Err: "no such host", Name: "x", IsNotFound: true}}, false},
		{"bad certificate", &url.Error{Op: "Get", URL: "x", Err: x509.UnknownAuthorityError{}}, false},
		{"too large", api.ErrBodyTooLarge, false},
		{"other", errors.New("something else"), false},
	} {
		if got := api.Retryable(tc.err); got != tc.want {
			t.Errorf("%s: Retryable(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

func TestRetryableTransportFailures(t *testing.T) {
	t.Run("connection refused", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		base := srv.URL
		srv.Close()
		_, _, err := newClient(t, base, "tok").Me(ctx(t))
		if err == nil || !api.Retryable(err) || !strings.Contains(err.Error(), "GET /api/v1/me") {
			t.Errorf("Me on a closed port = %v (retryable %v)", err, api.Retryable(err))
		}
	})
	t.Run("caller canceled", func(t *testing.T) {
		c, _ := setup(t, tinyDataset(t), tokA)
		cctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, _, err := c.Me(cctx)
		if !errors.Is(err, context.Canceled) || api.Retryable(err) {
			t.Errorf("Me with a canceled context = %v (retryable %v)", err, api.Retryable(err))
		}
	})
	t.Run("caller deadline while waiting", func(t *testing.T) {
		s := serve(t, tinyDataset(t), sandbox.Options{Latency: sandbox.Latency{Base: 5 * time.Second}})
		c := newClient(t, s.BaseURL(), tokA)
		dctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, _, err := c.Me(dctx)
		if !errors.Is(err, context.DeadlineExceeded) || api.Retryable(err) {
			t.Errorf("Me past the caller's deadline = %v (retryable %v)", err, api.Retryable(err))
		}
	})
	t.Run("caller deadline mid-body", func(t *testing.T) {
		s := serve(t, sampleDataset(t), sandbox.Options{Faults: mustFaults(t, "slow=1:5s")})
		c := newClient(t, s.BaseURL(), sampleToken)
		dctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		_, _, err := c.Resolved(dctx, "101", api.ResolveOptions{})
		if err == nil || api.Retryable(err) {
			t.Errorf("Resolved past the caller's deadline = %v (retryable %v)", err, api.Retryable(err))
		}
	})
	t.Run("client timeout mid-body", func(t *testing.T) {
		// In virtual time, with a transport that answers the headers at
		// once and stalls in the body: the timeout always strikes within
		// the body, however busy the machine (over loopback, a loaded
		// machine could reach it before the headers).
		synctest.Test(t, func(t *testing.T) {
			hc := &http.Client{Transport: stallingTransport{}, Timeout: 500 * time.Millisecond}
			c := newClient(t, "http://localhost", sampleToken, api.WithHTTPClient(hc))
			_, _, err := c.Resolved(context.Background(), "101", api.ResolveOptions{})
			if err == nil || !api.Retryable(err) || !strings.Contains(err.Error(), "read response body") {
				t.Errorf("Resolved with a client timeout = %v (retryable %v)", err, api.Retryable(err))
			}
		})
	})
	t.Run("client timeout awaiting headers", func(t *testing.T) {
		s := serve(t, tinyDataset(t), sandbox.Options{Latency: sandbox.Latency{Base: 5 * time.Second}})
		c := newClient(t, s.BaseURL(), tokA, api.WithHTTPClient(&http.Client{Timeout: 100 * time.Millisecond}))
		_, _, err := c.Me(ctx(t))
		if err == nil || !api.Retryable(err) {
			t.Errorf("Me with a client timeout = %v (retryable %v)", err, api.Retryable(err))
		}
	})
}

// stallingTransport answers every request with a 200 whose body gives a
// first part and then nothing until the request's context ends.
type stallingTransport struct{}

func (stallingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	body := &stallingBody{ctx: req.Context(), first: []byte(`{"data":{"id":"101","type":"resolved_curriculum","attributes":{"name":"Alg`)}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: body, ContentLength: -1, Request: req}, nil
}

type stallingBody struct {
	ctx   context.Context
	first []byte
}

func (b *stallingBody) Read(p []byte) (int, error) {
	if len(b.first) > 0 {
		n := copy(p, b.first)
		b.first = b.first[n:]
		return n, nil
	}
	<-b.ctx.Done()
	return 0, b.ctx.Err()
}

func (b *stallingBody) Close() error { return nil }
