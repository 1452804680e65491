package serve

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInject(t *testing.T) {
	const s = "<script src=/x.js></script>"
	for _, tc := range []struct{ name, page, want string }{
		{"before the head's end", "<html><head><title>t</title></head><body></body></html>", "<html><head><title>t</title>" + s + "</head><body></body></html>"},
		{"first head only", "<head></head><p>&lt;/head></p></head>", "<head>" + s + "</head><p>&lt;/head></p></head>"},
		{"upper case", "<HTML><HEAD></HEAD></HTML>", "<HTML><HEAD>" + s + "</HEAD></HTML>"},
		{"no head: before the body's end", "<p>x</p></body>", "<p>x</p>" + s + "</body>"},
		{"neither: at the end", "<!doctype html><title>catalog</title>", "<!doctype html><title>catalog</title>" + s},
		{"empty", "", s},
		{"bytes that are not UTF-8 before the head's end", "\xb4\xf3</heAd>x", "\xb4\xf3" + s + "</heAd>x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Inject([]byte(tc.page), s)); got != tc.want {
				t.Errorf("Inject = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestServeInjects: with Options.Inject the pages sent carry the snippet
// (the 404 page too) and the other files do not; the files on disk stay
// as they were; a handbook's policy lets the injected script run.
func TestServeInjects(t *testing.T) {
	dir := site(t)
	const snippet = `<script src="/.live/live.js" defer></script>`
	h, err := New(dir, Options{Inject: snippet})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, tc := range []struct {
		path   string
		status int
		inject bool
		policy string
	}{
		{"/", 200, true, "script-src 'self';"},
		{"/algebra-1/", 200, true, "script-src 'self';"},
		{"/missing/", 404, true, "script-src 'self';"},
		{"/algebra-1/base/en/handbook.html", 200, true, "script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self';"},
		{"/robots.txt", 200, false, ""},
		{"/assets/site.3f2a9c1e.css", 200, false, ""},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
		body := rec.Body.String()
		if rec.Code != tc.status || strings.Contains(body, snippet) != tc.inject {
			t.Errorf("GET %s: %d, injected %v, want %d, %v: %q", tc.path, rec.Code, strings.Contains(body, snippet), tc.status, tc.inject, body)
		}
		if !strings.Contains(rec.Header().Get("Content-Security-Policy"), tc.policy) {
			t.Errorf("GET %s: policy %q lacks %q", tc.path, rec.Header().Get("Content-Security-Policy"), tc.policy)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/", nil))
	if rec.Body.Len() != 0 || rec.Code != 200 {
		t.Errorf("HEAD /: %d with %d bytes", rec.Code, rec.Body.Len())
	}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		if strings.Contains(string(b), snippet) {
			t.Errorf("%s on disk holds the snippet", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// Without Inject, nothing is added and the handbook allows no script.
	plain, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	rec = httptest.NewRecorder()
	plain.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/algebra-1/base/en/handbook.html", nil))
	if rec.Body.String() != "<!doctype html><title>handbook</title>" || !strings.Contains(rec.Header().Get("Content-Security-Policy"), "script-src 'none'") {
		t.Errorf("plain handbook: %q, policy %q", rec.Body.String(), rec.Header().Get("Content-Security-Policy"))
	}
}

// FuzzInject: whatever the page, the snippet goes in once, before the
// first </head> when there is one, and taking it out gives the page back.
func FuzzInject(f *testing.F) {
	for _, s := range []string{"", "<html><head></head><body></body></html>", "</HEAD></head>", "<p></body></body>", "\xff</he", "</head"} {
		f.Add(s)
	}
	const snippet = "<script src=/.l/l.js></script>"
	f.Fuzz(func(t *testing.T, page string) {
		got := string(Inject([]byte(page), snippet))
		if len(got) != len(page)+len(snippet) {
			t.Fatalf("length %d, want %d", len(got), len(page)+len(snippet))
		}
		if !strings.Contains(got, snippet) {
			t.Fatalf("snippet missing in %q", got)
		}
		i := strings.Index(asciiLower(page), "</head>")
		if i >= 0 && got[i:i+len(snippet)] != snippet {
			t.Fatalf("snippet not before the first </head> in %q", got)
		}
		if i >= 0 && got[:i]+got[i+len(snippet):] != page {
			t.Fatalf("taking the snippet out does not give the page back")
		}
	})
}

// asciiLower lower-cases the ASCII letters of s alone.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
