// Package live serves a site that is rebuilt while browsers have it open,
// for `curex dev`: it answers each request from the site last published
// (a rebuilt output folder is a new folder, swapped in by the output
// layer, so each build is published as a new handler), and it tells the
// open pages when to reload, or that the last build failed, over
// Server-Sent Events.
//
// Its own files live under Prefix, a path no site file can take (the site
// handler serves no name starting with a dot): the script (live.js) and
// its style sheet (live.css), which Snippet links from every page served
// (serve.Options.Inject) and which the site's Content-Security-Policy
// allows as it stands (script-src, style-src and connect-src 'self'), and
// the event stream (events). The stream sends, as one-line JSON:
//
//   - "hello" {"gen": N} on connecting: the build the server publishes; a
//     page that saw another one reloads (it missed a reload while away);
//   - "reload" {"gen": N} when a build is published;
//   - "failed" {"message": "..."} when a build failed (and on connecting
//     while the last one has failed): the page shows the message over
//     itself, and the site served stays the last good one;
//   - "ok" {} when a build succeeds after a failure, with no new site
//     (the overlay goes).
package live

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Prefix is the path under which the package serves its own files.
const Prefix = "/.curex-live/"

// Snippet is the HTML every served page gets before its </head>: the
// overlay's style sheet and the script, both from the site's origin.
const Snippet = `<link rel="stylesheet" href="` + Prefix + `live.css"><script src="` + Prefix + `live.js" defer></script>`

//go:embed live.js
var script []byte

//go:embed live.css
var style []byte

// Site is a published site: a handler that is closed once no request
// uses it any longer (serve.Handler).
type Site interface {
	http.Handler
	io.Closer
}

// site is a published Site with the requests it serves.
type site struct {
	h        Site
	inflight int
	retired  bool
}

// Server serves the published site and the live files. Its methods are
// safe for concurrent use.
type Server struct {
	mu      sync.Mutex
	cur     *site
	gen     uint64 // builds published
	failure string // the last build's failure; "" when it succeeded
	subs    map[chan struct{}]struct{}
	closed  bool
	done    chan struct{}
}

// New returns a Server with no site yet: until Publish, pages answer 503.
func New() *Server {
	return &Server{subs: map[chan struct{}]struct{}{}, done: make(chan struct{})}
}

// Publish makes h the site served, clears a failure, and tells the open
// pages to reload. The site it replaces is closed once its last request
// ends.
func (s *Server) Publish(h Site) {
	s.mu.Lock()
	old := s.cur
	s.cur = &site{h: h}
	s.gen++
	s.failure = ""
	var closeOld Site
	if old != nil {
		old.retired = true
		if old.inflight == 0 {
			closeOld = old.h
		}
	}
	s.notify()
	s.mu.Unlock()
	if closeOld != nil {
		_ = closeOld.Close()
	}
}

// Fail records that the last build failed with message (one the terminal
// shows too), and tells the open pages, which show it over themselves;
// the site served stays the last one published.
func (s *Server) Fail(message string) {
	if message == "" {
		message = "the build failed"
	}
	s.mu.Lock()
	s.failure = message
	s.notify()
	s.mu.Unlock()
}

// Recover clears a failure without a new site (a rebuild that changed no
// file after a failed one): the pages drop their overlay.
func (s *Server) Recover() {
	s.mu.Lock()
	s.failure = ""
	s.notify()
	s.mu.Unlock()
}

// Close ends every event stream (so that an http.Server can shut down:
// call it from RegisterOnShutdown) and closes the site served.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	var h Site
	if s.cur != nil {
		s.cur.retired = true
		if s.cur.inflight == 0 {
			h = s.cur.h
		}
	}
	s.mu.Unlock()
	if h != nil {
		return h.Close()
	}
	return nil
}

// notify wakes every event stream; s.mu is held.
func (s *Server) notify() {
	for ch := range s.subs {
		select {
		case ch <- struct{}{}:
		default: // already woken
		}
	}
}

// ServeHTTP serves the live files under Prefix and the site's files
// otherwise.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if name, ok := strings.CutPrefix(r.URL.Path, Prefix); ok {
		s.serveOwn(w, r, name)
		return
	}
	s.mu.Lock()
	cur := s.cur
	if cur != nil {
		cur.inflight++
	}
	s.mu.Unlock()
	if cur == nil {
		w.Header().Set("Retry-After", "1")
		http.Error(w, "503 the first build has not finished", http.StatusServiceUnavailable)
		return
	}
	defer s.release(cur)
	cur.h.ServeHTTP(w, r)
}

// release ends a request on st, closing st when it was the last one on a
// retired site.
func (s *Server) release(st *site) {
	s.mu.Lock()
	st.inflight--
	last := st.retired && st.inflight == 0
	s.mu.Unlock()
	if last {
		_ = st.h.Close()
	}
}

func (s *Server) serveOwn(w http.ResponseWriter, r *http.Request, name string) {
	hdr := w.Header()
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Cache-Control", "no-cache")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	switch name {
	case "live.js":
		hdr.Set("Content-Type", "text/javascript; charset=utf-8")
		_, _ = w.Write(script)
	case "live.css":
		hdr.Set("Content-Type", "text/css; charset=utf-8")
		_, _ = w.Write(style)
	case "events":
		s.events(w, r)
	default:
		http.NotFound(w, r)
	}
}

// events streams the server's state to one page until the page goes or
// the server closes.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "500 streaming unsupported", http.StatusInternalServerError)
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream; charset=utf-8")
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "503 shutting down", http.StatusServiceUnavailable)
		return
	}
	s.subs[ch] = struct{}{}
	gen, failure := s.gen, s.failure
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.subs, ch)
		s.mu.Unlock()
	}()
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	send(w, "hello", map[string]any{"gen": gen})
	if failure != "" {
		send(w, "failed", map[string]any{"message": failure})
	}
	fl.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		case <-ch:
		}
		s.mu.Lock()
		g, f := s.gen, s.failure
		s.mu.Unlock()
		switch {
		case g != gen:
			send(w, "reload", map[string]any{"gen": g})
		case f != "" && f != failure:
			send(w, "failed", map[string]any{"message": f})
		case f == "" && failure != "":
			send(w, "ok", map[string]any{})
		}
		gen, failure = g, f
		fl.Flush()
	}
}

// send writes one event; data is JSON, on one line.
func send(w io.Writer, event string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		b = []byte("{}")
	}
	_, _ = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
}
