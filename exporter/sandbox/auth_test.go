package sandbox_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestAuthentication checks the 401 answers of spec section 5: the code, the
// error shape, and that the token is never echoed.
func TestAuthentication(t *testing.T) {
	h := newTiny(t)
	const secret = "s3cr3t-unknown-token-4242"
	tests := []struct {
		name   string
		header []string // Authorization header values; none when empty
		reason string   // a word the message contains
	}{
		{"missing", nil, "missing"},
		{"empty", []string{""}, "missing"},
		{"basic scheme", []string{"Basic dG9rLWE6eA=="}, "malformed"},
		{"no scheme", []string{tokA}, "malformed"},
		{"scheme only", []string{"Bearer"}, "malformed"},
		{"blank token", []string{"Bearer    "}, "malformed"},
		{"token without space", []string{"Bearer" + tokA}, "malformed"},
		{"unknown token", []string{"Bearer " + secret}, "invalid"},
		{"unknown token, lower-case scheme", []string{"bearer " + secret}, "invalid"},
		{"token with a suffix", []string{"Bearer " + tokA + "x"}, "invalid"},
		{"expired token", []string{"Bearer " + tokOld}, "expired"},
	}
	targets := []string{"/api/v1/me", "/api/v1/curricula", "/api/v1/curricula/b1", "/api/v1/curricula/b1/resolved", "/api/v1/content_nodes/u1", "/api/v1/curricula/nope"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, target := range targets {
				var hdr []string
				for _, v := range tc.header {
					hdr = append(hdr, "Authorization", v)
				}
				rec := get(t, h, target, "", hdr...)
				checkError(t, rec, http.StatusUnauthorized, "unauthorized")
				msg := strings.ToLower(str(t, decodeObject(t, rec.Body.Bytes()), "error", "message"))
				if !strings.Contains(msg, tc.reason) {
					t.Errorf("%s: message %q does not say %q", target, msg, tc.reason)
				}
				if rec.Header().Get("WWW-Authenticate") == "" {
					t.Errorf("%s: no WWW-Authenticate header", target)
				}
				for _, tok := range []string{secret, tokA, tokOld} {
					if strings.Contains(rec.Body.String(), tok) {
						t.Errorf("%s: body contains the token %q: %s", target, tok, rec.Body)
					}
					for k, vs := range rec.Header() {
						if slices.ContainsFunc(vs, func(v string) bool { return strings.Contains(v, tok) }) {
							t.Errorf("%s: header %s contains the token", target, k)
						}
					}
				}
				if rec.Header().Get("ETag") != "" {
					t.Errorf("%s: error with an ETag", target)
				}
			}
		})
	}
	// The same user's valid token works, so the expired one failed for its
	// expiry only.
	if rec := get(t, h, "/api/v1/me", tokA); rec.Code != http.StatusOK {
		t.Fatalf("tok-a: %d", rec.Code)
	}
}

// TestTokenNeverInBody checks every kind of answer for the caller's token.
func TestTokenNeverInBody(t *testing.T) {
	h := newTiny(t)
	for _, target := range []string{
		"/api/v1/me", "/api/v1/curricula", "/api/v1/curricula/b1", "/api/v1/curricula/v1", "/api/v1/curricula/b1/variants",
		"/api/v1/curricula/b1/locales", "/api/v1/curricula/b1/resolved?variant=District&locale=es",
		"/api/v1/content_nodes/l1", "/api/v1/content_nodes/l1/resolved", "/api/v1/curricula/other", "/api/v1/nope",
		"/api/v1/curricula?page=0", "/api/v1/curricula/b1/resolved?variant=Nope",
	} {
		rec := get(t, h, target, tokA)
		if strings.Contains(rec.Body.String(), tokA) {
			t.Errorf("%s: body contains the token: %s", target, rec.Body)
		}
	}
}

// TestErrors checks 400, 403, 404 and 405 answers and their details.
func TestErrors(t *testing.T) {
	h := newTiny(t)
	tests := []struct {
		name      string
		method    string
		target    string
		token     string
		status    int
		code      string
		parameter string   // details.parameter, when set
		available []string // details.available, when set
	}{
		// 403: another organization's resources.
		{"org-b token, org-a curriculum", "GET", "/api/v1/curricula/b1", tokB, 403, "forbidden", "", nil},
		{"org-b token, org-a variant", "GET", "/api/v1/curricula/v1/resolved", tokB, 403, "forbidden", "", nil},
		{"org-b token, org-a variants", "GET", "/api/v1/curricula/b1/variants", tokB, 403, "forbidden", "", nil},
		{"org-b token, org-a locales", "GET", "/api/v1/curricula/b1/locales", tokB, 403, "forbidden", "", nil},
		{"org-b token, org-a node", "GET", "/api/v1/content_nodes/u1", tokB, 403, "forbidden", "", nil},
		{"org-b token, org-a added node", "GET", "/api/v1/content_nodes/d0/resolved", tokB, 403, "forbidden", "", nil},
		{"org-a token, org-b curriculum", "GET", "/api/v1/curricula/other", tokA, 403, "forbidden", "", nil},
		{"org-a token, org-b node", "GET", "/api/v1/content_nodes/o1", tokA, 403, "forbidden", "", nil},
		// 404: ids that do not exist, for anybody.
		{"unknown curriculum", "GET", "/api/v1/curricula/nope", tokA, 404, "not_found", "", nil},
		{"unknown curriculum, org-b", "GET", "/api/v1/curricula/nope/resolved", tokB, 404, "not_found", "", nil},
		{"unknown node", "GET", "/api/v1/content_nodes/nope", tokA, 404, "not_found", "", nil},
		{"unknown node resolved", "GET", "/api/v1/content_nodes/nope/resolved", tokA, 404, "not_found", "", nil},
		{"unknown endpoint", "GET", "/api/v1/nope", tokA, 404, "not_found", "", nil},
		{"unknown sub-resource", "GET", "/api/v1/curricula/b1/nodes", tokA, 404, "not_found", "", nil},
		{"too deep", "GET", "/api/v1/curricula/b1/resolved/x", tokA, 404, "not_found", "", nil},
		{"node sub-resource", "GET", "/api/v1/content_nodes/u1/children", tokA, 404, "not_found", "", nil},
		{"trailing slash", "GET", "/api/v1/me/", tokA, 404, "not_found", "", nil},
		{"api root", "GET", "/api/v1/", tokA, 404, "not_found", "", nil},
		{"outside the api", "GET", "/", tokA, 404, "not_found", "", nil},
		{"other version", "GET", "/api/v2/me", tokA, 404, "not_found", "", nil},
		{"unknown variant", "GET", "/api/v1/curricula/b1/resolved?variant=Nope", tokA, 404, "not_found", "variant", []string{"Region", "District"}},
		{"unknown variant of a variant", "GET", "/api/v1/curricula/v1/resolved?variant=Base", tokA, 404, "not_found", "variant", []string{"District"}},
		{"unknown variant, node", "GET", "/api/v1/content_nodes/u1/resolved?variant=Nope", tokA, 404, "not_found", "variant", []string{"Region", "District"}},
		{"locale not enabled", "GET", "/api/v1/curricula/b1/resolved?locale=fr", tokA, 404, "not_found", "locale", []string{"en", "es", "ar"}},
		{"locale not enabled, variant", "GET", "/api/v1/curricula/b1/resolved?variant=District&locale=de", tokA, 404, "not_found", "locale", []string{"en", "es", "ar"}},
		{"locale not enabled, other", "GET", "/api/v1/curricula/other/resolved?locale=es", tokB, 404, "not_found", "locale", []string{"en"}},
		{"locale not enabled, node", "GET", "/api/v1/content_nodes/u1/resolved?locale=fr", tokA, 404, "not_found", "locale", []string{"en", "es", "ar"}},
		{"node not in the variant", "GET", "/api/v1/content_nodes/d0/resolved?variant=Region", tokA, 404, "not_found", "", nil},
		// 400: bad parameters, named in details.parameter.
		{"page 0", "GET", "/api/v1/curricula?page=0", tokA, 400, "bad_request", "page", nil},
		{"page negative", "GET", "/api/v1/curricula?page=-1", tokA, 400, "bad_request", "page", nil},
		{"page not a number", "GET", "/api/v1/curricula?page=x", tokA, 400, "bad_request", "page", nil},
		{"page empty", "GET", "/api/v1/curricula?page=", tokA, 400, "bad_request", "page", nil},
		{"page too large", "GET", "/api/v1/curricula?page=99999999999999999999", tokA, 400, "bad_request", "page", nil},
		{"page twice", "GET", "/api/v1/curricula?page=1&page=2", tokA, 400, "bad_request", "page", nil},
		{"per_page 0", "GET", "/api/v1/curricula?per_page=0", tokA, 400, "bad_request", "per_page", nil},
		{"per_page fraction", "GET", "/api/v1/curricula?per_page=2.5", tokA, 400, "bad_request", "per_page", nil},
		{"root_only maybe", "GET", "/api/v1/curricula?root_only=maybe", tokA, 400, "bad_request", "root_only", nil},
		{"status bogus", "GET", "/api/v1/curricula?status=bogus", tokA, 400, "bad_request", "status", nil},
		{"status twice", "GET", "/api/v1/curricula?status=draft&status=published", tokA, 400, "bad_request", "status", nil},
		{"locale !!", "GET", "/api/v1/curricula/b1/resolved?locale=!!", tokA, 400, "bad_request", "locale", nil},
		{"locale empty", "GET", "/api/v1/curricula/b1/resolved?locale=", tokA, 400, "bad_request", "locale", nil},
		{"locale twice", "GET", "/api/v1/curricula/b1/resolved?locale=es&locale=ar", tokA, 400, "bad_request", "locale", nil},
		{"variant twice", "GET", "/api/v1/curricula/b1/resolved?variant=Region&variant=District", tokA, 400, "bad_request", "variant", nil},
		{"locale !!, node", "GET", "/api/v1/content_nodes/u1/resolved?locale=!!", tokA, 400, "bad_request", "locale", nil},
		{"variant twice, node", "GET", "/api/v1/content_nodes/u1/resolved?variant=Region&variant=District", tokA, 400, "bad_request", "variant", nil},
		// 405: the API is read-only.
		{"POST", "POST", "/api/v1/me", tokA, 405, "method_not_allowed", "", nil},
		{"PUT", "PUT", "/api/v1/curricula/b1", tokA, 405, "method_not_allowed", "", nil},
		{"DELETE", "DELETE", "/api/v1/content_nodes/u1", tokA, 405, "method_not_allowed", "", nil},
		{"PATCH without token", "PATCH", "/api/v1/curricula", "", 405, "method_not_allowed", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, h, tc.method, tc.target, tc.token)
			details := checkError(t, rec, tc.status, tc.code)
			if tc.status == http.StatusMethodNotAllowed {
				if got := rec.Header().Get("Allow"); got != "GET, HEAD" {
					t.Errorf("Allow %q, want \"GET, HEAD\"", got)
				}
			}
			if tc.parameter != "" {
				if got, _ := details["parameter"].(string); got != tc.parameter {
					t.Errorf("details.parameter %v, want %q", details["parameter"], tc.parameter)
				}
				if tc.status == http.StatusBadRequest && !strings.Contains(str(t, decodeObject(t, rec.Body.Bytes()), "error", "message"), tc.parameter) {
					t.Errorf("message does not name %s", tc.parameter)
				}
			}
			if tc.available != nil {
				var got []string
				for _, v := range arr(t, details, "available") {
					got = append(got, v.(string))
				}
				if !slices.Equal(got, tc.available) {
					t.Errorf("details.available %v, want %v", got, tc.available)
				}
			}
		})
	}
}
