package api

import "sync"

// DefaultMemoBytes bounds a DecodedMemo made with a size of 0: the body
// bytes of the answers it keeps (decoded, they take about as much again
// or more in memory).
const DefaultMemoBytes = 128 << 20

// DecodedMemo keeps the resolved curricula that Clients decoded from
// their Cache, by request and ETag, so that reading the same cached
// answer again returns the value decoded the first time instead of
// decoding its body anew: for a process that reads one cache over and
// over, as the builds of a curex dev session do. Pass it to New with
// WithDecodedMemo. It keeps one answer per request (a new ETag replaces
// the old), and no more answers than fit its size in body bytes; past
// that it keeps none new. The values it returns are shared: their readers
// must not modify them. It is safe for concurrent use.
type DecodedMemo struct {
	mu      sync.Mutex
	max     int64
	bytes   int64
	entries map[string]memoEntry
	decoded int64
}

type memoEntry struct {
	etag string
	rc   *ResolvedCurriculum
	size int64
}

// NewDecodedMemo returns an empty memo that keeps answers whose bodies
// total at most maxBytes (DefaultMemoBytes when 0 or less).
func NewDecodedMemo(maxBytes int64) *DecodedMemo {
	if maxBytes <= 0 {
		maxBytes = DefaultMemoBytes
	}
	return &DecodedMemo{max: maxBytes, entries: map[string]memoEntry{}}
}

// WithDecodedMemo makes the Client keep the resolved curricula it decodes
// from its Cache (CachedResolved, and Resolved's answer to a 304) in m,
// and return them from m when the Cache holds the same answer again.
// scope names where the Cache's answers come from (an API and an
// identity, such as the Cache's folder): the memo keeps the answers of
// each scope apart, since an ETag is unique only per resource of one
// server. A nil m keeps nothing.
func WithDecodedMemo(m *DecodedMemo, scope string) Option {
	return func(c *Client) { c.memo, c.memoScope = m, scope }
}

// get returns the curriculum kept for key with etag.
func (m *DecodedMemo) get(key, etag string) (*ResolvedCurriculum, bool) {
	if m == nil {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[key]
	if !ok || e.etag != etag {
		return nil, false
	}
	return e.rc, true
}

// put keeps rc, decoded from a body of size bytes, for key with etag,
// replacing what key held.
func (m *DecodedMemo) put(key, etag string, rc *ResolvedCurriculum, size int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.decoded++
	old, had := m.entries[key]
	if had {
		m.bytes -= old.size
		delete(m.entries, key)
	}
	if m.bytes+int64(size) > m.max {
		return
	}
	m.entries[key] = memoEntry{etag: etag, rc: rc, size: int64(size)}
	m.bytes += int64(size)
}

// Decoded returns how many answers the memo's clients decoded because the
// memo did not hold them (kept or not): what a test of reuse counts.
func (m *DecodedMemo) Decoded() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.decoded
}

// decodeCached decodes body, the cached answer with etag to the request
// at path, into v, through the Client's memo when v is a resolved
// curriculum: one decoded before is copied into v (its nodes shared), one
// decoded now is kept.
func (c *Client) decodeCached(method, path, etag string, body []byte, v any) error {
	rc, ok := v.(*ResolvedCurriculum)
	if !ok || c.memo == nil {
		return c.decode(method, path, "", body, v)
	}
	// The key names the scope and the API too: an ETag is only unique per
	// resource of one server.
	key := c.memoScope + " " + c.base.String() + " " + path
	if kept, ok := c.memo.get(key, etag); ok {
		*rc = *kept
		return nil
	}
	if err := c.decode(method, path, "", body, rc); err != nil {
		return err
	}
	kept := *rc
	c.memo.put(key, etag, &kept, len(body))
	return nil
}
