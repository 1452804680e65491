package sandbox

import (
	"strings"
	"testing"

	"github.com/curex/curex/exporter/sandbox/dataset"
)

func TestBodyCache(t *testing.T) {
	ix1, ix2 := &dataset.Index{}, &dataset.Index{}
	body := func(n int) encoded { return encoded{body: []byte(strings.Repeat("x", n)), etag: `"e"`} }
	tests := []struct {
		name  string
		limit int
		run   func(c *bodyCache)
		hit   []string // keys expected in the cache of ix1 afterwards
		miss  []string
	}{
		{"hit after put", 100, func(c *bodyCache) { c.put(ix1, "a", body(10)) }, []string{"a"}, nil},
		{"oldest evicted past the limit", 25, func(c *bodyCache) {
			c.put(ix1, "a", body(10))
			c.put(ix1, "b", body(10))
			c.put(ix1, "c", body(10))
		}, []string{"b", "c"}, []string{"a"}},
		{"too large never stored", 5, func(c *bodyCache) { c.put(ix1, "a", body(6)) }, nil, []string{"a"}},
		{"off", -1, func(c *bodyCache) { c.put(ix1, "a", body(1)) }, nil, []string{"a"}},
		{"a new index empties it", 100, func(c *bodyCache) {
			c.put(ix1, "a", body(1))
			c.put(ix2, "b", body(1))
		}, nil, []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &bodyCache{limit: tt.limit}
			tt.run(c)
			for _, k := range tt.hit {
				if _, ok := c.get(ix1, k); !ok {
					t.Errorf("%s: miss", k)
				}
			}
			for _, k := range tt.miss {
				if _, ok := c.get(ix1, k); ok {
					t.Errorf("%s: hit", k)
				}
			}
			if c.limit >= 0 && c.size > c.limit {
				t.Errorf("size %d past limit %d", c.size, c.limit)
			}
		})
	}
}
