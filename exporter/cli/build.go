package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/api"
)

func newBuildCommand(g *globals) *cobra.Command {
	f := &exportFlags{}
	var cacheDir string
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Re-render the output from the local cache, with no API request",
		Long: `build writes the output again from the ETag cache of earlier exports, with no
API request and no token: after a theme change, to add a format, or with a
fixed template. It selects, plans and renders exactly as export does, as if
nothing had changed upstream. When the cache lacks a tree the plan needs,
build names it, writes nothing and exits 1.`,
		Example: `  curex build --cache-dir .cache --theme mytheme --output site/
  curex build --formats json --variants base`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var c exporter.Config
			if err := f.outputConfig(g, &c); err != nil {
				return err
			}
			c.CacheDir = cacheDir
			c.Generator = generator()
			target, err := f.outputTarget(cmd.Context(), &c)
			if err != nil {
				return err
			}
			sum, err := exporter.Build(cmd.Context(), c)
			if err != nil {
				return runError(err)
			}
			g.summarize(c.Output, sum, false)
			printBuildSummary(g, c.Output, cacheDir, sum)
			return f.publishTo(cmd.Context(), g, target, c.Output, sum)
		},
	}
	f.registerOutput(cmd)
	// Build reads its trees from the cache: the flags export shares with
	// it say so.
	cmd.Flags().Lookup("concurrency").Usage = fmt.Sprintf("trees read from the cache at once, 1 to %d", maxConcurrency)
	cmd.Flags().Lookup("curriculum").Usage = "base curricula to build, by id or by the slug of their folder, comma-separated or repeated (default all in the cache)"
	cmd.Flags().Lookup("assets").Usage = "content images: local (the default: copied from the cache under assets/content/, so pages work offline) or remote (loaded from their URLs) (env CUREX_ASSETS)"
	f.pub.register(cmd, true)
	registerConfig(cmd)
	registerSummaryJSON(cmd, g)
	cmd.Flags().StringVar(&cacheDir, "cache-dir", defaultCacheDir(), "the ETag cache an earlier export filled")
	return cmd
}

// printPDFs says how many handbooks were printed and how many came from
// the cache, when the run made PDFs.
func printPDFs(g *globals, s *exporter.Summary) {
	if n := s.PDFsPrinted + s.PDFsReused; n > 0 {
		fmt.Fprintf(g.stdout, "PDFs %d: %d printed, %d printed before from the same handbook (cache)\n", n, s.PDFsPrinted, s.PDFsReused)
	}
}

func printBuildSummary(g *globals, out, cache string, s *exporter.Summary) {
	if g.quiet {
		g.quietFailures(s)
		return
	}
	fmt.Fprintf(g.stdout, "built %d of %d trees from the cache %s into %s in %s: no API request; %d rendered, %d unchanged; files: %d written, %d unchanged\n",
		s.Written+s.Reused, s.Planned, cache, out, s.Duration.Round(time.Millisecond), s.Written, s.Reused, s.FilesWritten, s.FilesUnchanged)
	printPDFs(g, s)
	for _, sk := range s.Skipped {
		fmt.Fprintf(g.stdout, "skipped %s: %s\n", sk.Export.Dir(), api.Printable(g.describeSkip(sk.Reason, sk.Setting)))
	}
}
