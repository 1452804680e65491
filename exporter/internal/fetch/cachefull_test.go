package fetch_test

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/etagcache"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/retry"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// fullDisk is a DiskCache whose writes of trees fail as on a full disk.
type fullDisk struct{ *etagcache.DiskCache }

func (c fullDisk) Put(key, etag string, body []byte) error {
	if strings.Contains(key, "/resolved") {
		return &fs.PathError{Op: "write", Path: "/cache/ab/abcd", Err: syscall.ENOSPC}
	}
	return c.DiskCache.Put(key, etag, body)
}

// TestCacheWriteErrorStopsTheRun: a tree that cannot be stored in the
// ETag cache (a full disk) stops the fetch at once: no retry of it, and
// no request for the trees after it (before: each tree was retried 6
// times as if the connection had failed).
func TestCacheWriteErrorStopsTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		disk, err := etagcache.OpenDiskCache(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		ct := &countingTransport{base: &sandboxtest.Transport{Handler: trHandler(t, sandbox.Options{})}}
		client, err := api.New("http://sandbox.test", trToken, api.WithHTTPClient(&http.Client{Transport: ct}),
			api.WithAllowHTTP(), api.WithCache(fullDisk{disk}))
		if err != nil {
			t.Fatal(err)
		}
		policy := retry.Policy{Retryable: api.Retryable}
		plan, err := fetch.Discover(context.Background(), client, policy, fetch.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		before := ct.n.Load()
		f := &fetch.Fetcher{Client: client, Retry: policy, Concurrency: 1}
		err = f.Fetch(context.Background(), plan.Exports(), func(fetch.Result) error { return nil })
		if n := ct.n.Load() - before; n > 2 {
			t.Errorf("%d tree requests with a full disk, want at most 2 (one, and one in flight)", n)
		}
		if !errors.Is(err, fetch.ErrFatal) || !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("err = %v, want ErrFatal wrapping the full disk", err)
		}
	})
}
