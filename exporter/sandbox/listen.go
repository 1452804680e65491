package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Server is a Handler listening on a TCP address.
type Server struct {
	// URL is the base address, such as http://127.0.0.1:8080; API paths
	// (/api/v1/...) go after it.
	URL string
	srv *http.Server
	ln  net.Listener
}

// Listen starts serving h on addr ("127.0.0.1:0" picks a free port) and
// returns once the socket is listening.
func Listen(addr string, h http.Handler) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("sandbox: listen on %s: %w", addr, err)
	}
	s := &Server{
		URL: "http://" + ln.Addr().String(),
		ln:  ln,
		srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second},
	}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Addr returns the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Shutdown stops the server, letting requests under way finish until ctx
// ends.
func (s *Server) Shutdown(ctx context.Context) error {
	if err := s.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("sandbox: shutdown: %w", err)
	}
	return nil
}

// Close stops the server at once.
func (s *Server) Close() error { return s.srv.Close() }
