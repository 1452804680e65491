package sandbox_test

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"testing"

	"github.com/curex/curex/exporter/sandbox"
)

func FuzzParseFaults(f *testing.F) {
	for _, s := range []string{
		"", "none", "500=0.05", "503=0.02:2s", "429=0.1:1m30s", "cut=0.01", "slow=0.01", "slow=0.5:250ms",
		"html=0.1", "invalid-json=1", "500=0.05,503=0.02:2s,cut=0.01,slow=0.01:5s", " 500 = 0.5 , CUT=0.5",
		"500=1.5", "500=0.6,503=0.6", "teapot=0.1", "503=0.1:soon", "+500=0.1", "500=-0", "500=1e-400", "slow=0.1:0s",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fs, err := sandbox.ParseFaults(s)
		if err != nil {
			return
		}
		total := 0.0
		for _, ft := range fs {
			if math.IsNaN(ft.Rate) || ft.Rate < 0 || ft.Rate > 1 || ft.RetryAfter < 0 || ft.Delay < 0 {
				t.Fatalf("ParseFaults(%q): bad fault %+v", s, ft)
			}
			total += ft.Rate
		}
		if total > 1+1e-9 {
			t.Fatalf("ParseFaults(%q): rates add up to %g", s, total)
		}
		again, err := sandbox.ParseFaults(fs.String())
		if err != nil {
			t.Fatalf("ParseFaults(%q) = %+v, but its String %q does not parse: %v", s, fs, fs.String(), err)
		}
		if !reflect.DeepEqual(again, fs) {
			t.Fatalf("round trip of %q through %q: %+v, want %+v", s, fs.String(), again, fs)
		}
	})
}

func FuzzParseLatency(f *testing.F) {
	for _, s := range []string{"", "40ms", "20ms+1ms/KB", " 20ms + 500us/kb ", "1h+1µs/KB", "0s+0s/KB", "-1ms", "20ms+1ms", "+1ms/KB", "1s+1ſ/KB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := sandbox.ParseLatency(s)
		if err != nil {
			return
		}
		if l.Base < 0 || l.PerKB < 0 {
			t.Fatalf("ParseLatency(%q) = %+v: negative", s, l)
		}
		if l.For(0) != l.Base {
			t.Fatalf("ParseLatency(%q): For(0) = %v, want %v", s, l.For(0), l.Base)
		}
		again, err := sandbox.ParseLatency(l.String())
		if err != nil || again != l {
			t.Fatalf("round trip of %q through %q: %+v, %v; want %+v", s, l.String(), again, err, l)
		}
	})
}

// FuzzHandlerPath sends arbitrary paths and queries with a valid token: the
// handler must not panic, must answer a known status, and every error must
// have the error body of spec section 7.
func FuzzHandlerPath(f *testing.F) {
	for _, seed := range []struct {
		path, query string
		head        bool
	}{
		{"me", "", false},
		{"curricula", "page=2&per_page=1", false},
		{"curricula", "page=9223372036854775807", false},
		{"curricula", "per_page=0&root_only=maybe", false},
		{"curricula", "status=draft&root_only=true", true},
		{"curricula/b1", "", false},
		{"curricula/v1", "", true},
		{"curricula/b1/variants", "", false},
		{"curricula/b1/locales", "", false},
		{"curricula/b1/resolved", "variant=District&locale=es", false},
		{"curricula/b1/resolved", "variant=Nope&locale=!!", false},
		{"curricula/b1/resolved", "locale=es&locale=ar", false},
		{"curricula/v2/resolved", "variant=District", false},
		{"curricula/other", "", false},
		{"content_nodes/l1", "", false},
		{"content_nodes/l1/resolved", "variant=Region&locale=es", false},
		{"content_nodes/d0/resolved", "variant=Region", false},
		{"content_nodes/o1/resolved", "", false},
		{"content_nodes/%zz", "", false},
		{"curricula/b1%2Fresolved", "", false},
		{"curricula//resolved", "", false},
		{"../me", "%%", false},
		{"", "", false},
	} {
		f.Add(seed.path, seed.query, seed.head)
	}
	h := newTiny(f)
	known := map[int]bool{200: true, 400: true, 403: true, 404: true}
	f.Fuzz(func(t *testing.T, path, query string, head bool) {
		method := http.MethodGet
		if head {
			method = http.MethodHead
		}
		req := httptest.NewRequest(method, "/", nil)
		req.URL = &url.URL{Path: "/api/v1/" + path, RawQuery: query}
		req.RequestURI = req.URL.RequestURI()
		req.Header.Set("Authorization", "Bearer "+tokA)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if !known[rec.Code] {
			t.Fatalf("%s %s: status %d; body %s", method, req.RequestURI, rec.Code, rec.Body)
		}
		if head {
			if rec.Body.Len() != 0 {
				t.Fatalf("HEAD %s: body %q", req.RequestURI, rec.Body)
			}
			return
		}
		if rec.Code == http.StatusOK {
			var v struct {
				Data json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil || len(v.Data) == 0 {
				t.Fatalf("GET %s: 200 with body %q (%v)", req.RequestURI, rec.Body, err)
			}
			if rec.Header().Get("ETag") == "" {
				t.Fatalf("GET %s: 200 without an ETag", req.RequestURI)
			}
			return
		}
		var e struct {
			Error *struct {
				Code    string         `json:"code"`
				Message string         `json:"message"`
				Details map[string]any `json:"details"`
			} `json:"error"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == nil || e.Error.Code == "" || e.Error.Message == "" || e.Error.Details == nil {
			t.Fatalf("GET %s: %d with body %q (%v)", req.RequestURI, rec.Code, rec.Body, err)
		}
	})
}
