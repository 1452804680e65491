//go:build !nopublish

package publish

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// clearAzureEnv removes every environment variable the azblob driver reads
// for an account or credentials.
func clearAzureEnv(t *testing.T) {
	for _, k := range []string{"AZURE_STORAGE_ACCOUNT", "AZURE_STORAGE_KEY", "AZURE_STORAGE_SAS_TOKEN",
		"AZURE_STORAGE_CONNECTION_STRING", "AZURE_STORAGEBLOB_CONNECTIONSTRING", "AZURE_STORAGE_DOMAIN",
		"AZURE_STORAGE_PROTOCOL", "AZURE_STORAGE_IS_CDN", "AZURE_STORAGE_IS_LOCAL_EMULATOR"} {
		t.Setenv(k, "")
	}
}

// TestAzblobWithoutAccount: with no storage account in the environment or
// the URL, publishing fails at once, before any request, naming what to
// set; nothing reaches the network.
func TestAzblobWithoutAccount(t *testing.T) {
	clearAzureEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := Publish(ctx, writeSite(t, defaultSpec().files()), "azblob://site/www?domain=blob.core.windows.net", Options{})
	if !errors.Is(err, ErrNoCredentials) {
		t.Fatalf("err %v, want ErrNoCredentials", err)
	}
	t.Log(err)
	for _, words := range []string{"azblob://site/www", "AZURE_STORAGE_ACCOUNT", "AZURE_STORAGE_KEY", "?storage_account="} {
		if !strings.Contains(err.Error(), words) {
			t.Errorf("error %q does not mention %s", err, words)
		}
	}
	// No bound on the time it took: a loaded machine makes any bound
	// flaky. "Before any request" is the error itself: a request would
	// have failed otherwise (no such host, or the context's deadline, a
	// safety net only).
}

// TestAzblobURLReachesTheNamedEndpoint publishes to an azblob:// URL whose
// endpoint is a loopback server answering 403 like Azure does for a wrong
// key: the container, prefix and account of the URL reach the request,
// signed with the shared key from the environment, and the publish fails
// with the server's error code, without retrying, well within its context.
//
// gocloud's azblob opener reads the environment once per process, at the
// first open: this is the only test that gets that far.
func TestAzblobURLReachesTheNamedEndpoint(t *testing.T) {
	clearAzureEnv(t)
	t.Setenv("AZURE_STORAGE_ACCOUNT", "devstoreaccount1")
	t.Setenv("AZURE_STORAGE_KEY", "bm90LWEtcmVhbC1rZXk=") // base64 of "not-a-real-key"
	var mu sync.Mutex
	var got []*http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Clone(context.Background()))
		mu.Unlock()
		w.Header().Set("x-ms-error-code", "AuthenticationFailed")
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthenticationFailed</Code>` +
			`<Message>Server failed to authenticate the request.</Message></Error>`))
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	raw := "azblob://site/www?localemu=true&protocol=http&domain=" + url.QueryEscape(host)
	_, err := Publish(ctx, writeSite(t, defaultSpec().files()), raw, Options{})
	if err == nil || !strings.Contains(err.Error(), "AuthenticationFailed") {
		t.Fatalf("err %v, want the server's AuthenticationFailed", err)
	}
	t.Log(err)
	if strings.Contains(err.Error(), "bm90LWEtcmVhbC1rZXk") || strings.Contains(err.Error(), host+"?") {
		t.Errorf("error shows the key or the URL's query: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 {
		t.Fatalf("%d requests, want one list request and no retry", len(got))
	}
	r := got[0]
	q := r.URL.Query()
	if r.URL.Path != "/devstoreaccount1/site" || q.Get("restype") != "container" || q.Get("comp") != "list" || q.Get("prefix") != "www/" {
		t.Errorf("request %s %s, want a listing of container site under www/", r.Method, r.URL)
	}
	if a := r.Header.Get("Authorization"); !strings.HasPrefix(a, "SharedKey devstoreaccount1:") {
		t.Errorf("Authorization %q, want a shared key signature", a)
	}
}
