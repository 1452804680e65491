package exporter_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/setting"
	"github.com/curex/curex/exporter/ratelimit"
)

// answerFunc is an http.RoundTripper of a function.
type answerFunc func(*http.Request) (*http.Response, error)

func (f answerFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestWhoamiFirstContact (issue 25): curex whoami against nothing
// listening retried 6 times over 11 s and did not name --base-url, while
// export failed at once naming it. whoami makes the same first contact
// as discovery (fetch.Verify): a refused connection fails at the first
// attempt naming --base-url, a 5xx is retried (3 attempts in all), a 401
// names the token. Backoff runs in virtual time (testing/synctest).
func TestWhoamiFirstContact(t *testing.T) {
	t.Parallel()
	refused := func(r *http.Request) (*http.Response, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	}
	status := func(code int) func(*http.Request) (*http.Response, error) {
		return func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: code, Status: http.StatusText(code), Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(`{"error":"nope"}`)), Request: r}, nil
		}
	}
	for _, tc := range []struct {
		name     string
		answer   func(*http.Request) (*http.Response, error)
		attempts int64
		setting  string // the setting the error names, or ""
		want     string
	}{
		{"connection refused", refused, 1, setting.BaseURL, "cannot reach the API"},
		{"503", status(http.StatusServiceUnavailable), 3, "", "verify token"},
		{"401", status(http.StatusUnauthorized), 1, setting.Token, "rejected the token (401)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				var n atomic.Int64
				c := exporter.Config{BaseURL: "http://api.test", AllowHTTP: true, Token: "secret-token-value", Limits: ratelimit.Limits{},
					Transport: answerFunc(func(r *http.Request) (*http.Response, error) {
						n.Add(1)
						return tc.answer(r)
					})}
				_, err := exporter.WhoAmI(context.Background(), c)
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want one saying %q", err, tc.want)
				}
				if got := n.Load(); got != tc.attempts {
					t.Errorf("%d attempts, want %d", got, tc.attempts)
				}
				var se *setting.Error
				switch {
				case tc.setting == "" && errors.As(err, &se):
					t.Errorf("error names the setting %s: %v", se.Name, err)
				case tc.setting != "" && (!errors.As(err, &se) || se.Name != tc.setting):
					t.Errorf("error %v, want one naming the setting %s", err, tc.setting)
				}
				if strings.Contains(err.Error(), "secret-token-value") {
					t.Errorf("the token is in the error: %v", err)
				}
			})
		})
	}
}

// TestNotTheAPINamesBaseURL (issue 26 §5): a server that is not the API
// (a web server answering 404 at /api/v1/me) gave "GET /api/v1/me: 404
// Not Found" with no hint. The first contact names base_url, what the API
// answers at /api/v1/me, and what the URL should look like, at the first
// attempt.
func TestNotTheAPINamesBaseURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, ctype, body string }{
		{"html 404", "text/html", "<!DOCTYPE HTML><html><title>Error response</title></html>"},
		{"json 404", "application/json", `{"detail":"Not Found"}`},
		{"empty 404", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int64
			c := exporter.Config{BaseURL: "http://api.test/www", AllowHTTP: true, Token: "secret-token-value", Limits: ratelimit.Limits{},
				Transport: answerFunc(func(r *http.Request) (*http.Response, error) {
					n.Add(1)
					return &http.Response{StatusCode: http.StatusNotFound, Status: "404 Not Found",
						Header: http.Header{"Content-Type": {tc.ctype}}, Body: io.NopCloser(strings.NewReader(tc.body)), Request: r}, nil
				})}
			_, err := exporter.WhoAmI(context.Background(), c)
			var se *setting.Error
			if !errors.As(err, &se) || se.Name != setting.BaseURL {
				t.Fatalf("error %v, want one naming the setting %s", err, setting.BaseURL)
			}
			for _, want := range []string{"not the Curriculum Content API", "/api/v1/me", "the API's root URL", "404"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if got := n.Load(); got != 1 {
				t.Errorf("%d attempts, want 1", got)
			}
			if strings.Contains(err.Error(), "secret-token-value") {
				t.Errorf("the token is in the error: %v", err)
			}
		})
	}
}
