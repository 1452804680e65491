// Package serve previews a built curex site over HTTP, as `curex serve DIR`
// and `curex demo --serve` do.
//
// It serves the folder read-only through an os.Root, so neither a request
// path nor a symbolic link inside the folder reaches a file outside it.
// Content types come from a fixed table (not the machine's mime.types), so
// every machine serves .js, .css, .svg, .json, .md, .pdf and .zip the same
// way, and text always as UTF-8; a file whose extension the table lacks is
// sent the media type its format declares (Options.Types, from the
// registry of formats). A missing page answers 404 with the site's
// own 404.html. Names starting with a dot (staging folders, .git) are not
// served. Every answer carries the headers a careful host would set:
// X-Content-Type-Options: nosniff, a Content-Security-Policy that the
// website's pages satisfy (no inline script or style; handbooks, which
// are single self-contained files, may carry their own stylesheet; the
// origins of the publisher's scripts, when New is given them, may serve
// scripts and receive requests: SitePolicy), and
// Cache-Control: no-cache so a rebuilt site shows at once. For `curex
// dev`, Options.Inject adds a snippet (the live-reload script, package
// live) to the pages as they are sent, never to the files.
package serve

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"

	"github.com/curex/curex/exporter/internal/layout"
)

// contentTypes maps file extensions to the Content-Type served.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".htm":         "text/html; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".json":        "application/json",
	".xml":         "application/xml; charset=utf-8",
	".txt":         "text/plain; charset=utf-8",
	".md":          "text/markdown; charset=utf-8",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".jpeg":        "image/jpeg",
	".gif":         "image/gif",
	".webp":        "image/webp",
	".avif":        "image/avif",
	".ico":         "image/x-icon",
	".woff":        "font/woff",
	".woff2":       "font/woff2",
	".ttf":         "font/ttf",
	".otf":         "font/otf",
	".pdf":         "application/pdf",
	".zip":         "application/zip",
	".epub":        "application/epub+zip", // EPUB book
	".imscc":       "application/zip",      // IMS Common Cartridge
	".webmanifest": "application/manifest+json",
}

// ContentType returns the Content-Type served for a file name, and
// "application/octet-stream" for an unknown extension.
func ContentType(name string) string {
	if path.Base(name) == layout.FeedFile { // the Atom feeds of changes
		return "application/atom+xml; charset=utf-8"
	}
	if t, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return octetStream
}

// contentType is TypeOf name with the formats' types (Options.Types).
func (h *Handler) contentType(name string) string { return TypeOf(name, h.types) }

// TypeOf is ContentType, or for an extension the fixed table does not
// know, its type in formats (extension to media type, as
// render.Registry.MediaTypes gives it). Serving and publishing a folder
// both ask it.
func TypeOf(name string, formats map[string]string) string {
	t := ContentType(name)
	if t == octetStream {
		if ft, ok := formats[strings.ToLower(path.Ext(name))]; ok {
			return ft
		}
	}
	return t
}

// octetStream is the Content-Type of a file whose type is not known.
const octetStream = "application/octet-stream"

// handbookPolicy is the Content-Security-Policy of handbooks: it allows
// the handbook's own <style> element, and no script.
const handbookPolicy = "default-src 'self'; img-src 'self' https: data:; script-src 'none'; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// handbookLivePolicy is handbookPolicy for a handbook served with
// Options.Inject: the injected script, from the site's origin, may run
// and connect back to it; nothing else is allowed that was not.
const handbookLivePolicy = "default-src 'self'; img-src 'self' https: data:; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// SitePolicy is the Content-Security-Policy of website pages: the site's
// own scripts and styles only, images from the site, https and data:
// URLs. The origins of the publisher's scripts (site_scripts, such as an
// analytics service's: "https://stats.example.org") join script-src and
// connect-src, and nothing else; a host serving the site should send the
// same header (docs/themes.md). An origin that is not https://host[:port]
// is an error: it would widen the policy past what was asked.
func SitePolicy(scriptOrigins ...string) (string, error) {
	extra := ""
	for _, o := range scriptOrigins {
		if !validOrigin(o) {
			return "", fmt.Errorf("script origin %q: want https://host[:port]", o)
		}
		extra += " " + o
	}
	return "default-src 'self'; img-src 'self' https: data:; script-src 'self'" + extra + "; style-src 'self'; connect-src 'self'" + extra +
		"; object-src 'none'; base-uri 'none'; frame-ancestors 'none'", nil
}

// validOrigin accepts "https://" and a host name or address, with an
// optional port: letters, digits, ".", "-", ":" and "[]" (IPv6).
func validOrigin(o string) bool {
	host, ok := strings.CutPrefix(o, "https://")
	if !ok || host == "" {
		return false
	}
	for _, r := range host {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-:[]", r)) {
			return false
		}
	}
	return true
}

// ErrNotSite is returned by New when the folder holds no built site.
var ErrNotSite = errors.New("not a built curex site")

// Options configure a Handler. The zero value serves the site with its
// own scripts only and the fixed table of content types.
type Options struct {
	// ScriptOrigins are the origins of the publisher's scripts: the
	// website pages are sent SitePolicy of them.
	ScriptOrigins []string
	// Types maps file extensions (".pdf") to the Content-Type of the
	// files of the formats a build writes (render.Registry.MediaTypes):
	// an extension the fixed table lacks is sent its type from here.
	Types map[string]string
	// Inject is HTML that served pages get before their </head> (`curex
	// dev`'s live-reload script, package live): only the bytes sent
	// change, never the files. A page given it may load scripts from
	// the site's origin and connect to it, a handbook too (whose own
	// policy allows no script).
	Inject string
}

// Handler serves one site folder.
type Handler struct {
	root *os.Root
	fsys fs.FS
	// sitePolicy is the Content-Security-Policy of website pages.
	sitePolicy string
	// types are Options.Types.
	types map[string]string
	// inject is Options.Inject.
	inject string
}

// New opens dir for serving, as o says. It fails with an error wrapping
// ErrNotSite when dir has no index.html, and names the folder in every
// error.
func New(dir string, o Options) (*Handler, error) {
	policy, err := SitePolicy(o.ScriptOrigins...)
	if err != nil {
		return nil, fmt.Errorf("serve %s: %w", dir, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("serve %s: %w", dir, err)
	}
	if fi, err := root.Stat(layout.Home); err != nil || fi.IsDir() {
		root.Close()
		return nil, fmt.Errorf("serve %s: no %s: build a site there with curex export or curex build first: %w", dir, layout.Home, ErrNotSite)
	}
	return &Handler{root: root, fsys: root.FS(), sitePolicy: policy, types: o.Types, inject: o.Inject}, nil
}

// Close releases the folder.
func (h *Handler) Close() error { return h.root.Close() }

// ServeHTTP serves GET and HEAD requests for files of the site.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Referrer-Policy", "no-referrer")
	hdr.Set("Cache-Control", "no-cache")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := h.resolve(r.URL.Path)
	if !ok {
		h.notFound(w, r)
		return
	}
	if path.Base(name) == layout.Index && !strings.HasSuffix(r.URL.Path, "/") && path.Base(r.URL.Path) != layout.Index {
		// A folder asked for without its slash: relative links inside
		// would resolve against the parent, so redirect.
		http.Redirect(w, r, path.Base(r.URL.Path)+"/", http.StatusMovedPermanently)
		return
	}
	h.serveFile(w, r, name, http.StatusOK)
}

// resolve maps a URL path to a file name in the root: a folder to its
// index.html. ok is false when there is no such file or the path names a
// hidden file.
func (h *Handler) resolve(urlPath string) (string, bool) {
	p := path.Clean("/" + urlPath)
	name := strings.TrimPrefix(p, "/")
	if name == "" {
		name = "."
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") && part != "." {
			return "", false
		}
	}
	fi, err := fs.Stat(h.fsys, name)
	if err != nil {
		return "", false
	}
	if fi.IsDir() {
		name = path.Join(name, layout.Index)
		if fi, err = fs.Stat(h.fsys, name); err != nil || fi.IsDir() {
			return "", false
		}
	}
	return name, true
}

func (h *Handler) notFound(w http.ResponseWriter, r *http.Request) {
	if _, err := fs.Stat(h.fsys, layout.NotFound); err == nil {
		h.serveFile(w, r, layout.NotFound, http.StatusNotFound)
		return
	}
	http.Error(w, "404 page not found", http.StatusNotFound)
}

func (h *Handler) serveFile(w http.ResponseWriter, r *http.Request, name string, status int) {
	f, err := h.fsys.Open(name)
	if err != nil {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		http.Error(w, "500 internal server error", http.StatusInternalServerError)
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", h.contentType(name))
	switch {
	case path.Base(name) == layout.HandbookFile && h.inject != "":
		hdr.Set("Content-Security-Policy", handbookLivePolicy)
	case path.Base(name) == layout.HandbookFile:
		hdr.Set("Content-Security-Policy", handbookPolicy)
	default:
		hdr.Set("Content-Security-Policy", h.sitePolicy)
	}
	if h.inject != "" && isHTML(name) {
		h.serveInjected(w, r, f, name, fi, status)
		return
	}
	if status == http.StatusOK {
		rs, ok := f.(io.ReadSeeker)
		if ok {
			http.ServeContent(w, r, name, fi.ModTime(), rs)
			return
		}
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = io.Copy(w, f)
	}
}

// isHTML tells whether name is served as an HTML page.
func isHTML(name string) bool {
	return strings.HasPrefix(ContentType(name), "text/html")
}

// maxInjected bounds the pages Options.Inject is put into; a larger one
// is sent as it is.
const maxInjected = 64 << 20

// serveInjected sends the page f with h.inject before its </head> (before
// </body> when it has no head, else at its end).
func (h *Handler) serveInjected(w http.ResponseWriter, r *http.Request, f fs.File, name string, fi fs.FileInfo, status int) {
	if fi.Size() > maxInjected {
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			_, _ = io.Copy(w, f)
		}
		return
	}
	page, err := io.ReadAll(f)
	if err != nil {
		http.Error(w, "500 internal server error", http.StatusInternalServerError)
		return
	}
	page = Inject(page, h.inject)
	if status == http.StatusOK {
		http.ServeContent(w, r, name, fi.ModTime(), bytes.NewReader(page))
		return
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(page)
	}
}

// Inject returns page with snippet inserted before its first </head>, or
// its last </body> when it has no head, or at its end (tags matched
// case-insensitively, as browsers read them).
func Inject(page []byte, snippet string) []byte {
	// ASCII letters only: a lower-cased copy the length of page, whatever
	// bytes it holds, so its indexes are page's.
	lower := make([]byte, len(page))
	for i, c := range page {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	at := bytes.Index(lower, []byte("</head>"))
	if at < 0 {
		at = bytes.LastIndex(lower, []byte("</body>"))
	}
	if at < 0 {
		at = len(page)
	}
	out := make([]byte, 0, len(page)+len(snippet))
	out = append(out, page[:at]...)
	out = append(out, snippet...)
	return append(out, page[at:]...)
}
