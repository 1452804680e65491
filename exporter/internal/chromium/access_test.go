package chromium_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/chromium"
)

// accessTree makes a folder book/ holding a page, an image and two
// symbolic links (one that stays inside, one that leads out), beside a
// folder secret/ with a private file, and returns the root.
func accessTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, name := range []string{"book/handbook.html", "book/img/own.png", "secret/private.png", "assets/content/ab.png"} {
		writeFile(t, root, name, []byte("x"))
	}
	if err := os.Symlink(filepath.Join(root, "secret", "private.png"), filepath.Join(root, "book", "out.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "book", "img", "own.png"), filepath.Join(root, "book", "in.png")); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestAccessDecide is the gate's decision, request by request.
func TestAccessDecide(t *testing.T) {
	root := accessTree(t)
	f := func(p string) string { return "file://" + filepath.ToSlash(filepath.Join(root, p)) }
	remote := func(context.Context, string) ([]byte, error) { return nil, nil }
	book := chromium.Access{Dirs: []string{filepath.Join(root, "book"), filepath.Join(root, "assets", "content")}}
	withRemote := book
	withRemote.Remote = remote
	served := chromium.Access{Origins: []string{"http://127.0.0.1:8080"}}

	for _, tc := range []struct {
		name   string
		access chromium.Access
		url    string
		want   chromium.Verdict
		why    error
	}{
		{"the page", book, f("book/handbook.html"), chromium.Load, nil},
		{"its image", book, f("book/img/own.png"), chromium.Load, nil},
		{"a content image", book, f("assets/content/ab.png"), chromium.Load, nil},
		{"escaped path", book, strings.Replace(f("book/img/own.png"), "own", "%6Fwn", 1), chromium.Load, nil},
		{"a link that stays inside", book, f("book/in.png"), chromium.Load, nil},
		{"dot-dot out", book, f("book") + "/../secret/private.png", chromium.Refuse, chromium.ErrOutside},
		{"escaped dot-dot out", book, f("book") + "/%2e%2e/secret/private.png", chromium.Refuse, chromium.ErrOutside},
		{"a file beside", book, f("secret/private.png"), chromium.Refuse, chromium.ErrOutside},
		{"a link that leads out", book, f("book/out.png"), chromium.Refuse, chromium.ErrOutside},
		{"a prefix is not a folder", book, f("book") + "-x/handbook.html", chromium.Refuse, chromium.ErrOutside},
		{"a folder", book, f("book/img"), chromium.Refuse, chromium.ErrOutside},
		{"missing", book, f("book/none.png"), chromium.Refuse, chromium.ErrOutside},
		{"system file", book, "file:///etc/passwd", chromium.Refuse, chromium.ErrOutside},
		{"file on a host", book, "file://server/share/x.png", chromium.Refuse, chromium.ErrOutside},
		{"NUL", book, f("book/handbook.html") + "%00", chromium.Refuse, chromium.ErrOutside},
		{"no folders", chromium.Access{}, f("book/handbook.html"), chromium.Refuse, chromium.ErrOutside},
		{"data", book, "data:image/png;base64,AAAA", chromium.Load, nil},
		{"http without remote", book, "http://127.0.0.1:8080/x.png", chromium.Refuse, chromium.ErrScheme},
		{"https without remote", book, "https://img.example/x.png", chromium.Refuse, chromium.ErrScheme},
		{"http with remote", withRemote, "https://img.example/x.png", chromium.Fetch, nil},
		{"loopback with remote is Remote's", withRemote, "http://127.0.0.1/x.png", chromium.Fetch, nil},
		{"credentials", withRemote, "https://user:pw@img.example/x.png", chromium.Refuse, chromium.ErrCredentials},
		{"user only", withRemote, "https://token@img.example/x.png", chromium.Refuse, chromium.ErrCredentials},
		{"no host", withRemote, "http:///x.png", chromium.Refuse, chromium.ErrMalformed},
		{"opaque", withRemote, "http:x.png", chromium.Refuse, chromium.ErrMalformed},
		{"ws", withRemote, "ws://img.example/", chromium.Refuse, chromium.ErrScheme},
		{"ftp", withRemote, "ftp://img.example/x.png", chromium.Refuse, chromium.ErrScheme},
		{"chrome", withRemote, "chrome://settings", chromium.Refuse, chromium.ErrScheme},
		{"blob", withRemote, "blob:null/abc", chromium.Refuse, chromium.ErrScheme},
		{"malformed", withRemote, "http://[::1/x", chromium.Refuse, chromium.ErrMalformed},
		{"the page's origin", served, "http://127.0.0.1:8080/assets/site.css", chromium.Load, nil},
		{"another port", served, "http://127.0.0.1:8081/x.png", chromium.Refuse, chromium.ErrScheme},
		{"case of the origin", served, "HTTP://127.0.0.1:8080/x", chromium.Load, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.access.Decide(tc.url)
			if got != tc.want || !errors.Is(err, tc.why) || (tc.why == nil) != (err == nil) {
				t.Errorf("Decide(%q) = %v, %v; want %v, %v", tc.url, got, err, tc.want, tc.why)
			}
			if err != nil && strings.Contains(err.Error(), "pw") {
				t.Errorf("the error repeats the URL: %v", err)
			}
		})
	}
}

// FuzzAccessDecide: whatever the URL, Decide never panics, never lets a
// file outside the folder load, and never lets a URL with credentials
// through.
func FuzzAccessDecide(f *testing.F) {
	for _, s := range []string{"file:///etc/passwd", "file://localhost/tmp/../etc", "http://u:p@h/x", "data:,x",
		"HTTPS://h/x", "file:///%2e%2e/%00", "http://[::1]:80/x", "javascript:alert(1)", "file://\\\\h\\x"} {
		f.Add(s)
	}
	root := f.TempDir()
	book := filepath.Join(root, "book")
	if err := os.MkdirAll(book, 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "private"), []byte("x"), 0o644); err != nil {
		f.Fatal(err)
	}
	a := chromium.Access{Dirs: []string{book}, Remote: func(context.Context, string) ([]byte, error) { return nil, nil }}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := a.Decide(raw)
		if (v == chromium.Refuse) != (err != nil) {
			t.Fatalf("Decide(%q) = %v, %v", raw, v, err)
		}
		if v == chromium.Load && strings.Contains(strings.ToLower(raw), "private") && strings.HasPrefix(strings.ToLower(raw), "file:") {
			t.Fatalf("Decide(%q) loads a file outside the folder", raw)
		}
		if v != chromium.Refuse && strings.Contains(raw, "@") && strings.HasPrefix(strings.ToLower(raw), "http") &&
			!strings.ContainsAny(strings.SplitN(raw, "@", 2)[0][min(len(raw), 8):], "/?#") {
			t.Fatalf("Decide(%q) = %v with credentials", raw, v)
		}
	})
}
