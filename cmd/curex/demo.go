package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/chrome"
	"github.com/curex/curex/exporter/progress"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// demoToken is the sample dataset's publisher token.
const demoToken = "sandbox-riverbend-token"

func newDemoCommand(g *globals) *cobra.Command {
	var (
		out, addr string
		serveIt   bool
	)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Start the sandbox with the sample curricula and export them into output/",
		Long: `demo starts the sandbox with the sample curricula on a free loopback port,
exports the website and bundles into the output folder, and says where to
open them. With --serve it then serves the folder over HTTP until
interrupted.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := runDemo(cmd.Context(), g, out); err != nil {
				return err
			}
			if !serveIt {
				return nil
			}
			return serveSite(cmd.Context(), g, out, addr, cmd.Flags().Changed("addr"))
		},
	}
	cmd.Flags().StringVar(&out, "output", "output", "output folder")
	cmd.Flags().BoolVar(&serveIt, "serve", false, "serve the output folder over HTTP after the export")
	cmd.Flags().StringVar(&addr, "addr", defaultServeAddr, "address --serve listens on (host:port)")
	return cmd
}

func runDemo(ctx context.Context, g *globals, out string) error {
	log, err := g.logger()
	if err != nil {
		return err
	}
	ds, err := dataset.Sample()
	if err != nil {
		return err
	}
	h, err := sandbox.New(ds, sandbox.Options{Logger: log})
	if err != nil {
		return err
	}
	srv, err := sandbox.Listen("127.0.0.1:0", h)
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintf(g.stdout, "sandbox with the sample curricula at %s\n", srv.URL)

	cache, err := os.MkdirTemp("", "curex-demo-cache-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(cache)
	formats := exporter.DefaultFormats()
	if _, err := chrome.Find(""); err == nil {
		formats = append(formats, "pdf")
	} else {
		fmt.Fprintln(g.stdout, "no Chromium found: handbooks are exported as HTML only (apt-get install chromium adds PDF)")
	}
	date, err := sourceDateEpoch()
	if err != nil {
		return usageErr(err)
	}
	sum, err := exporter.Run(ctx, exporter.Config{
		BaseURL: srv.URL, Token: demoToken, Output: out, CacheDir: cache, Formats: formats,
		Limits: ratelimit.Default(), Generator: "curex " + version, Log: log, SourceDate: date,
		// The sample's images come from the sandbox, on loopback: that
		// one address is let through, no other private one.
		AssetHosts: []string{srv.Addr().String()},
		Progress:   &progress.Lines{W: g.stderr, Every: 10 * time.Second, Describe: g.describe},
	})
	if err != nil {
		return runError(err) // a refused output folder is exit 2, as for export
	}
	printSummary(g, out, sum)
	abs, err := filepath.Abs(out)
	if err != nil {
		abs = out
	}
	fmt.Fprintf(g.stdout, "\nOpen the site:  file://%s\n", filepath.ToSlash(filepath.Join(abs, "index.html")))
	fmt.Fprintf(g.stdout, "Handbooks:      %s\n", filepath.Join(abs, "<curriculum>", "<variant>", "<locale>", "handbook.html (.pdf)"))
	fmt.Fprintf(g.stdout, "Bundles:        %s\n", filepath.Join(abs, "bundles", "<curriculum>", "<variant>", "<locale>", "tree.json, markdown/, markdown.zip"))
	fmt.Fprintf(g.stdout, "Preview:        curex serve %s\n", out)
	fmt.Fprintf(g.stdout, "Manifest:       %s\n", filepath.Join(abs, "manifest.json"))
	if sum.Partial() {
		return &exitError{code: exitPartial, err: fmt.Errorf("%d of %d exports failed", len(sum.Failures), sum.Planned)}
	}
	return nil
}
