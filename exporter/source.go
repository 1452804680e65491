package exporter

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/curex/curex/exporter/internal/etagcache"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/ratelimit"
)

// source is where a run's API answers come from: the difference between
// Run and Build. The zero value is the API at Config.BaseURL, paced by
// Config.Limits, with the state of earlier runs deciding what to fetch.
type source struct {
	// cache, when set, answers every request (Build): a 304 for what it
	// holds, ErrNotCached for the rest. No request leaves the process.
	cache *etagcache.ScopedCache
	// scopeDir is the cache's folder, known before discovery.
	scopeDir string
}

// fromCache reports whether answers come from the cache alone.
func (src source) fromCache() bool { return src.cache != nil }

// endpoint is what the session's client talks to.
type endpoint struct {
	baseURL, token string
	allowHTTP      bool
	limits         ratelimit.Limits
	transport      http.RoundTripper
	maxRequests    int64
}

// offlineBaseURL is the address a build's requests are made to; the
// offline transport answers them, so they never leave the process. The
// client needs an address and a token; neither is used.
const offlineBaseURL = "http://cache.invalid"

// endpoint is the API of c, or for a build the cache, behind an address
// that is never dialled.
func (src source) endpoint(c *Config) endpoint {
	if src.fromCache() {
		return endpoint{baseURL: offlineBaseURL, token: "offline", allowHTTP: true, limits: ratelimit.Limits{},
			transport: offlineTransport{}}
	}
	return endpoint{baseURL: c.BaseURL, token: c.Token, allowHTTP: c.AllowHTTP, limits: c.Limits, transport: c.Transport, maxRequests: c.MaxRequests}
}

// missing turns the failures of a build into its error: a tree the cache
// lacks fails the build (a *MissingError naming them all), any other
// failure but a refused tree or an invalid locale too. Nil for an export.
func (src source) missing(cacheDir string, failures []Failure) error {
	if !src.fromCache() {
		return nil
	}
	me := &MissingError{CacheDir: cacheDir}
	for _, fl := range failures {
		var refused *RenderError
		var badLocale *fetch.LocaleError
		if errors.As(fl.Err, &refused) || errors.As(fl.Err, &badLocale) {
			continue // fails alone, as in an export
		}
		if !errors.Is(fl.Err, ErrNotCached) {
			return fmt.Errorf("build %s: %w", fl.Export.Dir(), fl.Err)
		}
		me.Missing = append(me.Missing, fl.Export.Dir())
	}
	if len(me.Missing) > 0 {
		slices.Sort(me.Missing)
		return me
	}
	return nil
}

// offlineTransport answers every request from the cache: 304 Not Modified
// when the cache holds an answer for the request (the client then uses the
// cached body), else ErrNotCached. The client asks with If-None-Match only
// when it has read the request's entry from the cache and checked it, so
// that header is the answer's ETag: the entry (a tree's body is megabytes)
// is not read a second time.
type offlineTransport struct{}

func (offlineTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
	key := req.URL.RequestURI()
	etag := req.Header.Get("If-None-Match")
	if req.Method != http.MethodGet || etag == "" {
		return nil, fmt.Errorf("GET %s: %w", key, ErrNotCached)
	}
	h := http.Header{}
	h.Set("ETag", etag)
	return &http.Response{
		Status: "304 Not Modified", StatusCode: http.StatusNotModified,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(strings.NewReader("")), Request: req,
	}, nil
}
