package assets_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/curex/curex/exporter/internal/assets"
	"github.com/curex/curex/exporter/internal/imagecheck"
)

// pngOf returns a w×h PNG.
func pngOf(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, 0, color.RGBA{R: 200, A: 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestPublic(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want bool
	}{
		{"93.184.215.14", true},
		{"2606:2800:21f:cb07:6820:80da:af6b:8b2c", true},
		{"127.0.0.1", false},
		{"127.8.9.10", false},
		{"10.0.0.1", false},
		{"172.16.0.1", false},
		{"172.31.255.254", false},
		{"172.32.0.1", true},
		{"192.168.1.1", false},
		{"169.254.169.254", false}, // cloud metadata
		{"0.0.0.0", false},
		{"100.64.0.1", false},
		{"224.0.0.1", false},
		{"255.255.255.255", false},
		{"::1", false},
		{"::", false},
		{"fc00::1", false},
		{"fd12:3456::1", false},
		{"fe80::1", false},
		{"ff02::1", false},
		{"::ffff:127.0.0.1", false},
		{"::ffff:10.1.2.3", false},
		{"::ffff:93.184.215.14", true},
		{"64:ff9b::a00:1", false},
		{"2002:a00:1::", false},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			if got := assets.Public(netip.MustParseAddr(tc.addr)); got != tc.want {
				t.Errorf("Public(%s) = %v, want %v", tc.addr, got, tc.want)
			}
		})
	}
}

// fetcher returns a Fetcher with o, failing the test on an error.
func fetcher(t *testing.T, o assets.Options) *assets.Fetcher {
	t.Helper()
	f, err := assets.NewFetcher(o)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestLoopbackRefusedAtDial(t *testing.T) {
	var hits atomic.Int32
	img := pngOf(t, 3, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write(img)
	}))
	defer srv.Close()
	ctx := context.Background()
	// Through a name, as DNS rebinding would: the dialled address is checked.
	named := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	for _, u := range []string{srv.URL + "/a.png", named + "/a.png"} {
		_, _, err := fetcher(t, assets.Options{}).Fetch(ctx, u)
		if !errors.Is(err, assets.ErrAddress) {
			t.Errorf("%s: err = %v, want ErrAddress", u, err)
		}
		var e *assets.Error
		if !errors.As(err, &e) || e.URL != u {
			t.Errorf("%s: error %v does not name the URL", u, err)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("the server was reached %d times", hits.Load())
	}
	// The one host allowed, and AllowPrivate, get through.
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, o := range []assets.Options{{AllowHosts: []string{host}}, {AllowPrivate: true}} {
		a, _, err := fetcher(t, o).Fetch(ctx, srv.URL+"/a.png")
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		if a.Width != 3 || a.Height != 2 || a.Kind.Ext != "png" || !strings.HasPrefix(a.Path, "assets/content/") || !strings.HasSuffix(a.Path, ".png") {
			t.Errorf("asset = %+v", a)
		}
	}
}

func TestRefusals(t *testing.T) {
	img := pngOf(t, 4, 4)
	mux := http.NewServeMux()
	mux.HandleFunc("/ok.png", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(img) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(img)
		_, _ = w.Write(make([]byte, 2048))
	})
	mux.HandleFunc("/big-chunked", func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush() // no Content-Length: the limit is on the read
		for range 4 {
			_, _ = w.Write(make([]byte, 512))
		}
	})
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png") // the header lies
		_, _ = w.Write([]byte("<html>not an image</html>"))
	})
	mux.HandleFunc("/pic.svg", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		_, _ = w.Write([]byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`))
	})
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/hop/{n}", func(w http.ResponseWriter, r *http.Request) {
		var n int
		_, _ = fmt.Sscan(r.PathValue("n"), &n)
		if n == 0 {
			http.Redirect(w, r, "/ok.png", http.StatusFound)
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusFound)
	})
	mux.HandleFunc("/to-file", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	f := fetcher(t, assets.Options{AllowPrivate: true, MaxBytes: int64(len(img)) + 1024, MaxRedirects: 3})
	for _, tc := range []struct {
		url  string
		want error
	}{
		{srv.URL + "/ok.png", nil},
		{srv.URL + "/hop/2", nil}, // three redirects
		{srv.URL + "/hop/3", assets.ErrRedirects},
		{srv.URL + "/to-file", assets.ErrScheme},
		{srv.URL + "/big", assets.ErrTooLarge},
		{srv.URL + "/big-chunked", assets.ErrTooLarge},
		{srv.URL + "/text", assets.ErrNotImage},
		{srv.URL + "/pic.svg", assets.ErrSVG},
		{srv.URL + "/missing", assets.ErrStatus},
		{"ftp://example.org/a.png", assets.ErrScheme},
		{"javascript:alert(1)", assets.ErrScheme},
		{"/relative.png", assets.ErrScheme},
		{"data:image/png;base64,AAAA", assets.ErrScheme},
	} {
		t.Run(tc.url, func(t *testing.T) {
			_, _, err := f.Fetch(context.Background(), tc.url)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	var gifBuf, jpgBuf bytes.Buffer
	pal := image.NewPaletted(image.Rect(0, 0, 5, 7), []color.Color{color.White, color.Black})
	if err := gif.Encode(&gifBuf, pal, nil); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jpgBuf, image.NewGray(image.Rect(0, 0, 9, 4)), nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		ext  string
		w, h int
		err  error
	}{
		{"png", pngOf(t, 6, 3), "png", 6, 3, nil},
		{"gif", gifBuf.Bytes(), "gif", 5, 7, nil},
		{"jpeg", jpgBuf.Bytes(), "jpg", 9, 4, nil},
		{"svg", []byte("\xef\xbb\xbf  <svg viewBox='0 0 1 1'/>"), "", 0, 0, assets.ErrSVG},
		{"empty", nil, "", 0, 0, assets.ErrNotImage},
		{"html", []byte("<!doctype html><p>hi"), "", 0, 0, assets.ErrNotImage},
		{"truncated png", pngOf(t, 6, 3)[:12], "", 0, 0, assets.ErrNotImage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, w, h, err := imagecheck.Check(tc.data)
			if !errors.Is(err, tc.err) || (tc.err == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if k.Ext != tc.ext || w != tc.w || h != tc.h {
				t.Errorf("got %s %d×%d, want %s %d×%d", k.Ext, w, h, tc.ext, tc.w, tc.h)
			}
		})
	}
}

func TestCacheRevalidates(t *testing.T) {
	img := pngOf(t, 2, 2)
	var sent, notModified atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		sent.Add(1)
		_, _ = w.Write(img)
	}))
	defer srv.Close()
	dir := t.TempDir()
	ctx := context.Background()
	var paths []string
	for run, want := range []assets.Outcome{assets.Fetched, assets.Reused} {
		f := fetcher(t, assets.Options{AllowPrivate: true, CacheDir: dir})
		a, how, err := f.Fetch(ctx, srv.URL+"/i.png")
		if err != nil {
			t.Fatal(err)
		}
		if how != want {
			t.Errorf("run %d: outcome %v, want %v", run+1, how, want)
		}
		if data, err := os.ReadFile(a.File); err != nil || !bytes.Equal(data, img) {
			t.Errorf("run %d: bytes differ", run+1)
		}
		paths = append(paths, a.Path)
	}
	if sent.Load() != 1 || notModified.Load() != 1 || paths[0] != paths[1] {
		t.Errorf("sent %d, 304 %d, paths %v", sent.Load(), notModified.Load(), paths)
	}
	// Offline (a build): the cache alone, and a miss fails.
	srv.Close()
	off := fetcher(t, assets.Options{CacheDir: dir, Offline: true})
	if _, how, err := off.Fetch(ctx, srv.URL+"/i.png"); err != nil || how != assets.Reused {
		t.Errorf("offline: %v, %v", how, err)
	}
	if _, _, err := off.Fetch(ctx, srv.URL+"/other.png"); !errors.Is(err, assets.ErrNotCached) {
		t.Errorf("offline miss: %v", err)
	}
}

func TestStoreFetchesEachURLOnce(t *testing.T) {
	img := pngOf(t, 1, 1)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/bad" {
			_, _ = w.Write([]byte("nope"))
			return
		}
		_, _ = w.Write(img)
	}))
	defer srv.Close()
	s := assets.NewStore(fetcher(t, assets.Options{AllowPrivate: true}), 2)
	ctx := context.Background()
	urls := []string{srv.URL + "/a", srv.URL + "/b", srv.URL + "/a", srv.URL + "/bad"}
	done := make(chan error, 3)
	for range 3 { // three trees at once, sharing images
		go func() { done <- s.Fetch(ctx, urls) }()
	}
	for range 3 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if hits.Load() != 3 {
		t.Errorf("%d requests for 3 URLs", hits.Load())
	}
	fetched, reused, failed := s.Counts()
	if fetched != 2 || reused != 0 || failed != 1 {
		t.Errorf("counts %d %d %d, want 2 0 1", fetched, reused, failed)
	}
	a, _ := s.Lookup(srv.URL + "/a")
	b, _ := s.Lookup(srv.URL + "/b")
	if a.Err != nil || a.Path != b.Path {
		t.Errorf("same bytes, paths %q and %q (%v)", a.Path, b.Path, a.Err)
	}
	if r, ok := s.Lookup(srv.URL + "/bad"); !ok || !errors.Is(r.Err, assets.ErrNotImage) {
		t.Errorf("bad: %v %v", ok, r.Err)
	}
	if _, ok := s.Lookup(srv.URL + "/never"); ok {
		t.Error("a URL never asked for has a result")
	}
}

func FuzzCheck(f *testing.F) {
	f.Add(pngOf(f, 2, 3))
	f.Add([]byte("GIF89a\x01\x00\x01\x00"))
	f.Add([]byte("\xff\xd8\xff\xe0"))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "))
	f.Add([]byte("<svg/>"))
	f.Add(append(pngOf(f, 2, 3), "<html>"...))
	f.Add(pngHeader(10000, 10000))
	var g, j bytes.Buffer
	_ = gif.Encode(&g, image.NewPaletted(image.Rect(0, 0, 3, 2), []color.Color{color.White, color.Black}), nil)
	_ = jpeg.Encode(&j, image.NewGray(image.Rect(0, 0, 3, 2)), nil)
	f.Add(g.Bytes())
	f.Add(j.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		k, w, h, err := imagecheck.Check(data)
		if err != nil {
			if k.Ext != "" || w != 0 || h != 0 {
				t.Fatalf("refused, yet %v %d×%d", k, w, h)
			}
			return
		}
		if k.Ext == "" || k.MediaType == "" || w <= 0 || h <= 0 || w > imagecheck.MaxSide || h > imagecheck.MaxSide || w*h > imagecheck.MaxPixels {
			t.Fatalf("accepted as %+v %d×%d", k, w, h)
		}
		// Nothing may follow an image's end.
		if _, _, _, err := imagecheck.Check(append(data[:len(data):len(data)], 0)); err == nil {
			t.Fatalf("accepted with a byte after its end: %+v", k)
		}
	})
}

// TestRedirectToAPrivateAddress: each hop's address is checked when it is
// dialled; the one host let through cannot lend its pass to another.
func TestRedirectToAPrivateAddress(t *testing.T) {
	var reached atomic.Int32
	inner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		_, _ = w.Write(pngOf(t, 1, 1))
	}))
	defer inner.Close()
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inner.URL+"/secret.png", http.StatusFound)
	}))
	defer outer.Close()
	f := fetcher(t, assets.Options{AllowHosts: []string{strings.TrimPrefix(outer.URL, "http://")}})
	_, _, err := f.Fetch(context.Background(), outer.URL+"/a.png")
	if !errors.Is(err, assets.ErrAddress) {
		t.Errorf("err = %v, want ErrAddress", err)
	}
	if reached.Load() != 0 {
		t.Error("the redirect reached the private address")
	}
}

// TestPrivateAddressNamesSetting (issue 26 §5): an image refused for its
// private address did not mention the setting that lets a sandbox's
// images in. The refusal names allow_private_assets and the address, and
// with the setting the same image is fetched.
func TestPrivateAddressNamesSetting(t *testing.T) {
	img := pngOf(t, 2, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(img)
	}))
	defer srv.Close()
	ctx := context.Background()
	_, _, err := fetcher(t, assets.Options{}).Fetch(ctx, srv.URL+"/a.png")
	if !errors.Is(err, assets.ErrAddress) {
		t.Fatalf("err = %v, want ErrAddress", err)
	}
	for _, want := range []string{"allow_private_assets", strings.TrimPrefix(srv.URL, "http://"), "sandbox"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if _, _, err := fetcher(t, assets.Options{AllowPrivate: true}).Fetch(ctx, srv.URL+"/a.png"); err != nil {
		t.Errorf("with the setting: %v", err)
	}
}
