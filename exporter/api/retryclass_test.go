package api_test

import (
	"bufio"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strconv"
	"syscall"
	"testing"

	"github.com/curex/curex/exporter/api"
)

// TestCacheWriteErrorIsNotRetried: a full disk under the ETag cache is no
// transport error. syscall.Errno implements net.Error, so the write error
// of a full disk used to be retried like a lost connection (Retryable
// true), each attempt another request for a body that cannot be stored.
func TestCacheWriteErrorIsNotRetried(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOSPC, syscall.EACCES, syscall.EIO} {
		t.Run(errno.Error(), func(t *testing.T) {
			cache := newMemCache()
			cache.putErr = &fs.PathError{Op: "write", Path: "/cache/ab/abcdef", Err: errno}
			c, _ := setup(t, tinyDataset(t), tokA, api.WithCache(cache))
			_, _, err := c.Me(ctx(t))
			if !errors.Is(err, errno) || !errors.Is(err, api.ErrCache) {
				t.Fatalf("Me = %v, want the cache error, matching ErrCache", err)
			}
			if api.Retryable(err) {
				t.Errorf("Retryable(%v) = true, want false", err)
			}
		})
	}
}

// TestCompleteBodyDecodeErrorIsNotRetried: a 200 body that arrived whole
// (as long as its Content-Length, or chunked to the last chunk) and does
// not decode comes back the same when asked again: not retried. A body
// delimited only by the connection's close may have been cut: retried.
func TestCompleteBodyDecodeErrorIsNotRetried(t *testing.T) {
	const bad = `{"data": {"id": "u1", "type": "user", "attrib`
	tests := []struct {
		name      string
		h         http.HandlerFunc
		retryable bool
	}{
		{"content-length", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(len(bad)))
			_, _ = w.Write([]byte(bad))
		}, false},
		{"html page with content-length", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<!DOCTYPE html><p>Service unavailable</p>"))
		}, false},
		{"chunked", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(bad[:10]))
			w.(http.Flusher).Flush()
			_, _ = w.Write([]byte(bad[10:]))
		}, false},
		{"closed connection", func(w http.ResponseWriter, r *http.Request) {
			conn, rw, err := w.(http.Hijacker).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			_, _ = rw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n" + bad)
			_ = rw.Flush()
			_ = bufio.NewWriter(conn).Flush()
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.h)
			t.Cleanup(srv.Close)
			c := newClient(t, srv.URL, tokA)
			_, _, err := c.Me(ctx(t))
			var de *api.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("Me = %v, want a *DecodeError", err)
			}
			if got := api.Retryable(err); got != tt.retryable {
				t.Errorf("Retryable(%v) = %v, want %v", err, got, tt.retryable)
			}
		})
	}
}
