package exporter

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/curex/curex/exporter/internal/etagcache"
	"github.com/curex/curex/exporter/internal/setting"
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
	return fmt.Sprintf("the cache %s lacks %d of the trees the plan needs (%s%s): export into this cache first; nothing was written",
		e.CacheDir, len(e.Missing), strings.Join(list, ", "), more)
}

// Build re-renders every selected format from the ETag cache of earlier
// exports, with no API request: for a new theme, a new format or a fixed
// template. A build is a Run with another source of answers (see
// source): it plans and fetches exactly as Run does, but every request is
// answered from c.CacheDir (a 304 for what the cache holds), so the
// output is what an export would write if nothing had changed upstream.
// It differs from Run in these, and only these:
//
//   - the answers come from the cache folder of the API and identity the
//     last export talked to; BaseURL, Token, AllowHTTP, Limits, Transport
//     and MaxRequests are ignored;
//   - content images (Config.Assets local) come from the cache folder
//     too, with no request; one the cache lacks is shown as a link;
//   - every tree is read from the cache: the state of earlier runs (which
//     trees to revalidate) is neither read nor written;
//   - rendering does not leave a processor to a fetch (there is none to
//     pace);
//   - a tree the cache lacks fails the build, with a *MissingError naming
//     the trees (or an error naming the answer), and nothing is written;
//     a tree a format refuses, or a locale that is no language tag, fails
//     alone as in an export.
func Build(ctx context.Context, c Config) (*Summary, error) {
	if c.CacheDir == "" {
		return nil, &ConfigError{setting.Errorf(setting.CacheDir, "no cache folder")}
	}
	if fi, err := os.Stat(c.CacheDir); err != nil || !fi.IsDir() {
		return nil, &ConfigError{setting.Errorf(setting.CacheDir, "no cache at %s: export into it first", c.CacheDir)}
	}
	// The answers of the API and identity the last export talked to (a
	// cache of the layout before scopes holds none: export again).
	dir, _, ok, err := etagcache.LatestScope(c.CacheDir)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("the cache %s lacks an answer the plan needs (%w: no export has filled it since curex scoped its cache by API and organization): export into this cache first; nothing was written",
			c.CacheDir, ErrNotCached)
	}
	cache, err := etagcache.OpenScope(dir)
	if err != nil {
		return nil, err
	}
	if c.Output == "" {
		return nil, &ConfigError{errors.New("no output folder")}
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	sum, err := execute(ctx, &c, source{cache: cache, scopeDir: dir})
	var me *MissingError
	if errors.Is(err, ErrNotCached) && !errors.As(err, &me) {
		return nil, fmt.Errorf("the cache %s lacks an answer the plan needs (%w): export into this cache first; nothing was written", c.CacheDir, err)
	}
	return sum, err
}
