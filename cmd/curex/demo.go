package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/chrome"
	"github.com/curex/curex/exporter/layout"
	"github.com/curex/curex/exporter/progress"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// demoToken is the sample dataset's publisher token.
const demoToken = "sandbox-riverbend-token"

func newDemoCommand(g *globals) *cobra.Command {
	var (
		out, addr, formats string
		serveIt            bool
	)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Start the sandbox with the sample curricula and export them into output/",
		Long: `demo starts the sandbox with the sample curricula on a free loopback port,
exports the website and bundles into the output folder, and says where to
open them. With --serve it then serves the folder over HTTP until
interrupted. --formats chooses the formats as for export (the default:
the website, the bundles, the handbook and, with Chromium, its PDF).`,
		Example: `  curex demo
  curex demo --formats html,json,markdown,handbook,pdf,cartridge
  curex demo --formats html,handbook,epub
  curex demo --serve --addr 127.0.0.1:8080`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := runDemo(cmd.Context(), g, out, splitList(formats), cmd.Flags().Changed("formats")); err != nil {
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
	cmd.Flags().StringVar(&formats, "formats", "", "comma-separated formats, as for export (default: "+strings.Join(exporter.DefaultFormats(), ",")+", and pdf when Chromium is found)")
	return cmd
}

// runDemo exports the sample into out: in formats when chosen (given
// true), else in the default formats and the PDF when Chromium is found.
func runDemo(ctx context.Context, g *globals, out string, formats []string, chosen bool) error {
	if chosen && len(formats) == 0 {
		return usageErr(fmt.Errorf("--formats: want at least one format"))
	}
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
	if !chosen {
		formats = exporter.DefaultFormats()
		if _, err := chrome.Find(""); err == nil {
			formats = append(formats, "pdf")
		} else {
			fmt.Fprintln(g.stdout, "no Chromium found: handbooks are exported as HTML only (apt-get install chromium adds PDF)")
		}
	}
	date, err := sourceDateEpoch()
	if err != nil {
		return usageErr(err)
	}
	sum, err := exporter.Run(ctx, exporter.Config{
		BaseURL: srv.URL, Token: demoToken, Output: out, CacheDir: cache, Formats: formats,
		Limits: ratelimit.Default(), Generator: generator(), Log: log, SourceDate: date,
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
	has := func(f ...string) bool {
		return slices.ContainsFunc(formats, func(x string) bool { return slices.Contains(f, x) })
	}
	fmt.Fprintln(g.stdout)
	if has("html") {
		fmt.Fprintf(g.stdout, "Open the site:  file://%s\n", filepath.ToSlash(filepath.Join(abs, "index.html")))
	}
	each := filepath.Join(abs, "<curriculum>", "<variant>", "<locale>")
	bundles := filepath.Join(abs, "bundles", "<curriculum>", "<variant>", "<locale>")
	if has("handbook", "pdf") {
		fmt.Fprintf(g.stdout, "Handbooks:      %s\n", filepath.Join(each, "handbook.html (.pdf)"))
	}
	if has("json", "markdown") {
		fmt.Fprintf(g.stdout, "Bundles:        %s\n", filepath.Join(bundles, "tree.json, markdown/, markdown.zip"))
	}
	if has("cartridge") {
		fmt.Fprintf(g.stdout, "Cartridges:     %s\n", filepath.Join(bundles, layout.CartridgeFile+" (IMS Common Cartridge: import into Canvas, Moodle, ...)"))
	}
	if has("epub") {
		fmt.Fprintf(g.stdout, "E-books:        %s\n", filepath.Join(each, "<curriculum>-<variant>-<locale>"+layout.EPUBExt+" (EPUB 3: open in an e-reader)"))
	}
	fmt.Fprintf(g.stdout, "Preview:        curex serve %s\n", out)
	fmt.Fprintf(g.stdout, "Manifest:       %s\n", filepath.Join(abs, "manifest.json"))
	if sum.Partial() {
		return &exitError{code: exitPartial, err: fmt.Errorf("%d of %d exports failed", len(sum.Failures), sum.Planned)}
	}
	return nil
}
