package sandbox_test

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// tinyPath is the small hand-written dataset the precise assertions use.
const tinyPath = "dataset/testdata/tiny.json"

// Tokens of tiny.json.
const (
	tokA   = "tok-a"   // org-a: b1, v1 (alternate shape), v2
	tokB   = "tok-b"   // org-b: other
	tokOld = "tok-old" // org-a, expired 2025-01-01
)

// noLimits turns rate limiting off; nil Limits would mean the API default.
var noLimits = ratelimit.Limits{}

func tinyDataset(t testing.TB) *dataset.Dataset {
	t.Helper()
	ds, err := dataset.Open(tinyPath)
	if err != nil {
		t.Fatalf("open %s: %v", tinyPath, err)
	}
	return ds
}

func newHandler(t testing.TB, ds *dataset.Dataset, opts sandbox.Options) *sandbox.Handler {
	t.Helper()
	h, err := sandbox.New(ds, opts)
	if err != nil {
		t.Fatalf("sandbox.New: %v", err)
	}
	return h
}

// newTiny serves tiny.json without rate limits or faults.
func newTiny(t testing.TB) *sandbox.Handler {
	t.Helper()
	return newHandler(t, tinyDataset(t), sandbox.Options{Limits: noLimits})
}

// do sends one request straight to h. Extra headers come as name, value
// pairs.
func do(t testing.TB, h http.Handler, method, target, token string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Add(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func get(t testing.TB, h http.Handler, target, token string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	return do(t, h, http.MethodGet, target, token, hdr...)
}

// mustGet requires a 200 and returns the decoded body.
func mustGet(t testing.TB, h http.Handler, target, token string) map[string]any {
	t.Helper()
	rec := get(t, h, target, token)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: status %d, want 200; body %s", target, rec.Code, rec.Body)
	}
	return decodeObject(t, rec.Body.Bytes())
}

func decodeObject(t testing.TB, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("decode body: %v; body %q", err, body)
	}
	return m
}

// decodeInto decodes body into v, rejecting fields v does not know.
func decodeInto(t testing.TB, body []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decode body into %T: %v; body %s", v, err, body)
	}
}

// obj, arr, str and num walk decoded JSON, failing the test on a type
// mismatch.
func obj(t testing.TB, v any, path ...string) map[string]any {
	t.Helper()
	v = walk(t, v, path...)
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: %T (%v), want an object", strings.Join(path, "."), v, v)
	}
	return m
}

func arr(t testing.TB, v any, path ...string) []any {
	t.Helper()
	v = walk(t, v, path...)
	a, ok := v.([]any)
	if !ok {
		t.Fatalf("%s: %T (%v), want a list", strings.Join(path, "."), v, v)
	}
	return a
}

func str(t testing.TB, v any, path ...string) string {
	t.Helper()
	v = walk(t, v, path...)
	s, ok := v.(string)
	if !ok {
		t.Fatalf("%s: %T (%v), want a string", strings.Join(path, "."), v, v)
	}
	return s
}

func num(t testing.TB, v any, path ...string) int {
	t.Helper()
	v = walk(t, v, path...)
	f, ok := v.(float64)
	if !ok || f != float64(int(f)) {
		t.Fatalf("%s: %T (%v), want a whole number", strings.Join(path, "."), v, v)
	}
	return int(f)
}

func boolean(t testing.TB, v any, path ...string) bool {
	t.Helper()
	v = walk(t, v, path...)
	b, ok := v.(bool)
	if !ok {
		t.Fatalf("%s: %T (%v), want a boolean", strings.Join(path, "."), v, v)
	}
	return b
}

func walk(t testing.TB, v any, path ...string) any {
	t.Helper()
	for i, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: %T, want an object", strings.Join(path[:i], "."), v)
		}
		if v, ok = m[p]; !ok {
			t.Fatalf("%s: missing (have %v)", strings.Join(path[:i+1], "."), sortedKeys(m))
		}
	}
	return v
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// wantKeys checks that m has exactly the given members.
func wantKeys(t testing.TB, what string, m map[string]any, keys ...string) {
	t.Helper()
	slices.Sort(keys)
	if got := sortedKeys(m); !slices.Equal(got, keys) {
		t.Errorf("%s: members %v, want %v", what, got, keys)
	}
}

// ids lists the id of every record in a list.
func ids(t testing.TB, list []any) []string {
	t.Helper()
	out := make([]string, len(list))
	for i, r := range list {
		out[i] = str(t, r, "id")
	}
	return out
}

// checkError checks the error body of spec section 7 and returns its
// details.
func checkError(t testing.TB, rec *httptest.ResponseRecorder, status int, code string) map[string]any {
	t.Helper()
	return checkErrorBody(t, rec.Code, rec.Header(), rec.Body.Bytes(), status, code)
}

func checkErrorBody(t testing.TB, gotStatus int, hdr http.Header, body []byte, status int, code string) map[string]any {
	t.Helper()
	if gotStatus != status {
		t.Fatalf("status %d, want %d; body %s", gotStatus, status, body)
	}
	if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	m := decodeObject(t, body)
	wantKeys(t, "error body", m, "error")
	e := obj(t, m, "error")
	wantKeys(t, "error", e, "code", "message", "details")
	if got := str(t, e, "code"); got != code {
		t.Errorf("error.code %q, want %q", got, code)
	}
	if str(t, e, "message") == "" {
		t.Error("error.message is empty")
	}
	return obj(t, e, "details")
}

// readAll reads a response body, returning what arrived and the error.
func readAll(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// transportClient talks to h without sockets, for synctest bubbles.
func transportClient(h http.Handler) *http.Client {
	return &http.Client{Transport: &sandboxtest.Transport{Handler: h}}
}

func clientGet(t testing.TB, c *http.Client, target, token string) (*http.Response, []byte, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	body, err := readAll(resp)
	return resp, body, err
}

// validToken returns a token of org that has not expired, or "".
func validToken(ix *dataset.Index, org string) string {
	for _, tok := range ix.Dataset().Tokens {
		u := ix.User(tok.User)
		if u != nil && u.Organization == org && (tok.ExpiresAt == nil || tok.ExpiresAt.After(time.Now())) {
			return tok.Token
		}
	}
	return ""
}
