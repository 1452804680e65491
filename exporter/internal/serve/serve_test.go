package serve

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// site writes a small built site into a temporary folder.
func site(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"index.html":                                  "<!doctype html><title>catalog</title>",
		"404.html":                                    "<!doctype html><title>not found</title>",
		"robots.txt":                                  "User-agent: *\n",
		"assets/site.3f2a9c1e.css":                    "body{}",
		"assets/site.0011aabb.js":                     "void 0",
		"assets/icons/book.svg":                       "<svg xmlns='http://www.w3.org/2000/svg'/>",
		"algebra-1/index.html":                        "<!doctype html><title>landing</title>",
		"algebra-1/base/en/handbook.html":             "<!doctype html><title>handbook</title>",
		"bundles/algebra-1/base/en/tree.json":         "{}",
		"bundles/algebra-1/base/en/markdown/index.md": "# Algebra 1\n",
		".curex-staging/index.html":                   "half written",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestServe(t *testing.T) {
	dir := site(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	h, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, tc := range []struct {
		method, path string
		status       int
		ctype, body  string
		location     string
	}{
		{"GET", "/", 200, "text/html; charset=utf-8", "catalog", ""},
		{"GET", "/index.html", 200, "text/html; charset=utf-8", "catalog", ""},
		{"GET", "/algebra-1/", 200, "text/html; charset=utf-8", "landing", ""},
		{"GET", "/algebra-1/index.html", 200, "text/html; charset=utf-8", "landing", ""},
		{"GET", "/algebra-1", 301, "", "", "/algebra-1/"},
		{"GET", "/assets/site.3f2a9c1e.css", 200, "text/css; charset=utf-8", "body{}", ""},
		{"GET", "/assets/site.0011aabb.js", 200, "text/javascript; charset=utf-8", "void 0", ""},
		{"GET", "/assets/icons/book.svg", 200, "image/svg+xml", "<svg", ""},
		{"GET", "/robots.txt", 200, "text/plain; charset=utf-8", "User-agent", ""},
		{"GET", "/bundles/algebra-1/base/en/tree.json", 200, "application/json", "{}", ""},
		{"GET", "/bundles/algebra-1/base/en/markdown/index.md", 200, "text/markdown; charset=utf-8", "# Algebra 1", ""},
		{"GET", "/nope/index.html", 404, "text/html; charset=utf-8", "not found", ""},
		{"GET", "/.curex-staging/index.html", 404, "text/html; charset=utf-8", "not found", ""},
		{"GET", "/../../etc/passwd", 404, "text/html; charset=utf-8", "not found", ""},
		{"GET", "/link.txt", 404, "text/html; charset=utf-8", "not found", ""},
		{"HEAD", "/index.html", 200, "text/html; charset=utf-8", "", ""},
		{"POST", "/index.html", 405, "", "", ""},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, "http://preview"+tc.path, nil)
			req.URL.Path = tc.path // keep ".." as a client could send it
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d", rec.Code, tc.status)
			}
			if tc.ctype != "" && rec.Header().Get("Content-Type") != tc.ctype {
				t.Errorf("Content-Type %q, want %q", rec.Header().Get("Content-Type"), tc.ctype)
			}
			if !strings.Contains(rec.Body.String(), tc.body) {
				t.Errorf("body %q, want it to contain %q", rec.Body.String(), tc.body)
			}
			if strings.Contains(rec.Body.String(), "secret") || strings.Contains(rec.Body.String(), "half written") {
				t.Errorf("served a file it must not: %q", rec.Body.String())
			}
			if tc.location != "" && rec.Header().Get("Location") != tc.location {
				t.Errorf("Location %q, want %q", rec.Header().Get("Location"), tc.location)
			}
			if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
				t.Error("no nosniff header")
			}
		})
	}
}

func TestPolicies(t *testing.T) {
	h, err := New(site(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	get := func(p string) http.Header {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		return rec.Header()
	}
	if csp := get("/index.html").Get("Content-Security-Policy"); !strings.Contains(csp, "style-src 'self';") || strings.Contains(csp, "unsafe") {
		t.Errorf("site page policy %q", csp)
	}
	if csp := get("/algebra-1/base/en/handbook.html").Get("Content-Security-Policy"); !strings.Contains(csp, "style-src 'self' 'unsafe-inline'") || !strings.Contains(csp, "script-src 'none'") {
		t.Errorf("handbook policy %q", csp)
	}
}

// TestPolicyListsScriptOrigins checks that the publisher's script origins
// (site_scripts) join script-src and connect-src of website pages, not
// the handbook's, and that anything but an https origin is refused.
func TestPolicyListsScriptOrigins(t *testing.T) {
	h, err := New(site(t), Options{ScriptOrigins: []string{"https://stats.example.org", "https://cdn.example.net:8443"}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	get := func(p string) string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		return rec.Header().Get("Content-Security-Policy")
	}
	csp := get("/index.html")
	for _, want := range []string{
		"script-src 'self' https://stats.example.org https://cdn.example.net:8443;",
		"connect-src 'self' https://stats.example.org https://cdn.example.net:8443;",
		"style-src 'self';",
	} {
		if !strings.Contains(csp, want) {
			t.Errorf("site policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") {
		t.Errorf("site policy %q allows unsafe sources", csp)
	}
	if hb := get("/algebra-1/base/en/handbook.html"); strings.Contains(hb, "stats.example.org") {
		t.Errorf("handbook policy %q lists the site's script origins", hb)
	}
	for _, bad := range []string{
		"javascript:alert(1)", "data:text/javascript,alert(1)", "http://stats.example.org",
		"https://stats.example.org; script-src *", "https://", "'unsafe-inline'", "*", "https://a b",
	} {
		if _, err := New(site(t), Options{ScriptOrigins: []string{bad}}); err == nil {
			t.Errorf("New with script origin %q: no error", bad)
		}
	}
}

func TestNewRejectsFoldersWithoutSite(t *testing.T) {
	for _, tc := range []struct{ name, dir string }{
		{"empty folder", t.TempDir()},
		{"missing folder", filepath.Join(t.TempDir(), "nope")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.dir, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.dir) {
				t.Fatalf("error %v, want one naming %s", err, tc.dir)
			}
			if tc.name == "empty folder" && !errors.Is(err, ErrNotSite) {
				t.Fatalf("error %v, want ErrNotSite", err)
			}
		})
	}
}

func TestContentType(t *testing.T) {
	for name, want := range map[string]string{
		"a.HTML": "text/html; charset=utf-8", "x.pdf": "application/pdf", "m.zip": "application/zip",
		"f.woff2": "font/woff2", "noext": "application/octet-stream", "s.xml": "application/xml; charset=utf-8",
	} {
		if got := ContentType(name); got != want {
			t.Errorf("ContentType(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestServeFormatTypes: a file of a format the fixed table does not know
// is sent the media type its format declares (Options.Types); the table
// keeps its own types, and an extension neither knows is octet-stream.
func TestServeFormatTypes(t *testing.T) {
	dir := site(t)
	for name, body := range map[string]string{"outline.cx": "one\n", "data.json": "{}", "blob.bin": "x"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := New(dir, Options{Types: map[string]string{".cx": "text/x-outline; charset=utf-8", ".json": "text/plain"}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, tc := range []struct{ path, want string }{
		{"/outline.cx", "text/x-outline; charset=utf-8"},
		{"/data.json", "application/json"},
		{"/blob.bin", "application/octet-stream"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
		if got := rec.Header().Get("Content-Type"); rec.Code != http.StatusOK || got != tc.want {
			t.Errorf("%s: %d %q, want 200 %q", tc.path, rec.Code, got, tc.want)
		}
	}
}
