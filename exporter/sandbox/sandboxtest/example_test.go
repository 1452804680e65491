package sandboxtest_test

import (
	"fmt"
	"net/http"

	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// Transport serves requests without a socket, which keeps tests inside a
// testing/synctest bubble on virtual time.
func ExampleTransport() {
	ds, _ := dataset.Sample()
	h, _ := sandbox.New(ds, sandbox.Options{})
	client := &http.Client{Transport: &sandboxtest.Transport{Handler: h}}

	req, _ := http.NewRequest(http.MethodGet, "http://sandbox/api/v1/me", nil)
	req.Header.Set("Authorization", "Bearer sandbox-expired-token")
	resp, err := client.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	fmt.Println(resp.StatusCode)
	// Output: 401
}
