package sandboxtest

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
)

// Transport is an http.RoundTripper that hands each request straight to a
// Handler, with no socket. Tests in a testing/synctest bubble use it, since
// loopback sockets would stall the bubble's virtual clock. Faults behave as
// on a real connection: a cut body ends with io.ErrUnexpectedEOF.
type Transport struct {
	Handler http.Handler
}

// RoundTrip serves req and returns the response.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		defer req.Body.Close()
	}
	rec := httptest.NewRecorder()
	aborted := serve(t.Handler, rec, req)
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	if aborted && !rec.Flushed && rec.Body.Len() == 0 {
		return nil, io.ErrUnexpectedEOF // connection closed before any response
	}
	resp := rec.Result()
	resp.Request = req
	if req.Method == http.MethodHead {
		// As over a connection: a HEAD response has no body, whatever the
		// handler wrote (the recorder keeps what a server would drop).
		resp.Body = http.NoBody
		return resp, nil
	}
	if aborted {
		resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(rec.Body.Bytes()), errReader{io.ErrUnexpectedEOF}))
	}
	return resp, nil
}

// serve runs h and reports whether it aborted the connection.
func serve(h http.Handler, w http.ResponseWriter, r *http.Request) (aborted bool) {
	defer func() {
		if v := recover(); v != nil {
			if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
				aborted = true
				return
			}
			panic(v)
		}
	}()
	h.ServeHTTP(w, r)
	return false
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
