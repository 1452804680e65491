package sandbox_test

import (
	"bytes"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/sandbox/dataset"
)

var strongETag = regexp.MustCompile(`^"[0-9a-f]{32}"$`)

// okTargets answer 200 to tok-a on tiny.json, one per endpoint and more.
var okTargets = []string{
	"/api/v1/me",
	"/api/v1/curricula",
	"/api/v1/curricula?root_only=true",
	"/api/v1/curricula/b1",
	"/api/v1/curricula/v1",
	"/api/v1/curricula/b1/variants",
	"/api/v1/curricula/b1/locales",
	"/api/v1/curricula/b1/resolved",
	"/api/v1/curricula/b1/resolved?variant=District&locale=es",
	"/api/v1/content_nodes/u1",
	"/api/v1/content_nodes/l1/resolved?variant=Region&locale=es",
}

// TestETag checks that every 200 carries a stable ETag and that
// If-None-Match answers 304 with no body.
func TestETag(t *testing.T) {
	h := newTiny(t)
	seen := map[string]string{} // etag -> target
	for _, target := range okTargets {
		t.Run(target, func(t *testing.T) {
			first := get(t, h, target, tokA)
			second := get(t, h, target, tokA)
			if first.Code != http.StatusOK || second.Code != http.StatusOK {
				t.Fatalf("status %d, %d", first.Code, second.Code)
			}
			etag := first.Header().Get("ETag")
			if !strongETag.MatchString(etag) {
				t.Fatalf("ETag %q, want a strong quoted tag", etag)
			}
			if other, dup := seen[etag]; dup {
				t.Errorf("same ETag as %s", other)
			}
			seen[etag] = target
			if second.Header().Get("ETag") != etag || !bytes.Equal(first.Body.Bytes(), second.Body.Bytes()) {
				t.Errorf("second answer differs: ETag %q vs %q", second.Header().Get("ETag"), etag)
			}
			if first.Header().Get("Cache-Control") != "private, no-cache" || first.Header().Get("Vary") != "Authorization" {
				t.Errorf("Cache-Control %q, Vary %q", first.Header().Get("Cache-Control"), first.Header().Get("Vary"))
			}
			tests := []struct {
				name string
				inm  []string // If-None-Match values
				want int
			}{
				{"exact", []string{etag}, http.StatusNotModified},
				{"weak", []string{"W/" + etag}, http.StatusNotModified},
				{"list", []string{`"0123", W/"abc", ` + etag + `, "zzz"`}, http.StatusNotModified},
				{"list without spaces", []string{`"0123",` + etag}, http.StatusNotModified},
				{"second header", []string{`"0123"`, etag}, http.StatusNotModified},
				{"star", []string{"*"}, http.StatusNotModified},
				{"other tag", []string{`"0123456789abcdef0123456789abcdef"`}, http.StatusOK},
				{"unquoted", []string{strings.Trim(etag, `"`)}, http.StatusOK},
				{"empty", []string{""}, http.StatusOK},
			}
			for _, tc := range tests {
				var hdr []string
				for _, v := range tc.inm {
					hdr = append(hdr, "If-None-Match", v)
				}
				for _, method := range []string{http.MethodGet, http.MethodHead} {
					rec := do(t, h, method, target, tokA, hdr...)
					if rec.Code != tc.want {
						t.Errorf("%s %s: status %d, want %d", method, tc.name, rec.Code, tc.want)
						continue
					}
					if got := rec.Header().Get("ETag"); got != etag {
						t.Errorf("%s %s: ETag %q, want %q", method, tc.name, got, etag)
					}
					switch {
					case tc.want == http.StatusNotModified && rec.Body.Len() != 0:
						t.Errorf("%s %s: 304 with a body %q", method, tc.name, rec.Body)
					case tc.want == http.StatusOK && method == http.MethodGet && !bytes.Equal(rec.Body.Bytes(), first.Body.Bytes()):
						t.Errorf("%s %s: body differs", method, tc.name)
					}
				}
			}
		})
	}
}

// TestETagAfterEdit changes a node title: the answers that show it get a
// new ETag, the old one no longer matches, the others keep theirs.
func TestETagAfterEdit(t *testing.T) {
	h := newTiny(t)
	changed := []string{
		"/api/v1/curricula/b1/resolved",
		"/api/v1/curricula/b1/resolved?variant=District",
		"/api/v1/curricula/b1",
		"/api/v1/content_nodes/u1",
		"/api/v1/content_nodes/u1/resolved",
	}
	same := []string{
		"/api/v1/me",
		"/api/v1/curricula/b1/locales",
		"/api/v1/content_nodes/l1",
	}
	before := map[string]string{}
	for _, target := range append(changed, same...) {
		rec := get(t, h, target, tokA)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d", target, rec.Code)
		}
		before[target] = rec.Header().Get("ETag")
	}
	edited := h.Index().Curriculum("b1").UpdatedAt
	if err := h.Edit(func(ds *dataset.Dataset) error {
		ds.Curricula[0].Nodes[0].Title = "Unit one, revised"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, target := range changed {
		old := before[target]
		rec := get(t, h, target, tokA, "If-None-Match", old)
		if rec.Code != http.StatusOK {
			t.Errorf("%s: old ETag still gets %d", target, rec.Code)
			continue
		}
		etag := rec.Header().Get("ETag")
		if etag == old || !strongETag.MatchString(etag) {
			t.Errorf("%s: ETag %q after the edit, was %q", target, etag, old)
		}
		if !strings.Contains(rec.Body.String(), "Unit one, revised") {
			t.Errorf("%s: new title missing", target)
		}
		if rec := get(t, h, target, tokA, "If-None-Match", etag); rec.Code != http.StatusNotModified {
			t.Errorf("%s: new ETag gets %d, want 304", target, rec.Code)
		}
	}
	for _, target := range same {
		if rec := get(t, h, target, tokA, "If-None-Match", before[target]); rec.Code != http.StatusNotModified {
			t.Errorf("%s: unchanged content, status %d, want 304", target, rec.Code)
		}
	}
	// u1 is translated into Spanish, so its Spanish title stays; but the
	// edit moved the curriculum's updated_at, and with it resolved_at.
	es := "/api/v1/curricula/b1/resolved?locale=es"
	if rec := get(t, h, es, tokA, "If-None-Match", before[es]); rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "Unit one, revised") {
		t.Errorf("%s after the edit: status %d, want 200 with the translated title", es, rec.Code)
	}
	if got := h.Index().Curriculum("b1").UpdatedAt; !got.After(edited) {
		t.Errorf("updated_at of b1 after the edit: %v, want after %v", got, edited)
	}

	// A failing or invalid edit changes nothing.
	etag := get(t, h, "/api/v1/curricula/b1/resolved", tokA).Header().Get("ETag")
	boom := errors.New("boom")
	if err := h.Edit(func(ds *dataset.Dataset) error {
		ds.Curricula[0].Nodes[0].Title = "not kept"
		return boom
	}); !errors.Is(err, boom) {
		t.Errorf("Edit error %v, want boom", err)
	}
	if err := h.Edit(func(ds *dataset.Dataset) error {
		ds.Curricula[0].Nodes[0].Title = "not kept"
		ds.Curricula[1].Parent = "missing"
		return nil
	}); err == nil {
		t.Error("invalid edit accepted")
	}
	if rec := get(t, h, "/api/v1/curricula/b1/resolved", tokA, "If-None-Match", etag); rec.Code != http.StatusNotModified {
		t.Errorf("after failed edits: %d, want 304", rec.Code)
	}
	if h.Index().Curriculum("b1").Nodes[0].Title != "Unit one, revised" {
		t.Error("failed edit changed the dataset")
	}
}
