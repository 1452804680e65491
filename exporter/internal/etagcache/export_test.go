package etagcache

// What only the tests call; it lives here and stays out of the binary.

// Dir returns the cache folder (an absolute path).
func (c *DiskCache) Dir() string { return c.dir }

// Dir returns the folder of the bound scope, or "" before Bind.
func (c *ScopedCache) Dir() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dir
}
