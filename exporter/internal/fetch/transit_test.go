package fetch_test

import (
	"context"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// slowRoad delays each request by a random time before the server sees
// it, as a loaded machine or a congested network does.
type slowRoad struct {
	base http.RoundTripper
	mu   sync.Mutex
	rng  *rand.Rand
	max  time.Duration
}

func (s *slowRoad) RoundTrip(req *http.Request) (*http.Response, error) {
	s.mu.Lock()
	d := time.Duration(s.rng.Int64N(int64(s.max)))
	s.mu.Unlock()
	time.Sleep(d) // virtual time inside the bubble
	return s.base.RoundTrip(req)
}

// TestNoTooManyRequestsWhateverTheTransit: requests reach the server up to
// 400 ms after they leave (with windows of one second), in any order, and
// still none is refused, because the limiter counts a request from its
// answer.
func TestNoTooManyRequestsWhateverTheTransit(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		synctest.Test(t, func(t *testing.T) {
			ls, err := ratelimit.Parse("20/1s,120/6s")
			if err != nil {
				t.Fatal(err)
			}
			ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: 2, Locales: 1, Nodes: 5, Depth: 1, Seed: 1})
			h, err := sandbox.New(ds, sandbox.Options{Limits: ls})
			if err != nil {
				t.Fatal(err)
			}
			stats := &fetch.Stats{}
			tr := &fetch.Transport{
				Base:    &slowRoad{base: &sandboxtest.Transport{Handler: h}, rng: rand.New(rand.NewPCG(seed, 9)), max: 400 * time.Millisecond},
				Limiter: pacer.NewLimiter(pacer.LimiterOptions{Limits: ls}),
				Stats:   stats,
			}
			client := &http.Client{Transport: tr}
			var wg sync.WaitGroup
			for w := range 6 {
				wg.Go(func() {
					for i := range 50 {
						req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://sandbox/api/v1/me", nil)
						req.Header.Set("Authorization", "Bearer "+dataset.SyntheticToken)
						resp, err := client.Do(req)
						if err != nil {
							t.Errorf("worker %d request %d: %v", w, i, err)
							return
						}
						resp.Body.Close()
					}
				})
			}
			wg.Wait()
			s := stats.Snapshot()
			if s.RateLimited != 0 || s.OK != 300 {
				t.Errorf("seed %d: %d × 429, %d ok of 300", seed, s.RateLimited, s.OK)
			}
		})
	}
}
