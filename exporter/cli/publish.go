package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/publish"
)

// publishFlags are the flags of curex publish; curex export --output URL
// shares most of them (see register).
type publishFlags struct {
	dryRun          bool
	force           bool
	allowMassDelete bool
	gzip            bool
	concurrency     int
	concurrencyFlag string // the flag's name, for messages
}

// register adds the publish flags to cmd. For curex export (forExport),
// --dry-run and --force are left out and the upload concurrency is
// --publish-concurrency, since export's --concurrency counts fetches.
func (f *publishFlags) register(cmd *cobra.Command, forExport bool) {
	fl := cmd.Flags()
	f.concurrencyFlag = "concurrency"
	if forExport {
		f.concurrencyFlag = "publish-concurrency"
	} else {
		fl.BoolVar(&f.dryRun, "dry-run", false, "print what would be uploaded and deleted, and change nothing")
		fl.BoolVar(&f.force, "force", false, "upload every file, changed or not (to renew headers)")
	}
	fl.BoolVar(&f.allowMassDelete, "allow-mass-delete", false,
		fmt.Sprintf("allow deleting more than %d objects and more than a quarter of those under the prefix", publish.MassDeleteMin))
	fl.BoolVar(&f.gzip, "gzip", false, "store text files (html, css, js, json, xml, svg, md, txt) gzip-compressed with Content-Encoding: gzip")
	fl.IntVar(&f.concurrency, f.concurrencyFlag, publish.DefaultConcurrency, "uploads and deletions at once")
	// publish's --concurrency is the setting publish_concurrency: a
	// curex.yaml's concurrency (of fetches) is not for it.
	_ = fl.SetAnnotation(f.concurrencyFlag, settingAnnotation, []string{"publish_concurrency"})
}

func newPublishCommand(g *globals) *cobra.Command {
	f := &publishFlags{}
	cmd := &cobra.Command{
		Use:   "publish DIR URL",
		Short: "Sync a built output folder to object storage",
		Long: `publish copies an output folder built by curex export, build or demo to a
bucket: it uploads only the files whose content changed (by size and MD5, or
the SHA-256 recorded at upload), with Content-Type and Cache-Control per kind
of file, writes manifest.json last, and then deletes the objects under the
prefix that the folder no longer has. A failed or interrupted publish deletes
nothing and leaves the previous manifest.json; publishing again converges.

URLs: s3://BUCKET/PREFIX?region=REGION (AWS), with endpoint=URL&use_path_style=true
(and disable_https=true for plain HTTP) for S3-compatible servers;
file:///FOLDER?prefix=PREFIX; mem:// (for trying). Credentials come from the
environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ...).

Exit codes: 0 published; 1 failed (a publish stopped midway can be run
again); 2 usage or configuration error: bad URL or unsupported scheme,
missing folder or not a curex output folder, or a deletion refused by the
guard (--allow-mass-delete lifts it). Nothing is written in the bucket then.`,
		Example: `  curex publish output s3://my-site/www?region=eu-west-1
  curex publish --dry-run output s3://my-site/www?region=eu-west-1
  curex publish output 's3://site?endpoint=http://127.0.0.1:7070&region=us-east-1&use_path_style=true&disable_https=true'
  curex publish --gzip output file:///srv/www`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usageErr(fmt.Errorf("%s: want a folder and a bucket URL (see '%s --help')", cmd.CommandPath(), cmd.CommandPath()))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return publishFolder(cmd.Context(), g, args[0], args[1], f)
		},
	}
	f.register(cmd, false)
	registerSummaryJSON(cmd, g)
	registerConfig(cmd)
	return cmd
}

// publishFolder publishes dir to rawURL and prints the plan (dry run) or a
// summary line on standard output. curex export --output URL calls it
// after writing its output to publishStagingDir.
func publishFolder(ctx context.Context, g *globals, dir, rawURL string, f *publishFlags, keep ...string) error {
	log, err := g.logger()
	if err != nil {
		return err
	}
	if err := f.check(ctx, rawURL); err != nil {
		return err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		if err == nil {
			err = errors.New("not a folder")
		}
		return usageErr(fmt.Errorf("publish %s: %w", dir, err))
	}
	res, err := publish.Publish(ctx, dir, rawURL, publish.Options{
		Concurrency:     f.concurrency,
		DryRun:          f.dryRun,
		Force:           f.force,
		AllowMassDelete: f.allowMassDelete,
		Gzip:            f.gzip,
		Log:             log,
		Keep:            keep,
		Types:           exporter.Formats().MediaTypes(),
	})
	if res != nil && f.dryRun {
		if perr := res.Plan.Print(g.stdout, 0); perr != nil {
			return perr
		}
	}
	if res != nil {
		g.summarizePublish(dir, res)
	}
	if err != nil {
		if res != nil && res.Uploaded+res.Deleted > 0 {
			err = &publishCut{target: res.Target, uploaded: res.Uploaded, deleted: res.Deleted, err: err}
		}
		return publishError(err)
	}
	if g.quiet {
		return nil
	}
	verb := "published"
	if res.DryRun {
		verb = "would publish"
	}
	fmt.Fprintf(g.stdout, "%s %s to %s: %s\n", verb, dir, res.Target, res.Summary())
	return nil
}

// publishCut is a publish that stopped after changing the target: some
// objects were uploaded (or deleted) and others not, so the target is no
// longer the previous output. The interrupted message says so instead of
// "previous output untouched".
type publishCut struct {
	target            string
	uploaded, deleted int
	err               error
}

func (e *publishCut) Error() string { return e.err.Error() }

func (e *publishCut) Unwrap() error { return e.err }

// interruptedMessage says what an interrupted publish left at its target.
func (e *publishCut) interruptedMessage() string {
	return fmt.Sprintf("interrupted while publishing: %d objects uploaded and %d deleted at %s before the stop, its manifest.json not yet replaced; publish again to finish",
		e.uploaded, e.deleted, e.target)
}

// check validates the flags and the URL before any work: curex export
// calls it before fetching anything.
func (f *publishFlags) check(ctx context.Context, rawURL string) error {
	if f.concurrency < 1 {
		return usageErr(fmt.Errorf("--%s %d: want 1 or more", f.concurrencyFlag, f.concurrency))
	}
	if err := publish.CheckURL(ctx, rawURL); err != nil {
		return usageErr(err)
	}
	return nil
}

// publishError maps an error of publish.Publish to its exit code: the
// inputs at fault (nothing written) exit 2, the rest 1.
func publishError(err error) error {
	switch {
	case errors.Is(err, publish.ErrMassDelete):
		return usageErr(fmt.Errorf("%w; pass --allow-mass-delete to allow it", err))
	case errors.Is(err, publish.ErrBadURL), errors.Is(err, output.ErrNotOutput),
		errors.Is(err, publish.ErrUnsafePath), errors.Is(err, publish.ErrIncomplete):
		return usageErr(err)
	}
	return err
}

// publishStagingDir is the local folder curex export --output URL builds
// into before publishing: one per bucket and prefix (the URL without its
// query) under the cache folder, so that the next run renders
// incrementally and keeps the previous version of exports that failed to
// fetch.
func publishStagingDir(cacheDir, rawURL string) string {
	sum := sha256.Sum256([]byte(publish.Redact(rawURL)))
	return layout.Cache(cacheDir).Staging(hex.EncodeToString(sum[:8]))
}
