package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// The seed corpora are real sandbox answers, from a dataset small enough
// that every answer is a few hundred bytes, with both record shapes,
// variants, translations, a draft and an unlisted workflow status; plus handcrafted variants of the
// shapes the decoders tolerate. Small seeds matter: the fuzzer minimizes
// every new interesting input, which takes time quadratic in its length,
// so kilobyte-sized seeds would use up a short -fuzztime on minimizing.

// microDataset is the dataset of the seeds.
const microDataset = `{
  "organizations": [{"id": "o", "name": "Org"}],
  "users": [{"id": "u", "email": "u@example.org", "name": "Una", "organization": "o"}],
  "tokens": [{"token": "t", "user": "u"}],
  "node_types": [{"name": "unit", "display_name": "Unit", "icon": "book", "translations": {"es": "Unidad"}}],
  "curricula": [
    {"id": "b", "organization": "o", "name": "Base", "structure_name": "Units", "primary_locale": "en",
     "locales": [{"code": "en", "name": "English"}, {"code": "es", "name": "Español"}],
     "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-02T00:00:00Z",
     "nodes": [{"id": "n", "title": "N", "node_type": "unit", "attributes": {"description": "*d*", "list": ["a"]},
       "children": [{"id": "m", "title": "M", "node_type": "unit", "workflow_status": "draft"}]}],
     "translations": {"es": {"n": {"title": "Ene"}}}},
    {"id": "curriculum_v", "parent": "b", "name": "Var", "shape": "alternate",
     "created_at": "2026-01-03T00:00:00Z", "updated_at": "2026-01-04T00:00:00Z",
     "overrides": [{"node": "m", "title": "M2", "attributes": {"extra": 1}}]},
    {"id": "s", "organization": "o", "name": "Single", "primary_locale": "en",
     "locales": [{"code": "en", "name": "English"}, {"code": "es", "name": "Español"}],
     "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-02T00:00:00Z",
     "nodes": [{"id": "x", "title": "X", "node_type": "unit", "attributes": {"k": [1]}}],
     "translations": {"es": {"x": {"title": "Equis"}}}},
    {"id": "sv", "parent": "s", "name": "SVar", "created_at": "2026-01-03T00:00:00Z", "updated_at": "2026-01-04T00:00:00Z",
     "overrides": [{"node": "x", "workflow_status": "in_review"}]}
  ]
}`

// sandboxBodies returns the bodies the sandbox serving microDataset
// answers to paths, asked with its token ("anon:" before a path: without),
// in both record forms (resource objects, then plain objects).
func sandboxBodies(f *testing.F, paths ...string) [][]byte {
	f.Helper()
	var bodies [][]byte
	for _, form := range []sandbox.RecordForm{sandbox.RecordsResource, sandbox.RecordsPlain} {
		bodies = append(bodies, sandboxBodiesIn(f, form, paths...)...)
	}
	return bodies
}

// sandboxBodiesIn is sandboxBodies in one record form.
func sandboxBodiesIn(f *testing.F, form sandbox.RecordForm, paths ...string) [][]byte {
	f.Helper()
	ds, err := dataset.Decode(strings.NewReader(microDataset))
	if err != nil {
		f.Fatal(err)
	}
	h, err := sandbox.New(ds, sandbox.Options{Limits: ratelimit.Limits{}, Records: form})
	if err != nil {
		f.Fatal(err)
	}
	var bodies [][]byte
	for _, p := range paths {
		anon, ok := strings.CutPrefix(p, "anon:")
		req := httptest.NewRequest(http.MethodGet, anon, nil)
		if !ok {
			req.Header.Set("Authorization", "Bearer t")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		bodies = append(bodies, rec.Body.Bytes())
	}
	return bodies
}

// seed adds the answers to paths and extra handcrafted bodies.
func seed(f *testing.F, paths []string, extra ...string) {
	for _, b := range sandboxBodies(f, paths...) {
		f.Add(b)
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
	// Shapes every decoder must survive.
	for _, s := range []string{``, `null`, `{}`, `[]`, `{"data":null}`, `{"data":{}}`, `{"data":[]}`, `{"data":"x"}`, `{"data":{"attributes":7}}`, `<!DOCTYPE html>`, `{"data":`,
		// Plain records, and plain records whose attributes member is
		// free-form content.
		`{"data":[{"code":"pt_BR","is_primary":1},null,{"id":2,"attributes":null}]}`,
		`{"data":{"id":"n","title":"T","attributes":{"title":{"x":1}},"children":[{"id":"m","position":"1","attributes":[]}]}}`,
		`{"data":{"id":"c","name":"C","children":[{"id":"a","title":"A","attributes":{"k":1},"relationships":{"children":{"data":[{"title":"B"}]}}}]}}`} {
		f.Add([]byte(s))
	}
}

// checkDecoder decodes body into a fresh *T twice, and checks that a
// success is repeatable, does not keep pointers into body, and keeps free
// attributes as valid JSON; a failure must be a *DecodeError whose
// message is printable.
func checkDecoder[T any](t *testing.T, body []byte, attrs func(*T) []map[string]json.RawMessage) {
	own := bytes.Clone(body)
	v := new(T)
	err := Decode(own, v)
	if err != nil {
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("Decode error %v is no *DecodeError", err)
		}
		printable(t, de.Snippet)
		_ = err.Error()
		return
	}
	for i := range own {
		own[i] = 'X' // the decoded value must not change with the input
	}
	again := new(T)
	if err := Decode(body, again); err != nil {
		t.Fatalf("second Decode failed: %v", err)
	}
	if !reflect.DeepEqual(v, again) {
		t.Fatalf("decoded values differ (aliasing the input?):\n%+v\n%+v", v, again)
	}
	for _, m := range attrs(v) {
		for k, raw := range m {
			if !json.Valid(raw) {
				t.Fatalf("attribute %q is not valid JSON: %q", k, raw)
			}
		}
	}
}

func printable(t *testing.T, s string) {
	t.Helper()
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			t.Fatalf("%q holds the control character %U", s, r)
		}
	}
}

func noAttrs[T any](*T) []map[string]json.RawMessage { return nil }

func resolvedAttrsOf(ns []ResolvedNode, out []map[string]json.RawMessage) []map[string]json.RawMessage {
	for i := range ns {
		out = append(out, ns[i].Attributes)
		out = resolvedAttrsOf(ns[i].Children, out)
	}
	return out
}

func FuzzDecodeUser(f *testing.F) {
	seed(f, []string{"/api/v1/me"},
		`{"status":"ok","data":{"id":7,"type":"user","attributes":{"email":"e","name":"n","x":[]}},"meta":{"organization":"org"}}`,
		`{"data":{"id":"u","attributes":{}},"meta":{"organization":{"id":1,"name":"N"}}}`,
		`{"data":{"id":"u"},"meta":{"organization":[1]}}`)
	f.Fuzz(func(t *testing.T, body []byte) { checkDecoder(t, body, noAttrs[User]) })
}

func FuzzDecodeCurriculumPage(f *testing.F) {
	seed(f, []string{"/api/v1/curricula", "/api/v1/curricula?page=2&per_page=1", "/api/v1/curricula?status=draft"},
		`{"data":[{"id":1,"attributes":{"name":null,"title":"T","status":"x","node_count":"3","is_variant":1,"parent_id":2,"created_at":"2025-01-01 00:00:00","updated_at":17e8}}],"meta":{"total_count":"1"}}`,
		`{"data":[{"id":"a","attributes":{"node_count":1e999,"created_at":"nope"}}],"meta":{"page":-1,"per_page":1.5}}`)
	f.Fuzz(func(t *testing.T, body []byte) { checkDecoder(t, body, noAttrs[CurriculumPage]) })
}

func FuzzDecodeCurriculumDetail(f *testing.F) {
	seed(f, []string{"/api/v1/curricula/b", "/api/v1/curricula/curriculum_v"},
		`{"data":{"id":"c","attributes":{"title":"T"},"relationships":{"root_nodes":[{"id":1,"attributes":{"node_type":"unit","depth":"0","attributes":{"a":null}}}]}},"meta":{"root_count":"1"}}`,
		`{"data":{"id":"c","relationships":{"content_nodes":{"data":null},"root_nodes":{"data":[{"attributes":{"attributes":{"title":"free"}}}]}}}}`)
	f.Fuzz(func(t *testing.T, body []byte) {
		checkDecoder(t, body, func(d *CurriculumDetail) []map[string]json.RawMessage {
			var out []map[string]json.RawMessage
			for _, n := range d.RootNodes {
				out = append(out, n.Attributes)
			}
			return out
		})
	})
}

func FuzzDecodeVariantList(f *testing.F) {
	seed(f, []string{"/api/v1/curricula/b/variants", "/api/v1/curricula/curriculum_v/variants"},
		`{"data":[{"id":"v","attributes":{"title":"T","depth":"2","node_count":null,"added_count":3.7}}],"meta":{"curriculum_id":5}}`)
	f.Fuzz(func(t *testing.T, body []byte) { checkDecoder(t, body, noAttrs[VariantList]) })
}

func FuzzDecodeLocaleList(f *testing.F) {
	seed(f, []string{"/api/v1/curricula/b/locales", "/api/v1/curricula/curriculum_v/locales"},
		`{"data":[{"id":"c:en","attributes":{"code":"en","is_primary":"yes","translation_progress":99.9,"published_progress":"7"}}]}`)
	f.Fuzz(func(t *testing.T, body []byte) { checkDecoder(t, body, noAttrs[LocaleList]) })
}

func FuzzDecodeNodeDetail(f *testing.F) {
	seed(f, []string{"/api/v1/content_nodes/n", "/api/v1/content_nodes/m"},
		`{"status":"ok","data":{"id":"n","attributes":{"depth":"1"},"relationships":{"parent":{"data":"p"},"curriculum":{"data":{"id":3}},"children":[{"id":"k"}]}},"meta":{"children_count":null}}`)
	f.Fuzz(func(t *testing.T, body []byte) {
		checkDecoder(t, body, func(d *NodeDetail) []map[string]json.RawMessage {
			out := []map[string]json.RawMessage{d.Node.Attributes}
			for _, n := range d.Children {
				out = append(out, n.Attributes)
			}
			return out
		})
	})
}

func FuzzDecodeResolved(f *testing.F) {
	seed(f, []string{"/api/v1/curricula/s/resolved", "/api/v1/curricula/s/resolved?variant=SVar&locale=es"}, append([]string{
		`{"data":{"id":"c","attributes":{"title":"T","resolved_at":1700000000},"children":[{"id":"x","attributes":{"children":[{"id":"y"}]}}]},"meta":{"variant_chain":["a",1,null]}}`,
		`{"data":{"relationships":{"nodes":[{"id":"r","relationships":{"children":{"data":[{"id":"s","attributes":{"translation_metadata":{"status":"s"}}}]}}}]}}}`,
		// Bodies decodeSplit reads, or must leave to decodeWhole.
	}, splitSeeds...)...)
	f.Fuzz(func(t *testing.T, body []byte) {
		checkDecoder(t, body, func(r *ResolvedCurriculum) []map[string]json.RawMessage { return resolvedAttrsOf(r.Nodes, nil) })
		checkSplit(t, body)
		// DecodeResolved is Decode into a *ResolvedCurriculum.
		r, err := DecodeResolved(body)
		if (r == nil) == (err == nil) {
			t.Fatalf("DecodeResolved = %v, %v", r, err)
		}
	})
}

func FuzzDecodeResolvedNode(f *testing.F) {
	seed(f, []string{"/api/v1/content_nodes/x/resolved?variant=SVar&locale=es", "/api/v1/content_nodes/x/resolved"},
		`{"data":{"id":"n","attributes":{"title":"N","depth":3,"inheritance_metadata":{"is_inherited":"1"}},"children":[{"id":"m"}]},"meta":"x"}`)
	f.Fuzz(func(t *testing.T, body []byte) {
		checkDecoder(t, body, func(n *ResolvedNode) []map[string]json.RawMessage { return resolvedAttrsOf([]ResolvedNode{*n}, nil) })
	})
}

func FuzzDecodeErrorBody(f *testing.F) {
	statuses := []int{401, 403, 404, 400, 405, 429, 500, 502, 503}
	add := func(bodies [][]byte) {
		for i, b := range bodies {
			f.Add(statuses[i%len(statuses)], b, "")
		}
	}
	add(sandboxBodies(f, "anon:/api/v1/me", "/api/v1/curricula/zz", "/api/v1/curricula/b/resolved?locale=x_y",
		"/api/v1/curricula/b/resolved?variant=Atlantis", "/api/v1/curricula/b/resolved?locale=fr", "/api/v1/nowhere",
		"/api/v1/curricula?page=0", "/api/v1/curricula?status=x&status=y"))
	for _, s := range []string{
		`{"error":"invalid_token","error_description":"expired"}`, `{"error":"plain"}`,
		`{"errors":[{"code":1,"title":"T","detail":"D"}]}`, `{"code":"c","message":"m"}`, `{"error":{"details":[1]}}`,
		"<html><body>502\x1b[31m</body></html>", ``, `null`, "\xff\xfe", `{"error":{"message":"` + strings.Repeat("é", 3000) + `"}}`,
	} {
		f.Add(502, []byte(s), "")
	}
	f.Add(429, []byte(`{}`), "120")
	f.Add(503, []byte(`{}`), "Fri, 01 May 2026 12:01:00 GMT")
	f.Add(429, []byte(`{}`), "1e400")
	f.Add(200, []byte(`{}`), "")
	f.Add(304, []byte(nil), "")
	f.Fuzz(func(t *testing.T, status int, body []byte, retryAfter string) {
		if status < 100 || status > 999 {
			return // net/http refuses these
		}
		req := httptest.NewRequest(http.MethodGet, "/api/v1/curricula/7?page=2", nil)
		resp := &http.Response{StatusCode: status, Header: http.Header{"Retry-After": {retryAfter}}}
		err := CheckResponse(req, resp, body)
		if (status >= 200 && status <= 299) || status == 304 {
			if err != nil {
				t.Fatalf("CheckResponse(%d) = %v", status, err)
			}
			return
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("CheckResponse(%d) = %v, want an *Error", status, err)
		}
		n := 0
		for _, s := range []error{ErrUnauthorized, ErrForbidden, ErrNotFound, ErrBadRequest, ErrRateLimited, ErrServer} {
			if errors.Is(err, s) {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%v matches %d sentinels", err, n)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "GET /api/v1/curricula/7?page=2: ") {
			t.Fatalf("message %q does not name the request", msg)
		}
		printable(t, msg)
		if len(e.Code) > maxCodeLen+len("…")+utf8Max || len(e.Message) > maxMessage+len("…")+utf8Max || len(e.Snippet) > snippetBytes+len("…")+utf8Max {
			t.Fatalf("unbounded text: code %d, message %d, snippet %d bytes", len(e.Code), len(e.Message), len(e.Snippet))
		}
		if e.RetryAfter < 0 || (!e.HasRetryAfter && e.RetryAfter != 0) {
			t.Fatalf("RetryAfter = %v, %v", e.RetryAfter, e.HasRetryAfter)
		}
	})
}

// utf8Max is the longest encoding of a rune.
const utf8Max = 4

func FuzzParseRetryAfter(f *testing.F) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, s := range []string{"", "0", "120", "1.5", "-1", "1e400", "soon", "Fri, 01 May 2026 12:01:00 GMT", "Friday, 01-May-26 12:01:00 GMT", "Fri May  1 12:01:00 2026"} {
		f.Add(s, "")
		f.Add(s, "Fri, 01 May 2026 11:59:00 GMT")
	}
	f.Fuzz(func(t *testing.T, v, date string) {
		d, ok := ParseRetryAfter(v, date, now)
		if d < 0 || d > maxRetryAfter || (!ok && d != 0) {
			t.Fatalf("ParseRetryAfter(%q, %q) = %v, %v", v, date, d, ok)
		}
	})
}
