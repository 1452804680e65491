// Package etagcache keeps the answers of the Curriculum Content API on
// disk between runs, with their ETags, so that the next run sends
// conditional requests, gets 304s and reuses what it already knows.
//
// DiskCache is the store: one checksummed file per request key (the
// format is internal/entry's), written atomically, so that concurrent runs
// may share it and a damaged entry is a miss, never a wrong answer. It
// implements api.Cache. Tests check a cache folder with etagcachetest.
//
// A cache folder holds one scope per API origin and identity of the
// token (Scope): two servers with the same ids, or two organizations of
// one server, never see each other's answers. ScopedCache is the api.Cache
// of a run: per origin until the answer to /me names the scope (Bind),
// then the scope's own DiskCache. A build finds the latest scope again
// with LatestScope.
package etagcache
