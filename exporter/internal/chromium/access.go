package chromium

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Access says what a page may load while Chromium shows it. Every tab
// Chromium opens for curex passes its requests, the document's own
// included, through one gate (see [Access.Decide]): a request the Access
// does not allow fails as blocked by the client, whatever asked for it (an
// image, a style sheet, a font, a frame, a redirect).
//
// The zero value allows nothing.
type Access struct {
	// Dirs are the folders whose files the page may read through file://
	// URLs: a path is cleaned and its symbolic links resolved first, so
	// "..", and a link that leads out of a folder, lead nowhere.
	Dirs []string
	// Origins are http or https origins ("http://127.0.0.1:8080") whose
	// URLs Chromium may load itself: the server of the page curex shows,
	// never one that content names.
	Origins []string
	// Remote, when set, receives every other http or https URL without
	// credentials, and answers it in Chromium's place: its bytes, or an
	// error that fails the request. Chromium itself then never reaches
	// the network; Remote applies the image fetcher's rules
	// (exporter/assets). Nil refuses those URLs too.
	Remote func(ctx context.Context, rawURL string) ([]byte, error)
}

// Verdict is what the gate does with one request.
type Verdict int

const (
	// Refuse fails the request (BlockedByClient).
	Refuse Verdict = iota
	// Load lets Chromium load the URL itself: a file in one of
	// [Access.Dirs], a URL of one of [Access.Origins], or a data: URL.
	Load
	// Fetch answers the request with the bytes of [Access.Remote].
	Fetch
)

// String names the verdict in logs.
func (v Verdict) String() string {
	switch v {
	case Load:
		return "load"
	case Fetch:
		return "fetch"
	}
	return "refuse"
}

// Why a request was refused; Decide's error wraps one of them.
var (
	// ErrScheme: a scheme the page may not use (ftp:, ws:, chrome:, ...),
	// or http(s) with no Access.Origins or Access.Remote that takes it.
	ErrScheme = errors.New("scheme not allowed")
	// ErrOutside: a file outside Access.Dirs, or one that does not exist.
	ErrOutside = errors.New("file outside the page's folders")
	// ErrCredentials: a URL with a user name or password in it.
	ErrCredentials = errors.New("credentials in the URL")
	// ErrMalformed: a URL that does not parse.
	ErrMalformed = errors.New("malformed URL")
)

// Decide judges one URL Chromium asked for: Load, Fetch, or Refuse with an
// error that wraps ErrScheme, ErrOutside, ErrCredentials or ErrMalformed
// and does not repeat the URL. It reads the file system to resolve the
// symbolic links of a file:// path and of the folders.
func (a Access) Decide(raw string) (Verdict, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Refuse, ErrMalformed
	}
	switch strings.ToLower(u.Scheme) {
	case "data":
		return Load, nil
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return Refuse, fmt.Errorf("%w: file on host", ErrOutside)
		}
		if a.fileAllowed(u.Path) {
			return Load, nil
		}
		return Refuse, ErrOutside
	case "http", "https":
		if u.User != nil {
			return Refuse, ErrCredentials
		}
		if u.Host == "" || u.Opaque != "" {
			return Refuse, ErrMalformed
		}
		origin := strings.ToLower(u.Scheme + "://" + u.Host)
		for _, o := range a.Origins {
			if strings.ToLower(strings.TrimSuffix(o, "/")) == origin {
				return Load, nil
			}
		}
		if a.Remote != nil {
			return Fetch, nil
		}
		return Refuse, fmt.Errorf("%w: the network", ErrScheme)
	}
	return Refuse, ErrScheme
}

// fileAllowed reports whether the file at p (a URL's path) is in one of
// a.Dirs once both are cleaned and their symbolic links resolved. A file
// that does not exist is not allowed: there is nothing to load.
func (a Access) fileAllowed(p string) bool {
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) || strings.ContainsRune(p, 0) {
		return false
	}
	resolved, err := filepath.EvalSymlinks(filepath.Clean(p))
	if err != nil {
		return false
	}
	if fi, err := os.Stat(resolved); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	for _, d := range a.Dirs {
		root, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		if r, err := filepath.EvalSymlinks(root); err == nil {
			root = r
		}
		if rel, err := filepath.Rel(root, resolved); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

// accessOf is the Access of a page that Run, Visit, Screenshot and Axe
// load by URL (tests and benchmarks, on pages curex wrote): any local file
// for a file:// page, which may refer to the whole output folder; the
// page's own origin for an http(s) page. Content's remote URLs are refused.
func accessOf(raw string) Access {
	u, err := url.Parse(raw)
	if err != nil {
		return Access{}
	}
	switch strings.ToLower(u.Scheme) {
	case "file":
		return Access{Dirs: []string{string(filepath.Separator)}}
	case "http", "https":
		return Access{Origins: []string{u.Scheme + "://" + u.Host}}
	}
	return Access{}
}

// shortURL is what a log says of a URL the gate refused: no user
// information, and at most 200 bytes (content chooses it).
func shortURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		u.User = nil
		raw = u.String()
	}
	if len(raw) > 200 {
		raw = raw[:200] + "…"
	}
	return raw
}
