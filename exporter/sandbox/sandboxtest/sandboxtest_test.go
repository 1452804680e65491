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
	// FNV-1a of "a" is even, of "b" odd.
	tests := []struct {
		env, name string
		records   sandbox.RecordForm
		wantPlain bool
		wantErr   bool
	}{
		{env: "", name: "a"},
		{env: "", name: "b", wantPlain: true},
		{env: "resource", name: "b"},
		{env: "plain", name: "a", wantPlain: true},
		{env: "plain", name: "b", records: sandbox.RecordsResource},
		{env: "", name: "a", records: sandbox.RecordsPlain, wantPlain: true},
		{env: "plian", name: "a", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.env+"/"+tt.name+"/"+string(tt.records), func(t *testing.T) {
			t.Setenv(RecordsEnv, tt.env)
			h, err := New(tt.name, ds, sandbox.Options{Records: tt.records, Limits: ratelimit.Limits{}})
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

// TestFormsSplitTheSuite: the names of the tests that start a sandbox
// through New get both forms, neither fewer than a third of them.
func TestFormsSplitTheSuite(t *testing.T) {
	names := []string{"TestExportEveryFormat", "TestFaultMatrix", "TestHostileContent", "TestMathEveryFormat",
		"TestDisplayMathEveryFormat", "TestExportCLI", "TestExportFaultExitCodes", "TestIncrementalExport",
		"TestExportUnderFaultsAndTightLimits", "TestCacheIsScopedByAPIOrigin", "sharedSample", "TestMaxRequestsStopsCleanly"}
	plain := 0
	for _, n := range names {
		if Form(n) == sandbox.RecordsPlain {
			plain++
		}
		if Form(n+"/a_row") != Form(n) {
			t.Fatalf("Form(%q) differs for a subtest", n)
		}
	}
	if plain < len(names)/3 || len(names)-plain < len(names)/3 {
		t.Errorf("%d of %d names get the plain form", plain, len(names))
	}
}
