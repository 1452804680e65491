package publish

import (
	"path"
	"regexp"
	"strings"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/serve"
)

// Cache-Control values, by kind of file (see CacheControl).
const (
	// CacheImmutable is for hashed assets: their name changes with their
	// content, so a cached copy never goes stale.
	CacheImmutable = "public, max-age=31536000, immutable"
	// CacheShort is for files whose name stays while their content changes
	// and that link to others: pages, manifest.json, sitemap.xml,
	// robots.txt and search indexes. Five minutes lets a CDN absorb load
	// while a publish shows within minutes.
	CacheShort = "public, max-age=300"
	// CacheDefault is for everything else (bundles, handbook PDFs, images
	// that are not hashed assets).
	CacheDefault = "public, max-age=3600"
)

// hashedAsset matches the theme's content-hashed files: assets/name.1a2b3c4d.ext.
var hashedAsset = regexp.MustCompile(`^` + regexp.QuoteMeta(layout.Assets) + `/(?:[^/]+/)*[^/]+\.[0-9a-f]{8}\.[A-Za-z0-9]+$`)

// CacheControl returns the Cache-Control an object published at rel (a
// path relative to the output root) is stored with.
func CacheControl(rel string) string {
	if hashedAsset.MatchString(rel) {
		return CacheImmutable
	}
	base := path.Base(rel)
	switch ext := strings.ToLower(path.Ext(base)); {
	case ext == ".html" || ext == ".htm",
		rel == layout.Manifest,
		rel == layout.Robots,
		strings.HasPrefix(base, "sitemap") && ext == ".xml",
		base == layout.FeedFile || base == layout.ChangesFile, // what changed: follows every export
		base == layout.SearchFile || base == layout.SearchScriptFile || base == layout.SearchSourcesFile,
		strings.HasPrefix(base, layout.SearchSourcesPagePrefix) && ext == ".js",
		(strings.HasPrefix(base, layout.SearchBodyPrefix) || strings.HasPrefix(base, layout.SearchTitlesPrefix) || strings.HasPrefix(base, layout.SearchTermsBase) || strings.HasPrefix(base, layout.SearchDirPrefix)) && ext == ".js":
		return CacheShort
	}
	return CacheDefault
}

// compressible are the extensions of text kinds stored gzip-compressed
// when Options.Gzip is set. Images, fonts, PDFs and archives are
// compressed already.
var compressible = map[string]bool{
	".html": true, ".htm": true, ".css": true, ".js": true, ".mjs": true,
	".json": true, ".xml": true, ".svg": true, ".md": true, ".txt": true,
	".webmanifest": true,
}

// headers are what an object is stored with.
type headers struct {
	contentType     string
	cacheControl    string
	contentEncoding string // "" or "gzip"
}

// headersFor returns the headers of the object for rel; gzip says whether
// text kinds are stored compressed, and types are the formats' media types
// (Options.Types).
func headersFor(rel string, gzip bool, types map[string]string) headers {
	h := headers{contentType: serve.TypeOf(rel, types), cacheControl: CacheControl(rel)}
	if gzip && compressible[strings.ToLower(path.Ext(rel))] {
		h.contentEncoding = "gzip"
	}
	return h
}
