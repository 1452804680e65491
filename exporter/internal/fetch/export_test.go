package fetch

import (
	"fmt"
	"time"
)

// What only the tests call; it lives here and stays out of the binary.

// Sent returns how many attempts the Transport has sent (or is sending).
func (t *Transport) Sent() int64 { return t.sent.Load() }

// OnRetry counts one retry; its signature fits retry.Policy.OnRetry.
func (s *Stats) OnRetry(int, error, time.Duration) { s.AddRetry() }

// String summarizes the counts on one line, for a run's closing summary.
func (s StatsSnapshot) String() string {
	str := fmt.Sprintf("%d requests: %d ok, %d not modified, %d rate-limited, %d server errors, %d client errors, %d transport errors; %d retries",
		s.Requests, s.OK, s.NotModified, s.RateLimited, s.ServerErrors, s.ClientErrors, s.TransportErrors, s.Retries)
	if s.Other > 0 {
		str += fmt.Sprintf("; %d other answers", s.Other)
	}
	if s.CutShort > 0 {
		str += fmt.Sprintf("; %d cut short", s.CutShort)
	}
	return str
}
