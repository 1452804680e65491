package sandbox_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/imagecheck"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

func TestImages(t *testing.T) {
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	h, err := sandbox.New(ds, sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, inm string) *http.Response {
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:4321"+path, nil)
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Result()
	}
	for _, tc := range []struct {
		name   string
		status int
		image  bool
	}{
		{"earth-layers.png", 200, true},
		{"water-cycle.png", 200, true},
		{"granite.jpg", 200, true},
		{"binary-bits.png", 200, true},
		{"broken.png", 200, false},
		{"atmosphere-layers.png", 404, false},
		{"../sample.json", 404, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := get(sandbox.ImagesPath+tc.name, "")
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status != 200 {
				return
			}
			if _, _, _, err := imagecheck.Check(body); (err == nil) != tc.image {
				t.Errorf("Check: %v, want an image: %v", err, tc.image)
			}
			etag := resp.Header.Get("ETag")
			if etag == "" {
				t.Fatal("no ETag")
			}
			if again := get(sandbox.ImagesPath+tc.name, etag); again.StatusCode != http.StatusNotModified {
				t.Errorf("If-None-Match: status %d, want 304", again.StatusCode)
			}
		})
	}
}

func TestOriginSubstituted(t *testing.T) {
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	h, err := sandbox.New(ds, sandbox.Options{Limits: nil})
	if err != nil {
		t.Fatal(err)
	}
	const token = "sandbox-northwind-token" // Earth Science's organization
	bodies := map[string]string{}
	for _, host := range []string{"127.0.0.1:4321", "localhost:9"} {
		req := httptest.NewRequest(http.MethodGet, "http://"+host+"/api/v1/curricula/301/resolved?locale=en", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		body := rec.Body.String()
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", host, rec.Code, body)
		}
		if strings.Contains(body, sandbox.Origin) || !strings.Contains(body, "http://"+host+"/images/earth-layers.png") {
			t.Errorf("%s: placeholder not replaced by the request's origin", host)
		}
		bodies[rec.Header().Get("ETag")] = host
	}
	if len(bodies) != 2 {
		t.Errorf("two origins, one ETag: %v", bodies)
	}
}
