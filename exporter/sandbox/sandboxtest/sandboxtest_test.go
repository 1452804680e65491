package sandboxtest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

func TestNew(t *testing.T) {
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		env       string
		records   sandbox.RecordForm
		wantPlain bool
		wantErr   bool
	}{
		{env: ""},
		{env: "resource"},
		{env: "plain", wantPlain: true},
		{env: "plain", records: sandbox.RecordsResource},
		{env: "", records: sandbox.RecordsPlain, wantPlain: true},
		{env: "plian", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.env+"/"+string(tt.records), func(t *testing.T) {
			t.Setenv(RecordsEnv, tt.env)
			h, err := New(ds, sandbox.Options{Records: tt.records, Limits: ratelimit.Limits{}})
			if (err != nil) != tt.wantErr {
				t.Fatalf("New with %s=%q: %v, want an error: %v", RecordsEnv, tt.env, err, tt.wantErr)
			}
			if err != nil {
				return
			}
			req := httptest.NewRequest(http.MethodGet, "/api/v1/me", nil)
			req.Header.Set("Authorization", "Bearer sandbox-riverbend-token")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Fatalf("GET /api/v1/me: %d %s", rec.Code, rec.Body)
			}
			if plain := !strings.Contains(rec.Body.String(), `"attributes"`); plain != tt.wantPlain {
				t.Errorf("served the plain form: %v, want %v (%s)", plain, tt.wantPlain, rec.Body)
			}
		})
	}
}
