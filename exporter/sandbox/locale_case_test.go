package sandbox_test

import (
	"net/http"
	"testing"
)

// Language tags compare case-insensitively; the answer spells the code as
// the curriculum does.
func TestLocaleCaseInsensitive(t *testing.T) {
	h := newTiny(t)
	body := mustGet(t, h, "/api/v1/curricula/b1/resolved?locale=ES", tokA)
	if got := str(t, body, "meta", "locale"); got != "es" {
		t.Fatalf("meta.locale = %q, want es", got)
	}
	if got := str(t, body, "data", "attributes", "locale"); got != "es" {
		t.Fatalf("data.attributes.locale = %q, want es", got)
	}
	rec := get(t, h, "/api/v1/curricula/b1/resolved?locale=FR", tokA)
	if rec.Code != http.StatusNotFound {
		t.Fatalf("locale=FR: status %d, want 404", rec.Code)
	}
}

// A 304 has no body to damage: body faults pass it through unchanged.
func TestBodyFaultsLeave304Alone(t *testing.T) {
	for _, kind := range []string{"invalid-json", "html", "slow"} {
		t.Run(kind, func(t *testing.T) {
			clean := newTiny(t)
			etag := get(t, clean, "/api/v1/curricula/b1", tokA).Header().Get("Etag")
			h := faultHandler(t, kind+"=1", 1)
			rec := get(t, h, "/api/v1/curricula/b1", tokA, "If-None-Match", etag)
			if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
				t.Fatalf("status %d with %d body bytes, want 304 and none", rec.Code, rec.Body.Len())
			}
		})
	}
}
