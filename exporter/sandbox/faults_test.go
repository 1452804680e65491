package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/curex/curex/exporter/sandbox"
)

func TestParseFaults(t *testing.T) {
	tests := []struct {
		in      string
		want    sandbox.Faults
		wantErr string // part of the error message
	}{
		{in: "", want: nil},
		{in: "  ", want: nil},
		{in: "none", want: nil},
		{in: "500=0.05", want: sandbox.Faults{{Kind: "500", Rate: 0.05}}},
		{in: "503=0.02:2s", want: sandbox.Faults{{Kind: "503", Rate: 0.02, RetryAfter: 2 * time.Second}}},
		{in: "429=0.1:1m", want: sandbox.Faults{{Kind: "429", Rate: 0.1, RetryAfter: time.Minute}}},
		{in: "599=1", want: sandbox.Faults{{Kind: "599", Rate: 1}}},
		{in: "cut=0.01", want: sandbox.Faults{{Kind: sandbox.FaultCut, Rate: 0.01}}},
		{in: "slow=0.01", want: sandbox.Faults{{Kind: sandbox.FaultSlow, Rate: 0.01, Delay: 2 * time.Second}}},
		{in: "slow=0.01:5s", want: sandbox.Faults{{Kind: sandbox.FaultSlow, Rate: 0.01, Delay: 5 * time.Second}}},
		{in: "html=0.2", want: sandbox.Faults{{Kind: sandbox.FaultHTML, Rate: 0.2}}},
		{in: "invalid-json=0", want: sandbox.Faults{{Kind: sandbox.FaultInvalidJSON, Rate: 0}}},
		{in: " 500 = 0.05 , CUT=0.01,Slow=0.5:250ms ", want: sandbox.Faults{
			{Kind: "500", Rate: 0.05}, {Kind: sandbox.FaultCut, Rate: 0.01}, {Kind: sandbox.FaultSlow, Rate: 0.5, Delay: 250 * time.Millisecond},
		}},
		{in: "500=0.5,503=0.5", want: sandbox.Faults{{Kind: "500", Rate: 0.5}, {Kind: "503", Rate: 0.5}}},
		{in: "500=0.1,500=0.2", want: sandbox.Faults{{Kind: "500", Rate: 0.1}, {Kind: "500", Rate: 0.2}}},

		{in: "teapot=0.1", wantErr: "unknown kind"},
		{in: "418=0.1", wantErr: "unknown kind"},
		{in: "600=0.1", wantErr: "unknown kind"},
		{in: "499=0.1", wantErr: "unknown kind"},
		{in: "=0.1", wantErr: "unknown kind"},
		{in: "500", wantErr: "KIND=RATE"},
		{in: "500=0.1,", wantErr: "KIND=RATE"},
		{in: "500=1.5", wantErr: "from 0 to 1"},
		{in: "500=-0.1", wantErr: "from 0 to 1"},
		{in: "500=NaN", wantErr: "from 0 to 1"},
		{in: "500=Inf", wantErr: "from 0 to 1"},
		{in: "500=x", wantErr: "from 0 to 1"},
		{in: "500=", wantErr: "from 0 to 1"},
		{in: "500=0.6,503=0.6", wantErr: "more than 1"},
		{in: "500=0.5,cut=0.3,slow=0.3", wantErr: "more than 1"},
		{in: "503=0.1:soon", wantErr: "not a duration"},
		{in: "503=0.1:2", wantErr: "not a duration"},
		{in: "503=0.1:-1s", wantErr: "not a duration"},
		{in: "slow=0.1:-5s", wantErr: "not a duration"},
		{in: "cut=0.1:1s", wantErr: "no argument"},
		{in: "html=0.1:1s", wantErr: "no argument"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := sandbox.ParseFaults(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseFaults(%q) = %v, %v; want an error with %q", tc.in, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ParseFaults(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			}
			again, err := sandbox.ParseFaults(got.String())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Errorf("round trip through %q: %+v, %v", got.String(), again, err)
			}
		})
	}
}

func TestParseLatency(t *testing.T) {
	tests := []struct {
		in      string
		want    sandbox.Latency
		wantErr bool
	}{
		{in: "", want: sandbox.Latency{}},
		{in: "40ms", want: sandbox.Latency{Base: 40 * time.Millisecond}},
		{in: "0s", want: sandbox.Latency{}},
		{in: "20ms+1ms/KB", want: sandbox.Latency{Base: 20 * time.Millisecond, PerKB: time.Millisecond}},
		{in: " 20ms + 500us/kb ", want: sandbox.Latency{Base: 20 * time.Millisecond, PerKB: 500 * time.Microsecond}},
		{in: "1s+0s/KB", want: sandbox.Latency{Base: time.Second}},
		{in: "0s+2ms/KB", want: sandbox.Latency{PerKB: 2 * time.Millisecond}},
		{in: "fast", wantErr: true},
		{in: "40", wantErr: true},
		{in: "-1ms", wantErr: true},
		{in: "+1ms/KB", wantErr: true},
		{in: "20ms+1ms", wantErr: true},
		{in: "20ms+1ms/MB", wantErr: true},
		{in: "20ms+x/KB", wantErr: true},
		{in: "20ms+/KB", wantErr: true},
		{in: "20ms+-1ms/KB", wantErr: true},
		{in: "20ms+1ms+1ms/KB", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := sandbox.ParseLatency(tc.in)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("ParseLatency(%q) = %+v, want an error", tc.in, got)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ParseLatency(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			}
			if again, err := sandbox.ParseLatency(got.String()); err != nil || again != got {
				t.Errorf("round trip through %q: %+v, %v", got.String(), again, err)
			}
		})
	}
}

func TestLatencyFor(t *testing.T) {
	l := sandbox.Latency{Base: 20 * time.Millisecond, PerKB: time.Millisecond}
	for _, tc := range []struct {
		size int
		want time.Duration
	}{
		{0, 20 * time.Millisecond},
		{512, 20*time.Millisecond + 500*time.Microsecond},
		{1024, 21 * time.Millisecond},
		{10 * 1024, 30 * time.Millisecond},
	} {
		if got := l.For(tc.size); got != tc.want {
			t.Errorf("For(%d) = %v, want %v", tc.size, got, tc.want)
		}
	}
}

func faultHandler(t testing.TB, faults string, seed int64) *sandbox.Handler {
	t.Helper()
	fs, err := sandbox.ParseFaults(faults)
	if err != nil {
		t.Fatal(err)
	}
	return newHandler(t, tinyDataset(t), sandbox.Options{Limits: noLimits, Faults: fs, Seed: seed})
}

// TestFaultDeterminism checks that the same seed gives the same statuses
// for the same requests, whatever their order, and another seed others.
func TestFaultDeterminism(t *testing.T) {
	targets := []string{"/api/v1/me", "/api/v1/curricula", "/api/v1/curricula/b1/resolved?locale=es"}
	// run sends n rounds of targets, interleaved or one target after the
	// other, and returns the statuses per target.
	run := func(seed int64, interleaved bool) map[string][]int {
		h := faultHandler(t, "500=0.5", seed)
		out := map[string][]int{}
		const n = 40
		send := func(target string) {
			rec := get(t, h, target, tokA)
			switch rec.Code {
			case http.StatusOK:
			case http.StatusInternalServerError:
				checkError(t, rec, http.StatusInternalServerError, "internal_error")
			default:
				t.Fatalf("%s: status %d", target, rec.Code)
			}
			out[target] = append(out[target], rec.Code)
		}
		if interleaved {
			for range n {
				for _, target := range targets {
					send(target)
				}
			}
		} else {
			for _, target := range targets {
				for range n {
					send(target)
				}
			}
		}
		return out
	}
	a := run(1, true)
	if b := run(1, true); !reflect.DeepEqual(a, b) {
		t.Errorf("seed 1 twice:\n%v\n%v", a, b)
	}
	if b := run(1, false); !reflect.DeepEqual(a, b) {
		t.Errorf("seed 1, other order:\n%v\n%v", a, b)
	}
	if b := run(2, true); reflect.DeepEqual(a, b) {
		t.Errorf("seeds 1 and 2 give the same statuses: %v", a)
	}
	for target, codes := range a {
		fails := 0
		for _, c := range codes {
			if c == http.StatusInternalServerError {
				fails++
			}
		}
		if fails < 8 || fails > 32 {
			t.Errorf("%s: %d of %d requests failed at rate 0.5", target, fails, len(codes))
		}
	}
}

// TestFaultStatuses checks injected status faults, their codes and
// Retry-After; unauthenticated requests get no faults.
func TestFaultStatuses(t *testing.T) {
	tests := []struct {
		faults     string
		status     int
		code       string
		retryAfter string
	}{
		{"500=1", 500, "internal_error", ""},
		{"502=1", 502, "bad_gateway", ""},
		{"503=1:2s", 503, "service_unavailable", "2"},
		{"503=1:1500ms", 503, "service_unavailable", "2"},
		{"504=1:1m", 504, "gateway_timeout", "60"},
		{"599=1", 599, "internal_error", ""},
		{"429=1:3s", 429, "rate_limit_exceeded", "3"},
	}
	for _, tc := range tests {
		t.Run(tc.faults, func(t *testing.T) {
			h := faultHandler(t, tc.faults, 1)
			for _, target := range []string{"/api/v1/me", "/api/v1/curricula/b1/resolved", "/api/v1/nope"} {
				rec := get(t, h, target, tokA)
				checkError(t, rec, tc.status, tc.code)
				if _, has := rec.Header()["Retry-After"]; rec.Header().Get("Retry-After") != tc.retryAfter || has != (tc.retryAfter != "") {
					t.Errorf("%s: Retry-After %q, want %q", target, rec.Header().Get("Retry-After"), tc.retryAfter)
				}
			}
			// Faults hit authenticated requests only.
			checkError(t, get(t, h, "/api/v1/me", ""), http.StatusUnauthorized, "unauthorized")
			checkError(t, do(t, h, http.MethodPost, "/api/v1/me", tokA), http.StatusMethodNotAllowed, "method_not_allowed")
		})
	}
}

// TestFaultCut checks that a cut body fails to read, over a real socket and
// over Transport.
func TestFaultCut(t *testing.T) {
	h := faultHandler(t, "cut=1", 1)
	srv := httptest.NewServer(h)
	defer srv.Close()
	clients := map[string]struct {
		client *http.Client
		base   string
	}{
		"socket":    {srv.Client(), srv.URL},
		"transport": {transportClient(h), "http://sandbox.test"},
	}
	full := get(t, newTiny(t), "/api/v1/curricula/b1/resolved", tokA).Body.Bytes()
	for name, c := range clients {
		t.Run(name, func(t *testing.T) {
			resp, body, err := clientGet(t, c.client, c.base+"/api/v1/curricula/b1/resolved", tokA)
			if resp == nil {
				t.Fatalf("no response: %v", err)
			}
			if resp.StatusCode != http.StatusOK || resp.ContentLength != int64(len(full)) {
				t.Errorf("status %d, Content-Length %d; want 200, %d", resp.StatusCode, resp.ContentLength, len(full))
			}
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("body read error %v, want io.ErrUnexpectedEOF", err)
			}
			if len(body) >= len(full) || !bytes.HasPrefix(full, body) {
				t.Errorf("read %d of %d bytes, want a proper prefix", len(body), len(full))
			}
			// A 304 has no body to cut: the connection closes before any
			// response.
			req, _ := http.NewRequest(http.MethodGet, c.base+"/api/v1/curricula/b1/resolved", nil)
			req.Header.Set("Authorization", "Bearer "+tokA)
			req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
			if resp, err := c.client.Do(req); err == nil {
				resp.Body.Close()
				t.Errorf("cut 304: status %d, want an error", resp.StatusCode)
			}
			// Errors are not cut.
			resp, body, err = clientGet(t, c.client, c.base+"/api/v1/me", "wrong")
			if err != nil || resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("401 with cut faults: %v", err)
			}
			checkErrorBody(t, resp.StatusCode, resp.Header, body, http.StatusUnauthorized, "unauthorized")
		})
	}
}

// TestFaultSlow checks in virtual time that a slow body pauses, and arrives
// whole.
func TestFaultSlow(t *testing.T) {
	ds := tinyDataset(t)
	full := get(t, newTiny(t), "/api/v1/curricula/b1/resolved", tokA).Body.Bytes()
	for _, tc := range []struct {
		faults string
		delay  time.Duration
	}{{"slow=1:5s", 5 * time.Second}, {"slow=1", 2 * time.Second}} {
		t.Run(tc.faults, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				fs, _ := sandbox.ParseFaults(tc.faults)
				h := newHandler(t, ds, sandbox.Options{Limits: noLimits, Faults: fs})
				start := time.Now()
				resp, body, err := clientGet(t, transportClient(h), "http://sandbox.test/api/v1/curricula/b1/resolved", tokA)
				elapsed := time.Since(start)
				if err != nil {
					t.Fatal(err)
				}
				if resp.StatusCode != http.StatusOK || !bytes.Equal(body, full) {
					t.Errorf("status %d, %d bytes; want 200 and the whole body", resp.StatusCode, len(body))
				}
				if elapsed < tc.delay || elapsed > tc.delay+time.Second {
					t.Errorf("took %v of virtual time, want %v", elapsed, tc.delay)
				}
			})
		})
	}
}

// TestFaultBodies checks html and invalid-json: 200 answers whose body is
// not the JSON a client expects.
func TestFaultBodies(t *testing.T) {
	full := get(t, newTiny(t), "/api/v1/curricula/b1", tokA).Body.Bytes()
	t.Run("html", func(t *testing.T) {
		rec := get(t, faultHandler(t, "html=1", 1), "/api/v1/curricula/b1", tokA)
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Fatalf("status %d, Content-Type %q", rec.Code, rec.Header().Get("Content-Type"))
		}
		if !strings.Contains(rec.Body.String(), "<html") {
			t.Errorf("body %q", rec.Body)
		}
		var v any
		if json.Unmarshal(rec.Body.Bytes(), &v) == nil {
			t.Error("HTML body decodes as JSON")
		}
		if rec.Header().Get("Content-Length") != strconv.Itoa(rec.Body.Len()) {
			t.Errorf("Content-Length %q, body %d bytes", rec.Header().Get("Content-Length"), rec.Body.Len())
		}
	})
	t.Run("invalid-json", func(t *testing.T) {
		rec := get(t, faultHandler(t, "invalid-json=1", 1), "/api/v1/curricula/b1", tokA)
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
			t.Fatalf("status %d, Content-Type %q", rec.Code, rec.Header().Get("Content-Type"))
		}
		var v any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err == nil {
			t.Errorf("body decodes: %q", rec.Body)
		}
		if rec.Body.Len() == 0 || rec.Body.Len() >= len(full) || !bytes.HasPrefix(full, rec.Body.Bytes()) {
			t.Errorf("body of %d bytes, want a proper prefix of the %d-byte answer", rec.Body.Len(), len(full))
		}
		if rec.Header().Get("Content-Length") != strconv.Itoa(rec.Body.Len()) {
			t.Errorf("Content-Length %q, body %d bytes", rec.Header().Get("Content-Length"), rec.Body.Len())
		}
		if rec.Header().Get("ETag") != "" {
			t.Error("a damaged body with an ETag")
		}
	})
}

// TestLatency checks in virtual time that answers are delayed by Base plus
// PerKB per KiB of body, and that a cancelled request stops waiting.
func TestLatency(t *testing.T) {
	ds := tinyDataset(t)
	lat, err := sandbox.ParseLatency("40ms+3ms/KB")
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/api/v1/me", "/api/v1/curricula/b1/resolved?variant=District&locale=es", "/api/v1/nope"} {
		t.Run(target, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHandler(t, ds, sandbox.Options{Limits: noLimits, Latency: lat})
				start := time.Now()
				resp, body, err := clientGet(t, transportClient(h), "http://sandbox.test"+target, tokA)
				elapsed := time.Since(start)
				if err != nil {
					t.Fatal(err)
				}
				if want := 40*time.Millisecond + time.Duration(len(body))*3*time.Millisecond/1024; elapsed != want || elapsed != lat.For(len(body)) {
					t.Errorf("status %d, %d bytes in %v of virtual time, want %v", resp.StatusCode, len(body), elapsed, want)
				}
			})
		})
	}
	t.Run("304", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			h := newHandler(t, ds, sandbox.Options{Limits: noLimits, Latency: lat})
			etag := get(t, h, "/api/v1/curricula/b1/resolved", tokA).Header().Get("ETag")
			start := time.Now()
			rec := get(t, h, "/api/v1/curricula/b1/resolved", tokA, "If-None-Match", etag)
			if rec.Code != http.StatusNotModified || time.Since(start) != 40*time.Millisecond {
				t.Errorf("status %d after %v, want 304 after the base latency", rec.Code, time.Since(start))
			}
		})
	})
	t.Run("cancelled", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			h := newHandler(t, ds, sandbox.Options{Limits: noLimits, Latency: sandbox.Latency{Base: time.Hour}})
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Millisecond)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://sandbox.test/api/v1/me", nil)
			req.Header.Set("Authorization", "Bearer "+tokA)
			start := time.Now()
			resp, err := transportClient(h).Do(req)
			if err == nil {
				resp.Body.Close()
			}
			if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 10*time.Millisecond {
				t.Errorf("err %v after %v, want the deadline after 10ms", err, time.Since(start))
			}
		})
	})
}

// TestRequestLog checks the debug record of each request: method, path,
// status and fault, never the token.
func TestRequestLog(t *testing.T) {
	var mu sync.Mutex
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&lockedWriter{mu: &mu, w: &buf}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	fs, _ := sandbox.ParseFaults("503=1")
	h := newHandler(t, tinyDataset(t), sandbox.Options{Limits: noLimits, Faults: fs, Logger: log})
	get(t, h, "/api/v1/curricula?page=2", tokA)
	get(t, h, "/api/v1/me", "")
	mu.Lock()
	defer mu.Unlock()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d records: %q", len(lines), buf.String())
	}
	var recs []map[string]any
	for _, l := range lines {
		recs = append(recs, decodeObject(t, []byte(l)))
	}
	want := []map[string]any{
		{"method": "GET", "path": "/api/v1/curricula", "query": "page=2", "status": 503.0, "fault": "503"},
		{"method": "GET", "path": "/api/v1/me", "status": 401.0},
	}
	for i, w := range want {
		for k, v := range w {
			if recs[i][k] != v {
				t.Errorf("record %d: %s = %v, want %v", i, k, recs[i][k], v)
			}
		}
	}
	if _, ok := recs[1]["fault"]; ok {
		t.Error("401 logged with a fault")
	}
	if strings.Contains(buf.String(), tokA) {
		t.Error("log contains the token")
	}
	if !slices.ContainsFunc(recs, func(r map[string]any) bool { _, ok := r["duration"]; return ok }) {
		t.Error("no duration logged")
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestFaultHead checks that damaged answers to HEAD carry no body, over a
// socket and over Transport alike.
func TestFaultHead(t *testing.T) {
	for _, faults := range []string{"cut=1", "slow=1:1ms", "html=1", "invalid-json=1", "503=1"} {
		t.Run(faults, func(t *testing.T) {
			h := faultHandler(t, faults, 1)
			srv := httptest.NewServer(h)
			defer srv.Close()
			for name, c := range map[string]struct {
				client *http.Client
				base   string
			}{"socket": {srv.Client(), srv.URL}, "transport": {transportClient(h), "http://sandbox.test"}} {
				req, _ := http.NewRequest(http.MethodHead, c.base+"/api/v1/curricula/b1", nil)
				req.Header.Set("Authorization", "Bearer "+tokA)
				resp, err := c.client.Do(req)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				body, err := readAll(resp)
				if err != nil || len(body) != 0 {
					t.Errorf("%s: status %d, body %q, err %v; want no body", name, resp.StatusCode, body, err)
				}
			}
		})
	}
}
