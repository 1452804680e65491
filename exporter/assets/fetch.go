package assets

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"github.com/curex/curex/exporter/etagcache"
	"github.com/curex/curex/exporter/layout"
)

// Defaults of Options.
const (
	// DefaultMaxBytes bounds one image: 10 MiB.
	DefaultMaxBytes = 10 << 20
	// DefaultMaxRedirects bounds the redirects of one image.
	DefaultMaxRedirects = 5
	// DefaultTimeout bounds the fetch of one image.
	DefaultTimeout = 30 * time.Second
	// UserAgent is the User-Agent of every image request.
	UserAgent = "curex-assets (+https://github.com/curex/curex)"
)

// Options configure a Fetcher. Zero values take the defaults.
type Options struct {
	// AllowPrivate lets images come from any address, private and
	// loopback included (tests, a sandbox on this machine).
	AllowPrivate bool
	// AllowHosts are "ip:port" addresses let through whatever their
	// address: the demo's own sandbox, and nothing else.
	AllowHosts []string
	// MaxBytes bounds one image (DefaultMaxBytes).
	MaxBytes int64
	// MaxRedirects bounds the redirects of one image
	// (DefaultMaxRedirects).
	MaxRedirects int
	// Timeout bounds the fetch of one image (DefaultTimeout).
	Timeout time.Duration
	// CacheDir is the cache folder ("" for none): answers are kept in
	// layout.Cache(CacheDir).Assets() with their ETags.
	CacheDir string
	// Offline asks nothing: every image comes from the cache, and one
	// the cache lacks fails with ErrNotCached (a build).
	Offline bool
	// Transport replaces the guarded transport, for tests that serve
	// images without a socket: the address check, which runs when a
	// connection is dialled, does not apply to it.
	Transport http.RoundTripper
	// Log receives what the fetcher has to say.
	Log *slog.Logger
}

// Asset is an image kept in the output.
type Asset struct {
	// URL is the image's URL as the content gave it.
	URL string
	// Path is where it is in the output (layout.ContentAsset).
	Path string
	// Kind is its format; Width and Height its size in pixels.
	Kind          Kind
	Width, Height int
	// Data are its bytes.
	Data []byte
}

// Outcome says where an image's bytes came from.
type Outcome int

const (
	// Fetched: the server sent the bytes (200).
	Fetched Outcome = iota
	// Reused: the cache's bytes, which the server confirmed (304) or, in
	// a build, the cache alone.
	Reused
)

// Fetcher fetches and checks images. It is safe for concurrent use.
type Fetcher struct {
	o      Options
	client *http.Client
	cache  *etagcache.DiskCache // nil without a cache folder
}

// NewFetcher returns a Fetcher with the options o.
func NewFetcher(o Options) (*Fetcher, error) {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	f := &Fetcher{o: o}
	if o.CacheDir != "" {
		d, err := etagcache.OpenDiskCache(layout.Cache(o.CacheDir).Assets())
		if err != nil {
			return nil, fmt.Errorf("image cache: %w", err)
		}
		f.cache = d
	}
	tr := o.Transport
	if tr == nil {
		g := guard{allowPrivate: o.AllowPrivate, hosts: map[string]bool{}}
		for _, h := range o.AllowHosts {
			ap, err := netip.ParseAddrPort(h)
			if err != nil {
				return nil, fmt.Errorf("allowed image host %q: want ip:port: %w", h, err)
			}
			g.hosts[ap.String()] = true
		}
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.Proxy = nil // a proxy would dial the address, not us
		t.DialContext = g.dialer().DialContext
		tr = t
	}
	f.client = &http.Client{Transport: tr, CheckRedirect: f.checkRedirect}
	return f, nil
}

// checkRedirect allows at most MaxRedirects hops, each to http or https
// (the address of each is checked when it is dialled).
func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.o.MaxRedirects {
		return fmt.Errorf("%w: more than %d", ErrRedirects, f.o.MaxRedirects)
	}
	if err := checkScheme(req.URL); err != nil {
		return fmt.Errorf("redirect to %s: %w", req.URL.Redacted(), err)
	}
	return nil
}

// checkScheme refuses a URL that is not absolute http or https with a
// host.
func checkScheme(u *url.URL) error {
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ErrScheme
	}
	return nil
}

// cacheKey is the ETag cache's key of an image URL.
func cacheKey(raw string) string { return "GET " + raw }

// Fetch fetches the image at raw and checks it. With a cache entry it
// asks with If-None-Match and reuses the cached bytes on a 304 (Reused);
// offline it reuses them without asking. A failure is an *Error.
func (f *Fetcher) Fetch(ctx context.Context, raw string) (Asset, Outcome, error) {
	a, how, err := f.fetch(ctx, raw)
	if err != nil {
		return Asset{}, 0, &Error{URL: raw, Err: err}
	}
	return a, how, nil
}

func (f *Fetcher) fetch(ctx context.Context, raw string) (Asset, Outcome, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Asset{}, 0, fmt.Errorf("%w: %v", ErrScheme, err)
	}
	if err := checkScheme(u); err != nil {
		return Asset{}, 0, err
	}
	var etag string
	var cached []byte
	if f.cache != nil {
		etag, cached, _ = f.cache.Get(cacheKey(raw))
	}
	if f.o.Offline {
		if cached == nil {
			return Asset{}, 0, ErrNotCached
		}
		a, err := check(raw, cached)
		return a, Reused, err
	}
	ctx, cancel := context.WithTimeout(ctx, f.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return Asset{}, 0, err
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "image/png, image/jpeg, image/gif, image/webp")
	if etag != "" && cached != nil {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return Asset{}, 0, unwrapURLError(err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusNotModified:
		if cached == nil {
			return Asset{}, 0, fmt.Errorf("%w: 304 to a request without If-None-Match", ErrStatus)
		}
		a, err := check(raw, cached)
		return a, Reused, err
	case http.StatusOK:
	default:
		return Asset{}, 0, fmt.Errorf("%w: %s", ErrStatus, resp.Status)
	}
	if resp.ContentLength > f.o.MaxBytes {
		return Asset{}, 0, fmt.Errorf("%w: %d bytes, more than %d", ErrTooLarge, resp.ContentLength, f.o.MaxBytes)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, f.o.MaxBytes+1))
	if err != nil {
		return Asset{}, 0, fmt.Errorf("read: %w", err)
	}
	if int64(len(data)) > f.o.MaxBytes {
		return Asset{}, 0, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, f.o.MaxBytes)
	}
	a, err := check(raw, data)
	if err != nil {
		return Asset{}, 0, err
	}
	if f.cache != nil {
		// Kept without an ETag too: a build reuses it, an export asks
		// again without If-None-Match.
		if err := f.cache.Put(cacheKey(raw), resp.Header.Get("ETag"), data); err != nil {
			f.o.Log.Warn("keeping an image in the cache", "url", raw, "err", err)
		}
	}
	return a, Fetched, nil
}

// check checks data and names its file by its SHA-256.
func check(raw string, data []byte) (Asset, error) {
	k, w, h, err := Check(data)
	if err != nil {
		return Asset{}, err
	}
	sum := sha256.Sum256(data)
	return Asset{URL: raw, Path: layout.ContentAsset(hex.EncodeToString(sum[:]), k.Ext), Kind: k, Width: w, Height: h, Data: data}, nil
}

// unwrapURLError drops the *url.Error around a client error (the *Error
// names the URL already), keeping what it wraps.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err
}
