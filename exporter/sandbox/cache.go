package sandbox

import (
	"sync"

	"github.com/curex/curex/exporter/sandbox/dataset"
)

// encoded is an encoded 200 answer and its ETag.
type encoded struct {
	body []byte
	etag string
}

// bodyCache keeps the encoded answers of one dataset index, oldest evicted
// first once their bodies pass limit bytes. An Edit makes a new index, which
// empties the cache on its next use. The zero value with a limit is ready.
type bodyCache struct {
	limit int // bytes; negative: off

	mu      sync.Mutex
	ix      *dataset.Index
	entries map[string]encoded
	order   []string
	size    int
}

func (c *bodyCache) get(ix *dataset.Index, key string) (encoded, bool) {
	if c.limit < 0 {
		return encoded{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ix != ix {
		return encoded{}, false
	}
	e, ok := c.entries[key]
	return e, ok
}

func (c *bodyCache) put(ix *dataset.Index, key string, e encoded) {
	if c.limit < 0 || len(e.body) > c.limit {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ix != ix {
		c.ix, c.entries, c.order, c.size = ix, map[string]encoded{}, nil, 0
	}
	if _, ok := c.entries[key]; ok {
		return
	}
	for c.size+len(e.body) > c.limit && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= len(c.entries[old].body)
		delete(c.entries, old)
	}
	c.entries[key] = e
	c.order = append(c.order, key)
	c.size += len(e.body)
}
