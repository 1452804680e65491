package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render"
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
		site               siteFlags
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
			id, err := site.identity(g, cmd)
			if err != nil {
				return err
			}
			if err := runDemo(cmd.Context(), g, out, splitList(formats), cmd.Flags().Changed("formats"), id); err != nil {
				return err
			}
			if !serveIt {
				return nil
			}
			return serveSite(cmd.Context(), g, out, addr, cmd.Flags().Changed("addr"), id.Origins())
		},
	}
	cmd.Flags().StringVar(&out, "output", "output", "output folder")
	cmd.Flags().BoolVar(&serveIt, "serve", false, "serve the output folder over HTTP after the export")
	cmd.Flags().StringVar(&addr, "addr", defaultServeAddr, "address --serve listens on (host:port)")
	cmd.Flags().StringVar(&formats, "formats", "", "comma-separated formats, as for export (default: "+strings.Join(exporter.DefaultFormats(), ",")+", and pdf when Chromium is found)")
	// The site's identity comes from the same settings, and the same
	// configuration file, as export's; the file's other settings (a
	// theme, hidden attributes, the API's address) demo does not take,
	// and says so.
	site.register(cmd)
	registerConfig(cmd)
	warnLeftOut(cmd)
	return cmd
}

// runDemo exports the sample into out: in formats when chosen (given
// true), else in the default formats and the PDF when Chromium is found;
// site is the publisher's identity, as export takes it.
func runDemo(ctx context.Context, g *globals, out string, formats []string, chosen bool, site render.Identity) error {
	if chosen && len(formats) == 0 {
		return usageErr(fmt.Errorf("--formats: want at least one format"))
	}
	log, err := g.logger()
	if err != nil {
		return err
	}
	// What demo says besides errors; --quiet silences it.
	var say io.Writer = g.stdout
	if g.quiet {
		say = io.Discard
	}
	prog, err := g.progressFor("plain")
	if err != nil {
		return err
	}
	srv, err := startSample(log)
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintf(say, "sandbox with the sample curricula at %s\n", srv.URL)
	cache, err := os.MkdirTemp("", "curex-demo-cache-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(cache)
	if !chosen {
		formats = demoFormats(say, exporter.Formats())
	}
	date, err := sourceDateEpoch()
	if err != nil {
		return usageErr(err)
	}
	sum, err := exporter.Run(ctx, exporter.Config{
		BaseURL: srv.URL, Token: demoToken, Output: out, CacheDir: cache, Formats: formats,
		Limits: ratelimit.Default(), Generator: generator(), Log: log, SourceDate: date, Site: site,
		// The sample's images come from the sandbox, on loopback: that
		// one address is let through, no other private one.
		AssetHosts: []string{srv.Addr().String()},
		Progress:   prog,
	})
	if err != nil {
		return runError(err) // a refused output folder is exit 2, as for export
	}
	printSummary(g, out, sum)
	sayWhere(say, exporter.Formats(), out, formats)
	if sum.Partial() {
		return &exitError{code: exitPartial, err: fmt.Errorf("%d of %d exports failed", len(sum.Failures), sum.Planned)}
	}
	return nil
}

// startSample starts the sandbox with the sample curricula on a free
// loopback port.
func startSample(log *slog.Logger) (*sandbox.Server, error) {
	ds, err := dataset.Sample()
	if err != nil {
		return nil, err
	}
	h, err := sandbox.New(ds, sandbox.Options{Logger: log})
	if err != nil {
		return nil, err
	}
	return sandbox.Listen("127.0.0.1:0", h)
}

// demoFormats are the demo's formats when none are chosen: the default
// formats of reg, and those whose Probe finds what they need on this
// machine (the PDF: Chromium); say tells what is missing for the others.
func demoFormats(say io.Writer, reg *render.Registry) []string {
	formats := reg.Defaults()
	for _, name := range reg.Probed(func(name string, err error) { fmt.Fprintf(say, "no %s: %v\n", name, err) }) {
		if !slices.Contains(formats, name) {
			formats = append(formats, name)
		}
	}
	return formats
}

// sayWhere tells where the files of formats are in out, as the registry
// says (Format.Path of every export, its folders as placeholders): the
// site's home page when a site format was written, each format's files,
// and the manifest.
func sayWhere(say io.Writer, reg *render.Registry, out string, formats []string) {
	abs, err := filepath.Abs(out)
	if err != nil {
		abs = out
	}
	each := model.Export{CurriculumSlug: "<curriculum>", VariantSlug: "<variant>", LocaleSlug: "<locale>"}
	fmt.Fprintln(say)
	for _, f := range reg.Formats() {
		if f.NewSite != nil && slices.Contains(formats, f.Name) {
			fmt.Fprintf(say, "Open the site:  file://%s\n", filepath.ToSlash(filepath.Join(abs, layout.Home)))
		}
	}
	fmt.Fprintln(say, "Each export's files, by format:")
	for _, f := range reg.Formats() {
		if f.Path != nil && slices.Contains(formats, f.Name) {
			fmt.Fprintf(say, "  %-13s %s\n", f.Name+":", filepath.Join(abs, filepath.FromSlash(f.Path(each))))
		}
	}
	fmt.Fprintf(say, "Preview:        curex serve %s\n", out)
	fmt.Fprintf(say, "Manifest:       %s\n", filepath.Join(abs, layout.Manifest))
}
