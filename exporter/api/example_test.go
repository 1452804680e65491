package api_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// sandboxServer serves the sample dataset without rate limits, as the
// examples' API.
func sandboxServer(opts sandbox.Options) *httptest.Server {
	ds, err := dataset.Sample()
	if err != nil {
		panic(err)
	}
	if opts.Limits == nil {
		opts.Limits = ratelimit.Limits{}
	}
	h, err := sandbox.New(ds, opts)
	if err != nil {
		panic(err)
	}
	return httptest.NewServer(h)
}

// A resolved curriculum is a variant's whole tree in one locale, with
// inheritance and translation applied.
func ExampleClient_Resolved() {
	srv := sandboxServer(sandbox.Options{})
	defer srv.Close()

	c, err := api.New(srv.URL, "sandbox-riverbend-token")
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, _, err := c.Resolved(context.Background(), "101", api.ResolveOptions{Variant: "Houston ISD", Locale: "es"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tree.Name, tree.VariantChain, tree.Locale, tree.NodeCount, "nodes")
	unit := tree.Nodes[0]
	fmt.Printf("%s: %s (%s, from %s)\n", unit.TypeDisplay, unit.Title, unit.Translation.Status, unit.Inheritance.SourceCurriculum)
	for _, lesson := range unit.Children[:2] {
		fmt.Printf("  %s: %s\n", lesson.TypeDisplay, lesson.Title)
	}
	// Output:
	// Houston ISD [Algebra 1 Texas Houston ISD] es 32 nodes
	// Unidad 1: Fundamentos del álgebra (translated, from Algebra 1)
	//   Lección 1: Variables y expresiones
	//   Lección 2: Orden de las operaciones y evaluación de expresiones
}

// Pages are read until the total count is reached. Both record shapes
// arrive as one Curriculum type; Shape tells them apart.
func ExampleClient_ListCurricula() {
	srv := sandboxServer(sandbox.Options{})
	defer srv.Close()
	c, _ := api.New(srv.URL, "sandbox-riverbend-token")

	opts := api.ListOptions{PerPage: 3}
	for seen := 0; ; {
		opts.Page++
		page, _, err := c.ListCurricula(context.Background(), opts)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, cur := range page.Curricula {
			fmt.Printf("page %d: %-15s %-9s %s\n", page.Page, cur.ID, cur.Shape, cur.Name)
		}
		seen += len(page.Curricula)
		if len(page.Curricula) == 0 || seen >= page.TotalCount {
			break
		}
	}
	// Output:
	// page 1: 101             full      Algebra 1
	// page 1: 111             full      Texas
	// page 1: 112             full      Houston ISD
	// page 2: 113             full      California
	// page 2: curriculum_201  alternate Introduction to Computer Science
	// page 2: curriculum_211  alternate AP Computer Science Principles
	// page 3: curriculum_212  alternate Summer Intensive
}

// Errors are classified with errors.Is, and carry the details of the
// answer for errors.As. Messages name the request, never the token.
func ExampleError() {
	srv := sandboxServer(sandbox.Options{})
	defer srv.Close()

	expired, _ := api.New(srv.URL, "sandbox-expired-token")
	_, _, err := expired.Me(context.Background())
	fmt.Println(errors.Is(err, api.ErrUnauthorized), err)

	c, _ := api.New(srv.URL, "sandbox-riverbend-token")
	_, _, err = c.Resolved(context.Background(), "101", api.ResolveOptions{Locale: "fr"})
	var apiErr *api.Error
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Code, apiErr.Details["available"])
	}
	fmt.Println(errors.Is(err, api.ErrNotFound), api.Retryable(err))
	// Output:
	// true GET /api/v1/me: 401 unauthorized: token expired
	// 404 not_found [en es ar ja]
	// true false
}

// Retryable tells passing trouble (rate limits, server errors, a proxy's
// page, a lost connection) from errors a retry cannot fix.
func ExampleRetryable() {
	faults, _ := sandbox.ParseFaults("503=1:2s")
	srv := sandboxServer(sandbox.Options{Faults: faults})
	defer srv.Close()
	c, _ := api.New(srv.URL, "sandbox-riverbend-token")

	_, _, err := c.Me(context.Background())
	var apiErr *api.Error
	if api.Retryable(err) && errors.As(err, &apiErr) && apiErr.HasRetryAfter {
		fmt.Println("retry in", apiErr.RetryAfter, "after:", err)
	}
	// Output:
	// retry in 2s after: GET /api/v1/me: 503 service_unavailable: injected fault: 503 (retry after 2s)
}

// memoryCache is the smallest api.Cache: a map (not safe for concurrent
// use).
type memoryCache map[string][2]string

func (m memoryCache) Get(key string) (string, []byte, bool) {
	e, ok := m[key]
	return e[0], []byte(e[1]), ok
}

func (m memoryCache) Put(key, etag string, body []byte) error {
	m[key] = [2]string{etag, string(body)}
	return nil
}

// With a Cache, asking again for unchanged content costs a 304 and no body.
func ExampleWithCache() {
	srv := sandboxServer(sandbox.Options{})
	defer srv.Close()
	c, _ := api.New(srv.URL, "sandbox-riverbend-token", api.WithCache(memoryCache{}))

	for range 2 {
		d, resp, err := c.Curriculum(context.Background(), "curriculum_201")
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(resp.StatusCode, resp.NotModified, d.Curriculum.Name, len(d.RootNodes), "root nodes")
	}
	// Output:
	// 200 false Introduction to Computer Science 4 root nodes
	// 304 true Introduction to Computer Science 4 root nodes
}

// New refuses to send a token in clear text to another machine, with an
// error matching ErrPlainHTTP, unless WithAllowHTTP is given.
func ExampleNew() {
	_, err := api.New("http://curriculum.example.org", "secret")
	fmt.Println(err)
	fmt.Println(errors.Is(err, api.ErrPlainHTTP))
	_, err = api.New("http://curriculum.example.org", "secret", api.WithAllowHTTP())
	fmt.Println(err)
	c, err := api.New("https://curriculum.example.org/api/v1/", "secret")
	fmt.Println(c.BaseURL(), err)
	// Output:
	// api: base URL http://curriculum.example.org is not HTTPS: the token would travel unencrypted to a host that is not a loopback address; use https://, or allow plain HTTP on a network you trust
	// true
	// <nil>
	// https://curriculum.example.org <nil>
}
