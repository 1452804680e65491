package etagcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/atomicfile"
	"github.com/curex/curex/exporter/internal/layout"
)

// Scope names what an ETag cache and a run state hold answers of: one API
// origin (scheme, host, port and path prefix) and one identity of the
// token there (its organization, or its user when /me names no
// organization). Two servers with the same ids, or two organizations of
// one server, never share a cache or a state. A Scope never holds the
// token or anything derived from it.
type Scope struct {
	// Origin is the API's base URL, normalized: lower-case scheme and
	// host, the port always given, the path prefix without a trailing
	// slash ("https://api.example.org:443/curriculum").
	Origin string `json:"origin"`
	// Identity is "organization ID" or "user ID", as /me answered.
	Identity string `json:"identity"`
}

// ScopeOf returns the scope of the API at base for the user /me returned.
func ScopeOf(base *url.URL, u *api.User) (Scope, error) {
	if base == nil || base.Host == "" {
		return Scope{}, errors.New("scope: no API origin")
	}
	if u == nil || (u.OrganizationID == "" && u.ID == "") {
		return Scope{}, errors.New("scope: /me named neither an organization nor a user")
	}
	scheme := strings.ToLower(base.Scheme)
	port := base.Port()
	if port == "" {
		switch scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	host := strings.ToLower(base.Hostname())
	origin := scheme + "://" + net.JoinHostPort(host, port) + strings.TrimSuffix(base.EscapedPath(), "/")
	id := "user " + u.ID
	if u.OrganizationID != "" {
		id = "organization " + u.OrganizationID
	}
	return Scope{Origin: origin, Identity: id}, nil
}

// Dir returns the scope's folder under the cache folder cacheDir.
func (s Scope) Dir(cacheDir string) string {
	sum := sha256.Sum256([]byte(s.Origin + "\n" + s.Identity))
	return string(layout.Cache(cacheDir).Scope(hex.EncodeToString(sum[:12])))
}

// String shows the scope as messages do: "organization 7 at https://…".
func (s Scope) String() string { return s.Identity + " at " + s.Origin }

// ScopedCache is the api.Cache of a run. Until Bind names the scope (from
// the answer to /me), requests are cached per API origin only: that is
// where /me is kept (its ETag still guards it: a 304 means the body cached
// is the body of this token). Bind opens the scope's DiskCache, copies in
// the entries used so far, and from then on every Get and Put goes to it.
// It is safe for concurrent use.
type ScopedCache struct {
	cacheDir string

	mu      sync.Mutex
	origin  *DiskCache // before Bind
	touched []string   // keys used before Bind
	disk    *DiskCache // after Bind
	dir     string
}

// NewScopedCache returns a cache under cacheDir for the API at base, not
// bound to a scope yet.
func NewScopedCache(cacheDir string, base *url.URL) (*ScopedCache, error) {
	s, err := ScopeOf(base, &api.User{ID: "-"})
	if err != nil {
		return nil, err
	}
	s.Identity = "" // the origin's own folder, no run's scope
	d, err := OpenDiskCache(layout.ScopeDir(s.Dir(cacheDir)).ETags())
	if err != nil {
		return nil, err
	}
	return &ScopedCache{cacheDir: cacheDir, origin: d}, nil
}

// OpenScope returns a cache bound to the scope folder dir (one Bind made
// earlier), for a build that answers requests from it.
func OpenScope(dir string) (*ScopedCache, error) {
	d, err := OpenDiskCache(layout.ScopeDir(dir).ETags())
	if err != nil {
		return nil, err
	}
	return &ScopedCache{disk: d, dir: dir}, nil
}

// Bind opens the cache and state folder of s, records s in it, copies in
// the entries used so far, and returns the folder. A cache already bound
// keeps its scope: Bind then only returns its folder.
func (c *ScopedCache) Bind(s Scope) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.disk != nil {
		return c.dir, nil
	}
	dir := s.Dir(c.cacheDir)
	d, err := OpenDiskCache(layout.ScopeDir(dir).ETags())
	if err != nil {
		return "", err
	}
	data, err := json.MarshalIndent(scopeRecord{Scope: s, Used: time.Now().UTC()}, "", "  ")
	if err != nil {
		return "", fmt.Errorf("scope: %w", err)
	}
	if err := atomicfile.Write(layout.ScopeDir(dir).Record(), append(data, '\n')); err != nil {
		return "", fmt.Errorf("%w: scope: %w", api.ErrCache, err)
	}
	for _, key := range c.touched {
		if etag, body, ok := c.origin.Get(key); ok {
			if err := d.Put(key, etag, body); err != nil {
				return "", fmt.Errorf("%w: %w", api.ErrCache, err)
			}
		}
	}
	c.disk, c.dir, c.origin, c.touched = d, dir, nil, nil
	return dir, nil
}

// current returns the DiskCache to use now, noting key when unbound.
func (c *ScopedCache) current(key string) *DiskCache {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.disk != nil {
		return c.disk
	}
	c.touched = append(c.touched, key)
	return c.origin
}

// Get returns the entry of key: in the bound scope, or before Bind in the
// origin's folder.
func (c *ScopedCache) Get(key string) (string, []byte, bool) {
	return c.current(key).Get(key)
}

// Put stores an entry: in the bound scope, or before Bind in the origin's
// folder (copied into the scope by Bind).
func (c *ScopedCache) Put(key, etag string, body []byte) error {
	return c.current(key).Put(key, etag, body)
}

// scopeRecord is the content of a scope's scope.json.
type scopeRecord struct {
	Scope
	// Used is when a run last bound the scope.
	Used time.Time `json:"used"`
}

// LatestScope returns the folder of the scope a run bound last under
// cacheDir, and the scope; ok is false when there is none (a cache of the
// layout before scopes holds none: it is ignored).
func LatestScope(cacheDir string) (dir string, s Scope, ok bool, err error) {
	entries, err := os.ReadDir(layout.Cache(cacheDir).Scopes())
	if errors.Is(err, os.ErrNotExist) {
		return "", Scope{}, false, nil
	}
	if err != nil {
		return "", Scope{}, false, fmt.Errorf("scope: %w", err)
	}
	var latest time.Time
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		d := string(layout.Cache(cacheDir).Scope(e.Name()))
		data, err := os.ReadFile(layout.ScopeDir(d).Record())
		if err != nil {
			continue
		}
		var r scopeRecord
		if json.Unmarshal(data, &r) != nil || r.Scope.Dir(cacheDir) != d {
			continue
		}
		if !ok || r.Used.After(latest) {
			dir, s, ok, latest = d, r.Scope, true, r.Used
		}
	}
	return dir, s, ok, nil
}
