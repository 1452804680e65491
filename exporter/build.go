package exporter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/curex/curex/exporter/etagcache"
	"github.com/curex/curex/exporter/ratelimit"
)

// ErrNotCached is returned, wrapped, when a build needs an API answer the
// cache does not hold.
var ErrNotCached = errors.New("not in the cache")

// MissingError lists the exports a build could not make because the cache
// lacks their trees.
type MissingError struct {
	CacheDir string
	Missing  []string // export folders, "algebra-1/texas/es"
}

func (e *MissingError) Error() string {
	const show = 10
	list := e.Missing
	more := ""
	if len(list) > show {
		more = fmt.Sprintf(" and %d more", len(list)-show)
		list = list[:show]
	}
	return fmt.Sprintf("the cache %s lacks %d of the trees the plan needs (%s%s): run curex export with --cache-dir %s first; nothing was written",
		e.CacheDir, len(e.Missing), strings.Join(list, ", "), more, e.CacheDir)
}

// offlineBaseURL is the address requests are made to during a build; they
// never leave the process.
const offlineBaseURL = "http://cache.invalid"

// Build re-renders every selected format from the ETag cache of earlier
// exports, with no API request: for a new theme, a new format or a fixed
// template. It plans and fetches exactly as Run does, but every request is
// answered from c.CacheDir (a 304 for what the cache holds), so the output is
// what an export would write if nothing had changed upstream. A build that
// needs an answer the cache lacks fails with an error naming it, or a
// *MissingError naming the trees, and writes nothing.
//
// BaseURL, Token, Limits and Transport are ignored.
func Build(ctx context.Context, c Config) (*Summary, error) {
	if c.CacheDir == "" {
		return nil, &ConfigError{errors.New("no cache folder: give --cache-dir")}
	}
	if fi, err := os.Stat(c.CacheDir); err != nil || !fi.IsDir() {
		return nil, &ConfigError{fmt.Errorf("no cache at %s: run curex export with --cache-dir %s first", c.CacheDir, c.CacheDir)}
	}
	// The answers of the API and identity the last export talked to (a
	// cache of the layout before scopes holds none: export again).
	dir, _, ok, err := etagcache.LatestScope(c.CacheDir)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("the cache %s lacks an answer the plan needs (%w: no export has filled it since curex scoped its cache by API and organization): run curex export with --cache-dir %s first; nothing was written",
			c.CacheDir, ErrNotCached, c.CacheDir)
	}
	cache, err := etagcache.OpenScope(dir)
	if err != nil {
		return nil, err
	}
	c.scopeDir = dir
	c.BaseURL, c.Token, c.AllowHTTP = offlineBaseURL, "offline", true
	c.Limits = ratelimit.Limits{}
	c.Transport = &offlineTransport{cache: cache}
	c.MaxRequests = 0
	c.offline = true
	sum, err := Run(ctx, c)
	var me *MissingError
	if errors.Is(err, ErrNotCached) && !errors.As(err, &me) {
		return nil, fmt.Errorf("the cache %s lacks an answer the plan needs (%w): run curex export with --cache-dir %s first; nothing was written", c.CacheDir, err, c.CacheDir)
	}
	return sum, err
}

// offlineTransport answers every request from the cache: 304 Not Modified
// when the cache holds an answer for the request (the client then uses the
// cached body), else ErrNotCached.
type offlineTransport struct {
	cache *etagcache.ScopedCache
}

func (t *offlineTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
	key := req.URL.RequestURI()
	etag, _, ok := t.cache.Get(key)
	if !ok || req.Method != http.MethodGet || req.Header.Get("If-None-Match") == "" {
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
