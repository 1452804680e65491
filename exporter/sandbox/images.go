package sandbox

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// Origin is the placeholder origin content in a dataset uses to refer to
// the sandbox's own files: an image at
// "https://sandbox.invalid/images/water-cycle.png" in a node's Markdown is
// served as "http://127.0.0.1:8080/images/water-cycle.png" by a sandbox
// answering at 127.0.0.1:8080, whatever port it was given. The handler
// substitutes it in every answer with the origin the request was sent to
// (its scheme and Host). The .invalid domain never resolves (RFC 6761),
// so content that leaves the sandbox unsubstituted fetches nothing.
const Origin = "https://sandbox.invalid"

// ImagesPath is where the sandbox serves its images, without
// authentication, as a web server would.
const ImagesPath = "/images/"

// images are the files served under ImagesPath: small pictures for the
// sample's lessons, and broken.png, which is HTML, not an image (a
// missing name answers 404).
//
//go:embed images
var images embed.FS

// serveImage serves one file of images under ImagesPath, with an ETag
// and conditional requests. It reports whether the path was its.
func serveImage(w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasPrefix(r.URL.Path, ImagesPath) {
		return false
	}
	name := strings.TrimPrefix(r.URL.Path, ImagesPath)
	data, err := images.ReadFile("images/" + name)
	if err != nil || strings.Contains(name, "/") || name == "" {
		http.NotFound(w, r)
		return true
	}
	sum := sha256.Sum256(data)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "public, max-age=3600")
	switch path.Ext(name) {
	case ".jpg":
		h.Set("Content-Type", "image/jpeg")
	default:
		h.Set("Content-Type", "image/png") // broken.png too: the header lies
	}
	if etagMatch(r.Header.Values("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	h.Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(data)
	}
	return true
}

// requestOrigin is the origin a request was sent to: "http://host:port";
// Origin itself for a Host that is not a plain host and port.
func requestOrigin(r *http.Request) string {
	for _, c := range r.Host {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(".-:[]", c)) {
			return Origin
		}
	}
	if r.Host == "" {
		return Origin
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// withOrigin returns enc with Origin replaced by origin, and its ETag
// computed again (enc itself when it holds no placeholder). Origin and
// any host are plain ASCII without characters JSON escapes.
func withOrigin(enc encoded, origin string) encoded {
	if !bytes.Contains(enc.body, []byte(Origin)) {
		return enc
	}
	return tagged(bytes.ReplaceAll(enc.body, []byte(Origin), []byte(origin)))
}
