package assets_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/curex/curex/exporter/internal/assets"
	"github.com/curex/curex/exporter/internal/imagecheck"
)

// Issue 23, section 5: the reproductions, each a named test.

// TestPublicRefusesSpecialPurpose: the documentation blocks (and the rest
// of the IANA special-purpose registries) are refused, whatever the
// family; NAT64 and 6to4 addresses are judged by the IPv4 they embed.
func TestPublicRefusesSpecialPurpose(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want bool
	}{
		{"192.0.2.1", false},    // TEST-NET-1, accepted on c00fc01
		{"198.51.100.7", false}, // TEST-NET-2, accepted on c00fc01
		{"203.0.113.9", false},  // TEST-NET-3, accepted on c00fc01
		{"192.88.99.1", false},  // 6to4 relay anycast, accepted on c00fc01
		{"2001:db8::1", false},  // IPv6 documentation
		{"3fff::1", false},      // IPv6 documentation (RFC 9637)
		{"2001::1", false},      // Teredo
		{"2001:2::1", false},    // benchmarking
		{"100::1", false},       // discard-only
		{"5f00::1", false},      // SRv6 SIDs
		{"4000::1", false},      // outside 2000::/3: not global unicast
		{"::ffff:192.0.2.1", false},
		{"64:ff9b::c000:201", false},  // NAT64 of 192.0.2.1
		{"64:ff9b::a9fe:a9fe", false}, // NAT64 of 169.254.169.254
		{"64:ff9b::5db8:d70e", true},  // NAT64 of 93.184.215.14
		{"2002:c000:201::1", false},   // 6to4 of 192.0.2.1
		{"2002:5db8:d70e::1", true},   // 6to4 of 93.184.215.14
		{"fe80::1%eth0", false},
		{"240.0.0.1", false},
		{"198.19.255.255", false},
		{"1.1.1.1", true},
		{"2001:4860:4860::8888", true},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			if got := assets.Public(netip.MustParseAddr(tc.addr)); got != tc.want {
				t.Errorf("Public(%s) = %v, want %v", tc.addr, got, tc.want)
			}
		})
	}
}

// TestCredentialsRefused: an image URL with user:password@ is refused
// before any request, and the password is in no error and no log line.
func TestCredentialsRefused(t *testing.T) {
	var hits atomic.Int32
	img := pngOf(t, 2, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/hop" {
			http.Redirect(w, r, "http://eve:hop-s3cret@"+r.Host+"/a.png", http.StatusFound)
			return
		}
		_, _ = w.Write(img)
	}))
	defer srv.Close()
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	f, err := assets.NewFetcher(assets.Options{AllowPrivate: true, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	s := assets.NewStore(f, 2)
	defer s.Close()
	withCreds := strings.Replace(srv.URL, "http://", "http://alice:s3cret@", 1) + "/a.png"
	userOnly := strings.Replace(srv.URL, "http://", "http://alice@", 1) + "/a.png"
	if err := s.Fetch(context.Background(), []string{withCreds, userOnly, srv.URL + "/hop"}); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{withCreds, userOnly, srv.URL + "/hop"} {
		res, _ := s.Lookup(u)
		if !errors.Is(res.Err, assets.ErrCredentials) {
			t.Errorf("%s: err = %v, want ErrCredentials", assets.Redact(u), res.Err)
		}
		var e *assets.Error
		if res.Err != nil && (strings.Contains(res.Err.Error(), "s3cret") || errors.As(res.Err, &e) && strings.Contains(e.URL, "s3cret")) {
			t.Errorf("the error shows the password: %v", res.Err)
		}
	}
	if hits.Load() != 1 { // the redirect only
		t.Errorf("the server was reached %d times, want 1", hits.Load())
	}
	if strings.Contains(logs.String(), "s3cret") {
		t.Errorf("the log shows the password:\n%s", logs.String())
	}
}

// chunk is a PNG chunk of type typ holding data.
func chunk(typ string, data []byte) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.BigEndian, uint32(len(data)))
	b.WriteString(typ)
	b.Write(data)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	return b.Bytes()
}

// pngHeader is a PNG that claims w×h pixels and holds no image data:
// what a decompression bomb shows before its payload.
func pngHeader(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, w), h)
	ihdr = append(ihdr, 8, 2, 0, 0, 0)
	return append(append([]byte("\x89PNG\r\n\x1a\n"), chunk("IHDR", ihdr)...), chunk("IEND", nil)...)
}

// TestCheckRefusesWhatDoesNotEndOrDecode: a stored image decodes whole as
// its format and ends where the format says; and a phone can open it.
func TestCheckRefusesWhatDoesNotEndOrDecode(t *testing.T) {
	good := pngOf(t, 6, 3)
	var gifBuf, jpgBuf bytes.Buffer
	pal := image.NewPaletted(image.Rect(0, 0, 5, 7), []color.Color{color.White, color.Black})
	if err := gif.Encode(&gifBuf, pal, nil); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jpgBuf, image.NewGray(image.Rect(0, 0, 9, 4)), nil); err != nil {
		t.Fatal(err)
	}
	// IDAT whose zlib stream is garbage: the header reads, the pixels do not.
	corrupt := append([]byte{}, good[:33]...) // signature and IHDR
	corrupt = append(corrupt, chunk("IDAT", []byte("\x78\x9cnot deflate at all"))...)
	corrupt = append(corrupt, chunk("IEND", nil)...)
	html := []byte("<html><script>alert(document.domain)</script></html>")
	webp := []byte("RIFF\x24\x00\x00\x00WEBPVP8L\x18\x00\x00\x00\x2f\x00\x00\x00\x00\x07\x10\xfd\x8f\xfe\x07\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")
	for _, tc := range []struct {
		name string
		data []byte
		ok   bool
	}{
		{"png", good, true},
		{"png with HTML after IEND", append(append([]byte{}, good...), html...), false},
		{"png with one byte after IEND", append(append([]byte{}, good...), 0), false},
		{"png without IEND", good[:len(good)-12], false},
		{"png whose pixels do not decode", corrupt, false},
		{"10000x10000 png", pngHeader(10000, 10000), false},
		{"4097x4097 png", pngHeader(4097, 4097), false},
		{"8193x1 png", pngHeader(8193, 1), false},
		{"8192x2 png", pngOf(t, 8192, 2), true},
		{"gif", gifBuf.Bytes(), true},
		{"gif with HTML after the trailer", append(append([]byte{}, gifBuf.Bytes()...), html...), false},
		{"jpeg", jpgBuf.Bytes(), true},
		{"jpeg with HTML after EOI", append(append([]byte{}, jpgBuf.Bytes()...), html...), false},
		{"webp with HTML after its RIFF size", append(append([]byte{}, webp...), html...), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, err := imagecheck.Check(tc.data)
			if tc.ok && err != nil {
				t.Errorf("refused: %v", err)
			}
			if !tc.ok && !errors.Is(err, assets.ErrNotImage) {
				t.Errorf("err = %v, want ErrNotImage", err)
			}
		})
	}
}

// memTransport serves images from memory, with no socket.
type memTransport func(*http.Request) (*http.Response, error)

func (m memTransport) RoundTrip(r *http.Request) (*http.Response, error) { return m(r) }

// serve answers each request with body(path).
func serve(hits *atomic.Int32, body func(path string) []byte) memTransport {
	return func(r *http.Request) (*http.Response, error) {
		hits.Add(1)
		b := body(r.URL.Path)
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(b)),
			ContentLength: int64(len(b)), Request: r}, nil
	}
}

// distinct is the i-th of distinct PNGs of 4×4 pixels.
func distinct(t testing.TB, i int) []byte {
	img := image.NewGray(image.Rect(0, 0, 4, 4))
	img.Pix[0], img.Pix[1] = byte(i), byte(i>>8)
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestImageBudget: images over a tree's or the run's caps, in count or in
// bytes, are skipped and counted, and the run goes on.
func TestImageBudget(t *testing.T) {
	size := int64(len(distinct(t, 0))) // the same for every i
	urls := func(from, n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("https://img.example/%d.png", from+i))
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		b     assets.Budget
		trees [][]string
		// kept is how many images are kept; asked how many requests
		// are sent.
		kept, asked int
	}{
		{"tree images", assets.Budget{TreeImages: 3}, [][]string{urls(0, 5), urls(5, 2)}, 5, 5},
		{"run images", assets.Budget{RunImages: 4}, [][]string{urls(0, 3), urls(3, 3)}, 4, 4},
		{"tree bytes", assets.Budget{TreeBytes: 2 * size}, [][]string{urls(0, 4), urls(4, 1)}, 3, 3},
		{"tree bytes, the last image too big", assets.Budget{TreeBytes: 2*size + size/2}, [][]string{urls(0, 3), urls(3, 1)}, 3, 4},
		{"run bytes", assets.Budget{RunBytes: 3 * size}, [][]string{urls(0, 2), urls(2, 3)}, 3, 3},
		{"run bytes, the last image too big", assets.Budget{RunBytes: 3*size + size/2}, [][]string{urls(0, 2), urls(2, 3)}, 3, 5},
		{"a URL another tree brought costs nothing", assets.Budget{TreeImages: 2}, [][]string{urls(0, 2), append(urls(0, 2), urls(2, 2)...)}, 4, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hits atomic.Int32
			var logs bytes.Buffer
			f := fetcher(t, assets.Options{Transport: serve(&hits, func(p string) []byte {
				var i int
				_, _ = fmt.Sscanf(p, "/%d.png", &i)
				return distinct(t, i)
			}), Log: slog.New(slog.NewTextHandler(&logs, nil))})
			s := assets.NewStoreBudget(f, 1, tc.b) // one at a time: which are kept is decided
			defer s.Close()
			kept := 0
			for _, tree := range tc.trees {
				if err := s.Fetch(context.Background(), tree); err != nil {
					t.Fatal(err)
				}
			}
			seen := map[string]bool{}
			for _, tree := range tc.trees {
				for _, u := range tree {
					if seen[u] {
						continue
					}
					seen[u] = true
					res, _ := s.Lookup(u)
					switch {
					case res.Err == nil:
						kept++
					case !errors.Is(res.Err, assets.ErrBudget):
						t.Errorf("%s: %v, want ErrBudget", u, res.Err)
					}
				}
			}
			fetched, _, failed := s.Counts()
			if kept != tc.kept || fetched != tc.kept || int(hits.Load()) != tc.asked {
				t.Errorf("kept %d (fetched %d), asked %d; want %d kept, %d asked", kept, fetched, hits.Load(), tc.kept, tc.asked)
			}
			if skipped := len(seen) - kept; s.Skipped() != skipped || failed != skipped {
				t.Errorf("Skipped() = %d, failed %d; want %d", s.Skipped(), failed, skipped)
			}
			if tc.kept < len(seen) && !strings.Contains(logs.String(), "skipped") {
				t.Errorf("no log line says why:\n%s", logs.String())
			}
		})
	}
}

// TestDeadlineBoundsImages: 16 images that never come, with the run's
// deadline 20 s away, stop at the deadline (in virtual time), not after
// four rounds of the 30 s per-image timeout as on c00fc01 (120 s).
func TestDeadlineBoundsImages(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var hits atomic.Int32
		slow := memTransport(func(r *http.Request) (*http.Response, error) {
			hits.Add(1)
			<-r.Context().Done() // a server that never answers
			return nil, r.Context().Err()
		})
		start := time.Now()
		f := fetcher(t, assets.Options{Transport: slow, Deadline: start.Add(20 * time.Second)})
		s := assets.NewStore(f, 4)
		defer s.Close()
		var urls []string
		for i := range 16 {
			urls = append(urls, fmt.Sprintf("https://slow.example/%d.png", i))
		}
		if err := s.Fetch(context.Background(), urls); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("the images took %v of virtual time, past the 20s deadline", took)
		}
		for _, u := range urls {
			if res, _ := s.Lookup(u); !errors.Is(res.Err, assets.ErrDeadline) {
				t.Errorf("%s: %v, want ErrDeadline", u, res.Err)
			}
		}
		if hits.Load() != 4 {
			t.Errorf("%d requests; want 4 (the rest come after the deadline)", hits.Load())
		}
	})
}

// noisePNG is a PNG of w×h random-looking RGBA pixels, stored without
// compression: about 4·w·h bytes, different for each seed.
func noisePNG(t testing.TB, w, h int, seed uint32) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	x := seed*2654435761 + 1
	for i := range img.Pix {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		img.Pix[i] = byte(x)
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// heap returns the bytes of live heap objects after a collection.
func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestBodiesNotHeld: the store holds no image's bytes; each is in a file
// (on c00fc01 every image stayed in memory until the run ended).
func TestBodiesNotHeld(t *testing.T) {
	const n = 16
	bodies := make([][]byte, n)
	for i := range bodies {
		bodies[i] = noisePNG(t, 256, 256, uint32(i)) // 256 KiB each
	}
	var hits atomic.Int32
	f := fetcher(t, assets.Options{Transport: serve(&hits, func(p string) []byte {
		var i int
		_, _ = fmt.Sscanf(p, "/%d.png", &i)
		return bodies[i]
	}), CacheDir: t.TempDir()})
	s := assets.NewStore(f, 2)
	defer s.Close()
	var urls []string
	for i := range n {
		urls = append(urls, fmt.Sprintf("https://img.example/%d.png", i))
	}
	total := 0
	for _, b := range bodies {
		total += len(b)
	}
	before := heap()
	if err := s.Fetch(context.Background(), urls); err != nil {
		t.Fatal(err)
	}
	held := int64(heap()) - int64(before)
	for i, u := range urls {
		res, _ := s.Lookup(u)
		if res.Err != nil {
			t.Fatalf("%s: %v", u, res.Err)
		}
		data, err := os.ReadFile(res.File)
		if err != nil || !bytes.Equal(data, bodies[i]) || res.Size != int64(len(bodies[i])) {
			t.Errorf("%s: the file %s does not hold the image (%v)", u, res.File, err)
		}
	}
	// A measurement, not a timing: what the store keeps after the fetch.
	if held > int64(total)/4 {
		t.Errorf("the store holds %d bytes after fetching %d bytes of images", held, total)
	}
	t.Logf("held %d bytes after fetching %d", held, total)
}
