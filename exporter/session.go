package exporter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/etagcache"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/internal/retry"
	"github.com/curex/curex/exporter/internal/setting"
)

// session is the client side of a run: rate-limited transport, cache,
// typed client and retry policy.
type session struct {
	src     source
	client  *api.Client
	limiter *pacer.Limiter
	stats   *fetch.Stats
	retry   retry.Policy
	// cache is the ETag cache (nil without CacheDir), bound to the
	// run's scope once /me has answered.
	cache *etagcache.ScopedCache
	// scopeDir is the folder of CacheDir holding the ETag cache and the
	// state of the API and identity the run talks to (etagcache.Scope): set
	// by discovery from /me, or by the source (Build: the last export's).
	scopeDir string
}

// newSession makes the client of a run, talking to the API of c, or to
// src's cache when src says so.
func newSession(c *Config, src source) (*session, error) {
	s := &session{src: src, stats: &fetch.Stats{}, scopeDir: src.scopeDir}
	ep := src.endpoint(c)
	s.limiter = pacer.NewLimiter(pacer.LimiterOptions{Limits: ep.limits})
	tr := &fetch.Transport{Base: ep.transport, Limiter: s.limiter, Stats: s.stats, MaxRequests: ep.maxRequests, Deadline: c.Deadline}
	opts := []api.Option{api.WithHTTPClient(&http.Client{Transport: tr}), api.WithUserAgent(c.Generator)}
	if ep.allowHTTP {
		opts = append(opts, api.WithAllowHTTP())
	}
	// The cache is scoped by the base URL as the client normalizes it, so
	// it opens once the client is made: the client gets a slot for it.
	slot := &cacheSlot{}
	if c.CacheDir != "" {
		opts = append(opts, api.WithCache(slot))
	}
	if src.fromCache() && c.Warm != nil {
		// A build reads answers no server can change under it: the trees
		// an earlier build of the session decoded serve it again.
		opts = append(opts, api.WithDecodedMemo(c.Warm.memo(), src.scopeDir))
	}
	client, err := api.New(ep.baseURL, ep.token, opts...)
	if err != nil {
		return nil, &ConfigError{setting.Errorf(setting.BaseURL, "%w", err)}
	}
	if c.CacheDir != "" {
		// Scoped by API origin and, once /me answers, by identity: two
		// servers with the same ids never see each other's answers.
		if s.scopeDir != "" {
			s.cache, err = etagcache.OpenScope(s.scopeDir)
		} else {
			s.cache, err = etagcache.NewScopedCache(c.CacheDir, client.BaseURL())
		}
		if err != nil {
			return nil, fmt.Errorf("cache: %w", err)
		}
		slot.ScopedCache = s.cache
	}
	s.client = client
	s.retry = retry.Policy{
		Retryable: api.Retryable,
		Throttled: func(err error) bool { return errors.Is(err, api.ErrRateLimited) },
		RetryAfter: func(err error) (time.Duration, bool) {
			var e *api.Error
			// 429 waits are the limiter's; a 503's Retry-After is ours.
			if errors.As(err, &e) && e.StatusCode != http.StatusTooManyRequests && e.HasRetryAfter {
				return e.RetryAfter, true
			}
			return 0, false
		},
		OnRetry: func(attempt int, err error, wait time.Duration) {
			s.stats.AddRetry()
			c.Log.Debug("retry", "attempt", attempt, "wait", wait, "err", err)
		},
	}
	return s, nil
}

// cacheSlot is the api.Cache of a session's client: the ETag cache, set
// once it is open, before the first request.
type cacheSlot struct{ *etagcache.ScopedCache }

// PlanReport is what `curex plan` shows of the next run.
type PlanReport struct {
	// Plan is the result of discovery.
	Plan *fetch.Plan
	// Schedule says which trees the next run fetches, in what order, and
	// which it serves from the cache.
	Schedule *fresh.Schedule
	// Limiter paced discovery; its ETA estimates the rest.
	Limiter *pacer.Limiter
}

// apiSession checks c for a session with the API and opens one.
func apiSession(c *Config) (*session, error) {
	if err := c.checkAPI(); err != nil {
		return nil, err
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	return newSession(c, source{})
}

// Plan runs discovery only and decides what the next run would fetch, for
// `curex plan`. It records nothing.
func Plan(ctx context.Context, c Config) (*PlanReport, error) {
	s, err := apiSession(&c)
	if err != nil {
		return nil, err
	}
	p, err := s.discover(ctx, c.Log, c.Filter)
	if err != nil {
		return nil, err
	}
	fr, err := openFreshness(freshnessOptions{c.Revalidate, c.Log}, s, p, time.Now())
	if err != nil {
		return nil, err
	}
	fr.close()
	return &PlanReport{Plan: p, Schedule: fr.sched, Limiter: s.limiter}, nil
}

// discover runs discovery, binding the session's cache to the scope /me
// names, and records the scope's folder.
func (s *session) discover(ctx context.Context, log *slog.Logger, f fetch.Filter) (*fetch.Plan, error) {
	bind := func(u *api.User) error {
		if s.cache == nil {
			return nil
		}
		scope, err := etagcache.ScopeOf(s.client.BaseURL(), u)
		if err != nil {
			return err
		}
		dir, err := s.cache.Bind(scope)
		if err != nil {
			return fmt.Errorf("cache of %s: %w", scope, err)
		}
		s.scopeDir = dir
		log.Debug("cache scope", "scope", scope.String(), "dir", dir)
		return nil
	}
	p, err := fetch.DiscoverWith(ctx, s.client, s.retry, f, bind)
	var fe *fetch.FilterError
	if errors.As(err, &fe) {
		return nil, &ConfigError{err}
	}
	return p, err
}

// WhoAmI verifies the token and returns the user it belongs to.
func WhoAmI(ctx context.Context, c Config) (*api.User, error) {
	s, err := apiSession(&c)
	if err != nil {
		return nil, err
	}
	return fetch.Verify(ctx, s.client, s.retry)
}
