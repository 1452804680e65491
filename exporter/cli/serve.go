package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/serve"
)

// defaultServeAddr is where `curex serve` listens unless told otherwise; when
// it is taken, a free port on the same interface is used.
const defaultServeAddr = "127.0.0.1:8000"

func newServeCommand(g *globals) *cobra.Command {
	var (
		addr    string
		scripts []string
	)
	cmd := &cobra.Command{
		Use:   "serve DIR",
		Short: "Preview a built site over HTTP",
		Long: `serve previews a site built by curex export, curex build or curex demo over
HTTP on loopback, with the content types and headers a host should send,
until interrupted (Ctrl-C).`,
		Example: "  curex serve output\n  curex serve --addr 127.0.0.1:9000 output",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr(fmt.Errorf("%s: want one folder (see '%s --help')", cmd.CommandPath(), cmd.CommandPath()))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			origins, err := scriptOrigins(cmd, scripts)
			if err != nil {
				return err
			}
			return serveSite(cmd.Context(), g, args[0], addr, cmd.Flags().Changed("addr"), origins)
		},
	}
	cmd.Flags().StringVar(&addr, "addr", defaultServeAddr, "address to listen on (host:port)")
	// The publisher's scripts (site_scripts) widen the pages' policy as a
	// host serving the site should.
	cmd.Flags().StringSliceVar(&scripts, "site-script", nil, "https URL of a script the pages load (analytics): its origin joins the Content-Security-Policy; repeatable (env CUREX_SITE_SCRIPTS)")
	// Serve reads a file of settings only when the operator names it: a
	// curex.yaml found in the folder served from is not asked what the
	// preview's policy allows.
	registerNamedConfig(cmd)
	return cmd
}

// serveSite serves dir until ctx ends, its pages with the site's policy
// widened to the publisher's script origins. When addr was not chosen by
// the user and is busy, a free port is taken instead.
func serveSite(ctx context.Context, g *globals, dir, addr string, chosen bool, origins []string) error {
	h, err := serve.New(dir, serve.Options{ScriptOrigins: origins, Types: exporter.Formats().MediaTypes()})
	if err != nil {
		return usageErr(err) // a missing folder or one with no site in it
	}
	defer h.Close()
	return listenAndServe(ctx, g, dir, addr, chosen, h, nil)
}

// listenAndServe serves h on addr (a free port on its interface when addr
// was not chosen and is busy) until ctx ends, saying where; onShutdown,
// when set, runs as the server shuts down (to end streams that would
// keep it waiting).
func listenAndServe(ctx context.Context, g *globals, dir, addr string, chosen bool, h http.Handler, onShutdown func()) error {
	log, err := g.logger()
	if err != nil {
		return err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil && !chosen && errors.Is(err, syscall.EADDRINUSE) {
		host, _, _ := net.SplitHostPort(addr)
		ln, err = lc.Listen(ctx, "tcp", net.JoinHostPort(host, "0"))
	}
	if err != nil {
		return usageErr(fmt.Errorf("--addr %s: %w", addr, err))
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: nil}
	if onShutdown != nil {
		srv.RegisterOnShutdown(onShutdown)
	}
	fmt.Fprintf(g.stdout, "Serving %s at http://%s/ (Ctrl-C stops)\n", dir, ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve %s: %w", dir, err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	log.Debug("serve: shutting down")
	return srv.Shutdown(shutdown)
}
