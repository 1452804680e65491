package sandbox_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// The sandbox is an http.Handler: serve it with httptest in tests, and ask
// it for a resolved curriculum like any client would.
func ExampleNew() {
	ds, err := dataset.Sample()
	if err != nil {
		panic(err)
	}
	h, err := sandbox.New(ds, sandbox.Options{})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/v1/curricula/101/resolved?variant=Houston%20ISD&locale=es", nil)
	req.Header.Set("Authorization", "Bearer sandbox-riverbend-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var body struct {
		Meta struct {
			VariantChain []string `json:"variant_chain"`
			Locale       string   `json:"locale"`
		} `json:"meta"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		panic(err)
	}
	fmt.Println(resp.StatusCode, body.Meta.VariantChain, body.Meta.Locale)
	// Output: 200 [Algebra 1 Texas Houston ISD] es
}
