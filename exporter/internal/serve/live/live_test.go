package live

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// page is a Site that answers one body and counts its closes.
type page struct {
	body   string
	closed atomic.Int32
	block  chan struct{} // when set, requests wait for it
	in     chan struct{} // when set, told that a request began
	gone   chan struct{} // when set, closed by Close
}

func (p *page) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	if p.in != nil {
		p.in <- struct{}{}
	}
	if p.block != nil {
		<-p.block
	}
	_, _ = io.WriteString(w, p.body)
}

func (p *page) Close() error {
	if p.closed.Add(1) == 1 && p.gone != nil {
		close(p.gone)
	}
	return nil
}

// stream reads Server-Sent Events.
type stream struct {
	t    *testing.T
	sc   *bufio.Scanner
	body io.Closer
}

func openStream(t *testing.T, base string) *stream {
	t.Helper()
	resp, err := http.Get(base + Prefix + "events")
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("events: Content-Type %q", ct)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return &stream{t: t, sc: bufio.NewScanner(resp.Body), body: resp.Body}
}

// next returns the next event's name and data; "" at the end.
func (s *stream) next() (event, data string) {
	s.t.Helper()
	for s.sc.Scan() {
		line := s.sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = strings.TrimPrefix(line, "data: ")
		case line == "" && event != "":
			return event, data
		}
	}
	return "", ""
}

func (s *stream) want(event, data string) {
	s.t.Helper()
	if e, d := s.next(); e != event || d != data {
		s.t.Fatalf("event %q %s, want %q %s", e, d, event, data)
	}
}

func get(t *testing.T, url string) (int, string, http.Header) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b), resp.Header
}

// TestServerEvents publishes, fails and recovers: each open page hears
// it in order, and a page connecting late is told the state at once.
func TestServerEvents(t *testing.T) {
	s := New()
	srv := httptest.NewServer(s)
	defer srv.Close()
	defer s.Close()

	if code, _, _ := get(t, srv.URL+"/"); code != http.StatusServiceUnavailable {
		t.Errorf("before the first build: %d, want 503", code)
	}
	first := &page{body: "one"}
	s.Publish(first)
	ev := openStream(t, srv.URL)
	ev.want("hello", `{"gen":1}`)
	if _, body, _ := get(t, srv.URL+"/"); body != "one" {
		t.Errorf("served %q", body)
	}

	s.Fail("template: theme/node.html:3: unexpected \"}\"\nin operand")
	ev.want("failed", `{"message":"template: theme/node.html:3: unexpected \"}\"\nin operand"}`)
	if _, body, _ := get(t, srv.URL+"/"); body != "one" {
		t.Errorf("after a failure: served %q, want the last good site", body)
	}
	late := openStream(t, srv.URL)
	late.want("hello", `{"gen":1}`)
	late.want("failed", `{"message":"template: theme/node.html:3: unexpected \"}\"\nin operand"}`)

	s.Recover()
	ev.want("ok", `{}`)
	late.want("ok", `{}`)

	second := &page{body: "two"}
	s.Publish(second)
	ev.want("reload", `{"gen":2}`)
	if _, body, _ := get(t, srv.URL+"/"); body != "two" {
		t.Errorf("after publishing: served %q", body)
	}
	if first.closed.Load() != 1 {
		t.Errorf("the replaced site was closed %d times, want 1", first.closed.Load())
	}
	s.Close()
	if e, _ := ev.next(); e != "" {
		t.Errorf("after Close: event %q, want the stream ended", e)
	}
	if second.closed.Load() != 1 {
		t.Errorf("Close closed the site %d times", second.closed.Load())
	}
}

// TestServerKeepsReplacedSiteOpenForItsRequests: a request that began on
// the old site finishes on it; the old site is closed after it.
func TestServerKeepsReplacedSiteOpenForItsRequests(t *testing.T) {
	s := New()
	srv := httptest.NewServer(s)
	defer srv.Close()
	defer s.Close()
	old := &page{body: "old", block: make(chan struct{}), in: make(chan struct{}), gone: make(chan struct{})}
	s.Publish(old)
	got := make(chan string)
	go func() {
		resp, err := http.Get(srv.URL + "/")
		if err != nil {
			got <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- string(b)
	}()
	<-old.in
	s.Publish(&page{body: "new"})
	if n := old.closed.Load(); n != 0 {
		t.Fatalf("closed while a request was on it")
	}
	close(old.block)
	if b := <-got; b != "old" {
		t.Errorf("the request in flight got %q", b)
	}
	<-old.gone // closed once its request ended (the test's deadline catches a leak)
	if _, body, _ := get(t, srv.URL+"/"); body != "new" {
		t.Errorf("served %q", body)
	}
}

func TestServerOwnFiles(t *testing.T) {
	s := New()
	srv := httptest.NewServer(s)
	defer srv.Close()
	defer s.Close()
	for _, tc := range []struct {
		path, ctype string
		code        int
		contains    string
	}{
		{"live.js", "text/javascript; charset=utf-8", 200, "EventSource(\"" + Prefix + "events\")"},
		{"live.css", "text/css; charset=utf-8", 200, "#curex-live-overlay"},
		{"other", "text/plain; charset=utf-8", 404, ""},
	} {
		code, body, hdr := get(t, srv.URL+Prefix+tc.path)
		if code != tc.code || hdr.Get("Content-Type") != tc.ctype || !strings.Contains(body, tc.contains) {
			t.Errorf("%s: %d %q", tc.path, code, hdr.Get("Content-Type"))
		}
	}
	if !strings.Contains(Snippet, Prefix+"live.js") || !strings.Contains(Snippet, Prefix+"live.css") {
		t.Errorf("Snippet %q links neither file", Snippet)
	}
}
