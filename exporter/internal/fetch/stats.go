package fetch

import (
	"net/http"
	"sync/atomic"
)

// Stats counts what a run's requests met. Transport fills it; the retry
// policy's OnRetry hook adds the retries (AddRetry). The zero Stats is
// ready to use, and it is safe for concurrent use. A nil
// *Stats ignores every count.
type Stats struct {
	// Requests counts attempts sent (retries included).
	Requests atomic.Int64
	// OK counts 2xx answers.
	OK atomic.Int64
	// NotModified counts 304 answers.
	NotModified atomic.Int64
	// RateLimited counts 429 answers.
	RateLimited atomic.Int64
	// ServerErrors counts 5xx answers.
	ServerErrors atomic.Int64
	// ClientErrors counts 4xx answers other than 429.
	ClientErrors atomic.Int64
	// Other counts the remaining answers (1xx, 3xx other than 304).
	Other atomic.Int64
	// TransportErrors counts attempts that got no answer: a lost or
	// refused connection, a timeout, a cancellation.
	TransportErrors atomic.Int64
	// CutShort counts answers whose body broke off while it was read (a
	// connection cut mid-body, a body too slow for the attempt's timeout);
	// their status is counted above too.
	CutShort atomic.Int64
	// Retries counts retries decided by the retry policy.
	Retries atomic.Int64
}

// StatsSnapshot is a copy of Stats at one moment; the fields mean what the
// same fields of Stats count.
type StatsSnapshot struct {
	Requests, OK, NotModified, RateLimited, ServerErrors, ClientErrors, Other, TransportErrors, CutShort, Retries int64
}

// Snapshot returns the counts now. The counts are read one after another,
// so a snapshot taken while requests run may be a request apart between
// fields.
func (s *Stats) Snapshot() StatsSnapshot {
	if s == nil {
		return StatsSnapshot{}
	}
	return StatsSnapshot{
		Requests:        s.Requests.Load(),
		OK:              s.OK.Load(),
		NotModified:     s.NotModified.Load(),
		RateLimited:     s.RateLimited.Load(),
		ServerErrors:    s.ServerErrors.Load(),
		ClientErrors:    s.ClientErrors.Load(),
		Other:           s.Other.Load(),
		TransportErrors: s.TransportErrors.Load(),
		CutShort:        s.CutShort.Load(),
		Retries:         s.Retries.Load(),
	}
}

// AddRetry counts one retry.
func (s *Stats) AddRetry() {
	if s != nil {
		s.Retries.Add(1)
	}
}

// addRequest counts one attempt sent.
func (s *Stats) addRequest() {
	if s != nil {
		s.Requests.Add(1)
	}
}

// addStatus counts one answer by its status, or a transport error for 0.
func (s *Stats) addStatus(status int) {
	if s == nil {
		return
	}
	switch {
	case status == 0:
		s.TransportErrors.Add(1)
	case status == http.StatusNotModified:
		s.NotModified.Add(1)
	case status == http.StatusTooManyRequests:
		s.RateLimited.Add(1)
	case status >= 200 && status <= 299:
		s.OK.Add(1)
	case status >= 500 && status <= 599:
		s.ServerErrors.Add(1)
	case status >= 400 && status <= 499:
		s.ClientErrors.Add(1)
	default:
		s.Other.Add(1)
	}
}
