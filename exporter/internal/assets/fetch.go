package assets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/curex/curex/exporter/internal/etagcache"
	"github.com/curex/curex/exporter/internal/imagecheck"
	"github.com/curex/curex/exporter/internal/layout"
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
	// Deadline, when not zero, is the run's deadline (--deadline): no
	// image is asked for after it, and one still coming then is given up
	// (ErrDeadline).
	Deadline time.Time
	// CacheDir is the cache folder ("" for none): answers are kept in
	// layout.Cache(CacheDir).Assets() with their ETags, the images
	// themselves in its content folder by SHA-256. Without one, images
	// are kept in a temporary folder until Close.
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
	Kind          imagecheck.Kind
	Width, Height int
	// File is the checked file that holds its bytes, in the cache (or
	// the fetcher's temporary folder); the bytes are never held in
	// memory. It stays until the next run, or the fetcher's Close.
	File string
	// Size is its length in bytes.
	Size int64
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
	blobs  blobs
	// temp is the temporary folder of blobs without a cache ("" with
	// one), removed by Close.
	temp string
	// decode lets one image at a time be decoded whole
	// (imagecheck.Inspect), which may take imagecheck.MaxPixels × 4 bytes.
	decode chan struct{}
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
	f := &Fetcher{o: o, decode: make(chan struct{}, 1)}
	if o.CacheDir != "" {
		dir := layout.Cache(o.CacheDir).Assets()
		d, err := etagcache.OpenDiskCache(dir)
		if err != nil {
			return nil, fmt.Errorf("image cache: %w", err)
		}
		f.cache = d
		f.blobs = blobs{dir: filepath.Join(dir, blobsDir)}
		if err := os.MkdirAll(f.blobs.dir, 0o700); err != nil {
			return nil, fmt.Errorf("image cache: %w", err)
		}
	} else {
		dir, err := os.MkdirTemp("", "curex-images-")
		if err != nil {
			return nil, fmt.Errorf("image folder: %w", err)
		}
		f.temp, f.blobs = dir, blobs{dir: dir}
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

// Close removes the temporary folder of a fetcher without a cache, and
// the files of its Assets with it.
func (f *Fetcher) Close() error {
	if f.temp == "" {
		return nil
	}
	if err := os.RemoveAll(f.temp); err != nil {
		return fmt.Errorf("image folder: %w", err)
	}
	return nil
}

// checkRedirect allows at most MaxRedirects hops, each to http or https
// (the address of each is checked when it is dialled).
func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.o.MaxRedirects {
		return fmt.Errorf("%w: more than %d", ErrRedirects, f.o.MaxRedirects)
	}
	if err := CheckURL(req.URL); err != nil {
		return fmt.Errorf("redirect to %s: %w", req.URL.Redacted(), err)
	}
	return nil
}

// cacheKey is the ETag cache's key of an image URL.
func cacheKey(raw string) string { return "GET " + raw }

// Fetch fetches the image at raw and checks it. With a cache entry it
// asks with If-None-Match and reuses the cached file on a 304 (Reused);
// offline it reuses it without asking. A failure is an *Error.
func (f *Fetcher) Fetch(ctx context.Context, raw string) (Asset, Outcome, error) {
	return f.fetchAdmit(ctx, raw, nil)
}

// admitter decides whether an image of n bytes may be kept: fits before
// its body is read (n from Content-Length), admit before it is kept,
// counting it.
type admitter interface {
	fits(n int64) error
	admit(n int64) error
}

// fetchAdmit is Fetch, asking admit (when not nil) whether an image of
// that many bytes may be kept before keeping it.
func (f *Fetcher) fetchAdmit(ctx context.Context, raw string, admit admitter) (Asset, Outcome, error) {
	a, how, err := f.fetch(ctx, raw, admit)
	if err != nil {
		return Asset{}, 0, &Error{URL: Redact(raw), Err: err}
	}
	return a, how, nil
}

func (f *Fetcher) fetch(ctx context.Context, raw string, admit admitter) (Asset, Outcome, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Asset{}, 0, ErrScheme // url.Parse's error quotes the URL, password and all
	}
	if err := CheckURL(u); err != nil {
		return Asset{}, 0, err
	}
	var etag, sum, ext string
	cached := false
	if f.cache != nil {
		var body []byte
		var ok bool
		if etag, body, ok = f.cache.Get(cacheKey(raw)); ok {
			sum, ext, cached = parseRef(body)
		}
		if cached && !f.o.Offline {
			// Asked with If-None-Match only when the file is there to reuse.
			_, err := os.Stat(f.blobs.path(sum, ext))
			cached = err == nil
		}
	}
	if f.o.Offline {
		if !cached {
			return Asset{}, 0, ErrNotCached
		}
		a, err := f.reuse(raw, sum, ext, admit)
		if errors.Is(err, errBlob) {
			return Asset{}, 0, fmt.Errorf("%w: %v", ErrNotCached, err)
		}
		return a, Reused, err
	}
	if !f.o.Deadline.IsZero() {
		if !time.Now().Before(f.o.Deadline) {
			return Asset{}, 0, ErrDeadline
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadlineCause(ctx, f.o.Deadline, ErrDeadline)
		defer cancel()
	}
	a, how, err := f.get(ctx, raw, etag, sum, ext, cached, admit)
	if err != nil && errors.Is(context.Cause(ctx), ErrDeadline) {
		return Asset{}, 0, fmt.Errorf("%w: %v", ErrDeadline, err)
	}
	return a, how, err
}

// get asks for raw (with If-None-Match when the cache has the blob sum
// and ext under etag), streams the body to a blob and checks it.
func (f *Fetcher) get(ctx context.Context, raw, etag, sum, ext string, cached bool, admit admitter) (Asset, Outcome, error) {
	ctx, cancel := context.WithTimeout(ctx, f.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return Asset{}, 0, ErrScheme
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "image/png, image/jpeg, image/gif, image/webp")
	if etag != "" && cached {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return Asset{}, 0, unwrapURLError(err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusNotModified:
		if !cached {
			return Asset{}, 0, fmt.Errorf("%w: 304 to a request without If-None-Match", ErrStatus)
		}
		a, err := f.reuse(raw, sum, ext, admit)
		return a, Reused, err
	case http.StatusOK:
	default:
		return Asset{}, 0, fmt.Errorf("%w: %s", ErrStatus, resp.Status)
	}
	if resp.ContentLength > f.o.MaxBytes {
		return Asset{}, 0, fmt.Errorf("%w: %d bytes, more than %d", ErrTooLarge, resp.ContentLength, f.o.MaxBytes)
	}
	if admit != nil && resp.ContentLength > 0 {
		if err := admit.fits(resp.ContentLength); err != nil {
			return Asset{}, 0, err // not read: it would not be kept
		}
	}
	sp, err := f.blobs.receive(resp.Body, f.o.MaxBytes)
	if err != nil {
		return Asset{}, 0, err
	}
	k, w, h, err := f.inspect(ctx, sp.f)
	if err == nil && admit != nil {
		err = admit.admit(sp.n)
	}
	if err != nil {
		sp.discard()
		return Asset{}, 0, err
	}
	file, err := f.blobs.keep(sp, k.Ext)
	if err != nil {
		return Asset{}, 0, err
	}
	if f.cache != nil {
		// Kept without an ETag too: a build reuses it, an export asks
		// again without If-None-Match.
		if err := f.cache.Put(cacheKey(raw), resp.Header.Get("ETag"), ref(sp.sum, k.Ext)); err != nil {
			f.o.Log.Warn("keeping an image in the cache", "url", Redact(raw), "err", err)
		}
	}
	return asset(raw, sp.sum, k, w, h, file, sp.n), Fetched, nil
}

// inspect is imagecheck.Inspect, one image at a time.
func (f *Fetcher) inspect(ctx context.Context, r io.ReadSeeker) (imagecheck.Kind, int, int, error) {
	select {
	case f.decode <- struct{}{}:
	case <-ctx.Done():
		return imagecheck.Kind{}, 0, 0, context.Cause(ctx)
	}
	defer func() { <-f.decode }()
	return imagecheck.Inspect(r)
}

// reuse returns the cache's blob of sum and ext as raw's image: its
// bytes must still hash to sum (they were checked whole when kept), and
// its header is read again for its kind and size.
func (f *Fetcher) reuse(raw, sum, ext string, admit admitter) (Asset, error) {
	file, n, err := f.blobs.open(sum, ext)
	if err != nil {
		return Asset{}, err
	}
	defer file.Close()
	k, w, h, err := imagecheck.Header(file)
	if err == nil && k.Ext != ext {
		err = fmt.Errorf("%w: cached as %s, holds %s", errBlob, ext, k.Ext)
	}
	if err == nil && admit != nil {
		err = admit.admit(n)
	}
	if err != nil {
		return Asset{}, err
	}
	return asset(raw, sum, k, w, h, file.Name(), n), nil
}

// asset is the Asset of raw kept in file, named by its SHA-256 sum.
func asset(raw, sum string, k imagecheck.Kind, w, h int, file string, size int64) Asset {
	return Asset{URL: raw, Path: layout.ContentAsset(sum, k.Ext), Kind: k, Width: w, Height: h, File: file, Size: size}
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
