package assets_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/curex/curex/exporter/internal/assets"
)

// TestMeasureImageMemory measures, when CUREX_MEASURE_IMAGES=1, the heap a
// Store takes to fetch 150 distinct images of about 9.5 MB each (issue
// 23): the peak of live heap objects, sampled as each response is read,
// and what stays live once the fetch is over. It reports figures and
// asserts nothing: docs/BENCHMARKS.md records them.
func TestMeasureImageMemory(t *testing.T) {
	if os.Getenv("CUREX_MEASURE_IMAGES") != "1" {
		t.Skip("a measurement: set CUREX_MEASURE_IMAGES=1")
	}
	const n, side = 150, 1540 // 1540² × 4 bytes ≈ 9.49 MB stored
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var mu sync.Mutex
	var peak uint64
	read := func() uint64 {
		mu.Lock()
		defer mu.Unlock()
		metrics.Read(sample)
		v := sample[0].Value.Uint64()
		peak = max(peak, v)
		return v
	}
	var hits atomic.Int32
	var sent atomic.Int64
	tr := memTransport(func(r *http.Request) (*http.Response, error) {
		hits.Add(1)
		var i int
		_, _ = fmt.Sscanf(r.URL.Path, "/%d.png", &i)
		b := noisePNG(t, side, side, uint32(i))
		sent.Add(int64(len(b)))
		read()
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: sampled{bytes.NewReader(b), read},
			ContentLength: int64(len(b)), Request: r}, nil
	})
	cache := t.TempDir()
	f := fetcher(t, assets.Options{Transport: tr, CacheDir: cache, MaxBytes: 16 << 20})
	s := newMeasuredStore(f)
	var urls []string
	for i := range n {
		urls = append(urls, fmt.Sprintf("https://img.example/%d.png", i))
	}
	before := heap()
	if err := s.Fetch(context.Background(), urls); err != nil {
		t.Fatal(err)
	}
	read()
	after := heap()
	kept := 0
	for _, u := range urls {
		if res, _ := s.Lookup(u); res.Err == nil {
			kept++
		}
	}
	var disk int64
	_ = filepath.Walk(cache, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			disk += fi.Size()
		}
		return nil
	})
	t.Logf("%d images, %d kept, %.0f MB sent; heap before %.0f MB, peak %.0f MB, after %.0f MB; cache %.0f MB",
		n, kept, mb(sent.Load()), mb(int64(before)), mb(int64(peak)), mb(int64(after)), mb(disk))
}

func mb(n int64) float64 { return float64(n) / 1e6 }

// sampled is a response body that samples the heap at each read.
type sampled struct {
	r    io.Reader
	read func() uint64
}

func (s sampled) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err == io.EOF {
		s.read()
	}
	return n, err
}

func (s sampled) Close() error { return nil }

// newMeasuredStore is a store of 4 at a time whose budget lets all 150
// images in.
func newMeasuredStore(f *assets.Fetcher) *assets.Store {
	return assets.NewStoreBudget(f, 4, assets.Budget{RunBytes: 4 << 30, TreeBytes: 4 << 30})
}
