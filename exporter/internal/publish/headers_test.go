//go:build !nopublish

package publish

import "testing"

func TestHeadersPerKind(t *testing.T) {
	tests := []struct {
		path, contentType, cache string
		gzip                     bool
	}{
		{"assets/site.75fc864a.css", "text/css; charset=utf-8", CacheImmutable, true},
		{"assets/site.78cb9401.js", "text/javascript; charset=utf-8", CacheImmutable, true},
		{"assets/fonts/inter.0a1b2c3d.woff2", "font/woff2", CacheImmutable, false},
		{"assets/site.css", "text/css; charset=utf-8", CacheDefault, true},          // no hash: may change
		{"assets/site.75FC864A.css", "text/css; charset=utf-8", CacheDefault, true}, // not our hash form
		{"other/site.75fc864a.css", "text/css; charset=utf-8", CacheDefault, true},  // not under assets/
		{"index.html", "text/html; charset=utf-8", CacheShort, true},
		{"404.html", "text/html; charset=utf-8", CacheShort, true},
		{"algebra-1/base/en/numbers/index.html", "text/html; charset=utf-8", CacheShort, true},
		{"algebra-1/base/en/handbook.html", "text/html; charset=utf-8", CacheShort, true},
		{"manifest.json", "application/json", CacheShort, true},
		{"sitemap.xml", "application/xml; charset=utf-8", CacheShort, true},
		{"algebra-1/base/en/feed.xml", "application/atom+xml; charset=utf-8", CacheShort, true},
		{"bundles/algebra-1/base/en/changes.json", "application/json", CacheShort, true},
		{"robots.txt", "text/plain; charset=utf-8", CacheShort, true},
		{"algebra-1/base/en/search.json", "application/json", CacheShort, true},
		{"algebra-1/base/en/search-index.js", "text/javascript; charset=utf-8", CacheShort, true},
		{"algebra-1/base/en/search-body-3.js", "text/javascript; charset=utf-8", CacheShort, true},
		{"algebra-1/base/en/search-terms.js", "text/javascript; charset=utf-8", CacheShort, true},
		{"algebra-1/base/en/search-terms-65.js", "text/javascript; charset=utf-8", CacheShort, true},
		{"assets/stem/en.js", "text/javascript; charset=utf-8", CacheDefault, true}, // no hash: may change
		{"search-sources.js", "text/javascript; charset=utf-8", CacheShort, true},
		{"algebra-1/search-sources.js", "text/javascript; charset=utf-8", CacheShort, true},
		{"search-dir.en.js", "text/javascript; charset=utf-8", CacheShort, true},
		{"search-dir.en-736f.js", "text/javascript; charset=utf-8", CacheShort, true},
		{"search-dir.js", "text/javascript; charset=utf-8", CacheShort, true},
		{"search-sources-0.js", "text/javascript; charset=utf-8", CacheShort, true},
		{"bundles/algebra-1/base/en/tree.json", "application/json", CacheDefault, true},
		{"bundles/algebra-1/base/en/markdown/numbers.md", "text/markdown; charset=utf-8", CacheDefault, true},
		{"algebra-1/base/en/handbook.pdf", "application/pdf", CacheDefault, false},
		{"bundles/algebra-1/base/en/markdown.zip", "application/zip", CacheDefault, false},
		{"algebra-1/base/en/algebra-1-base-en.epub", "application/epub+zip", CacheDefault, false},
		{"bundles/algebra-1/base/en/course.imscc", "application/zip", CacheDefault, false},
		{"algebra-1/cover.png", "image/png", CacheDefault, false},
		{"icons/logo.svg", "image/svg+xml", CacheDefault, true},
		{"data.bin", "application/octet-stream", CacheDefault, false},
	}
	for _, tt := range tests {
		wantEnc := ""
		if tt.gzip {
			wantEnc = "gzip"
		}
		got := headersFor(tt.path, true, nil)
		if got.contentType != tt.contentType || got.cacheControl != tt.cache || got.contentEncoding != wantEnc {
			t.Errorf("%s with gzip: %+v; want %q, %q, %q", tt.path, got, tt.contentType, tt.cache, wantEnc)
		}
		if plain := headersFor(tt.path, false, nil); plain.contentEncoding != "" {
			t.Errorf("%s without gzip: Content-Encoding %q", tt.path, plain.contentEncoding)
		}
	}
}

// TestHeadersForFormatTypes: a file of a format whose extension curex
// serve's table lacks is stored with the media type its format declares
// (Options.Types), as serve sends it; the table keeps its own types.
func TestHeadersForFormatTypes(t *testing.T) {
	types := map[string]string{".cx": "text/x-outline; charset=utf-8", ".pdf": "application/x-other"}
	for _, tt := range []struct{ path, want string }{
		{"bundles/a/b/c/outline.cx", "text/x-outline; charset=utf-8"},
		{"a/b/c/handbook.pdf", "application/pdf"},
		{"data.bin", "application/octet-stream"},
	} {
		if got := headersFor(tt.path, false, types).contentType; got != tt.want {
			t.Errorf("%s: Content-Type %q, want %q", tt.path, got, tt.want)
		}
	}
}
