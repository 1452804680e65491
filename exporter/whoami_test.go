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
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/setting"
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
