package cli

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/progress"
	"github.com/curex/curex/exporter/internal/publish"
)

// This file holds what the CLI says besides a command's product, for
// people and for CI: the progress display, --quiet, the error line and
// --summary-json. Under --log-format json everything it writes on
// standard error is a log record, one JSON object a line.

// jsonLog reports whether --log-format json asks for records only on
// standard error.
func (g *globals) jsonLog() bool { return strings.EqualFold(g.logFormat, "json") }

// changed reports whether the running command's flag name was given (on
// the command line or by a configuration file).
func (g *globals) changed(name string) bool {
	if g.cmd == nil {
		return false
	}
	f := g.cmd.Flags().Lookup(name)
	return f != nil && f.Changed
}

// progressEvery is the least time between two lines (or records) of
// plain progress.
const progressEvery = 10 * time.Second

// progressFor returns the progress display --progress mode asks for:
// none under --quiet; log records under --log-format json; a bar redrawn
// in place only on a terminal that can redraw (not TERM=dumb), else
// lines. A nil Progress shows nothing.
func (g *globals) progressFor(mode string) (exporter.Progress, error) {
	if !slices.Contains(progressModes(), mode) {
		return nil, usageErr(fmt.Errorf("--progress %q: want %s", mode, oneOf(progressModes())))
	}
	if g.quiet || mode == "none" {
		return nil, nil
	}
	if g.jsonLog() {
		log, err := g.logger()
		if err != nil {
			return nil, err
		}
		return &progress.Records{Log: log, Every: progressEvery, Describe: g.describe}, nil
	}
	redraw := canRedraw(os.Getenv("TERM"))
	// A build reads every tree from the cache: its lines speak of no
	// request and no rate limit.
	fromCache := g.cmd != nil && g.cmd.Name() == "build"
	switch {
	case mode == "bar" && redraw:
		return &progress.Lines{W: g.stderr, Bar: true, Describe: g.describe, FromCache: fromCache}, nil
	case mode == "auto" && redraw && isTerminal(g.stderr):
		return &progress.Lines{W: g.stderr, Every: progressEvery, Bar: true, Describe: g.describe, FromCache: fromCache}, nil
	}
	return &progress.Lines{W: g.stderr, Every: progressEvery, Describe: g.describe, FromCache: fromCache}, nil
}

// canRedraw reports whether a terminal of type term moves the cursor
// (a carriage return and an erase): not "dumb" (Emacs shells, some CI
// consoles), which print each redraw as a new line of escape codes.
func canRedraw(term string) bool { return term != "dumb" }

// fail writes the line of a command that failed with exit code: prose
// ("curex: ..."), or a log record under --log-format json.
func (g *globals) fail(msg string, code int) {
	if g.jsonLog() {
		slog.New(slog.NewJSONHandler(g.stderr, nil)).Error(msg, "exit_code", code)
		return
	}
	fmt.Fprintf(g.stderr, "curex: %s\n", msg)
}

// summaryVersion is the version of the --summary-json shape; it changes
// only when a field changes meaning or goes away (docs/automation.md).
const summaryVersion = 1

// runSummary is the file --summary-json writes (docs/automation.md).
type runSummary struct {
	Version  int    `json:"version"`
	Command  string `json:"command"`
	ExitCode int    `json:"exit_code"`
	// Status is ok, partial, usage, interrupted or failed.
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	Output string `json:"output,omitempty"`
	// TokenOrigin is the origin (scheme://host[:port]) the run sent the
	// API token to, and BaseURLFrom how base_url was given ("--base-url",
	// "CUREX_BASE_URL", "curex.yaml:1: base_url"); absent when no token
	// was read.
	TokenOrigin     string          `json:"token_origin,omitempty"`
	BaseURLFrom     string          `json:"base_url_from,omitempty"`
	DurationSeconds float64         `json:"duration_seconds"`
	Trees           *treeCounts     `json:"trees,omitempty"`
	Requests        *requestCounts  `json:"requests,omitempty"`
	Schedule        *scheduleCounts `json:"schedule,omitempty"`
	Files           *fileCounts     `json:"files,omitempty"`
	PDFs            *pdfCounts      `json:"pdfs,omitempty"`
	Images          *imageCounts    `json:"images,omitempty"`
	MathErrors      int             `json:"math_errors"`
	Failures        []failedExport  `json:"failures"`
	Skipped         []skippedExport `json:"skipped"`
	Publish         *publishCounts  `json:"publish,omitempty"`
}

type treeCounts struct {
	Planned    int `json:"planned"`
	Written    int `json:"written"`
	Reused     int `json:"reused"`
	Failed     int `json:"failed"`
	Skipped    int `json:"skipped"`
	NotFetched int `json:"not_fetched"`
}

type requestCounts struct {
	Total           int64 `json:"total"`
	OK              int64 `json:"ok"`
	NotModified     int64 `json:"not_modified"`
	RateLimited     int64 `json:"rate_limited"`
	ServerErrors    int64 `json:"server_errors"`
	TransportErrors int64 `json:"transport_errors"`
	CutShort        int64 `json:"cut_short"`
	Retries         int64 `json:"retries"`
}

type scheduleCounts struct {
	Policy      string `json:"policy"`
	New         int    `json:"new"`
	Changed     int    `json:"changed"`
	Revalidated int    `json:"revalidated"`
	Unchanged   int    `json:"unchanged"`
}

type fileCounts struct {
	Total     int `json:"total"`
	Written   int `json:"written"`
	Unchanged int `json:"unchanged"`
}

type pdfCounts struct {
	Printed int `json:"printed"`
	Reused  int `json:"reused"`
}

type imageCounts struct {
	Fetched int `json:"fetched"`
	Reused  int `json:"reused"`
	Failed  int `json:"failed"`
}

type failedExport struct {
	Export       string `json:"export"`
	CurriculumID string `json:"curriculum_id"`
	Variant      string `json:"variant"`
	Locale       string `json:"locale"`
	Kept         bool   `json:"kept"`
	Error        string `json:"error"`
}

type skippedExport struct {
	Export  string `json:"export"`
	Setting string `json:"setting,omitempty"`
	Reason  string `json:"reason"`
}

type publishCounts struct {
	Target    string `json:"target"`
	DryRun    bool   `json:"dry_run"`
	Uploaded  int    `json:"uploaded"`
	Deleted   int    `json:"deleted"`
	Unchanged int    `json:"unchanged"`
	Bytes     int64  `json:"bytes"`
}

// summarize records what a run of export or build did, for --summary-json;
// fromAPI is false for a build, whose answers all came from the cache (it
// has no requests to count).
func (g *globals) summarize(out string, s *exporter.Summary, fromAPI bool) {
	r := g.report()
	st := s.Stats
	r.Output = out
	r.DurationSeconds = s.Duration.Seconds()
	r.Trees = &treeCounts{Planned: s.Planned, Written: s.Written, Reused: s.Reused, Failed: len(s.Failures), Skipped: len(s.Skipped), NotFetched: s.NotFetched}
	if fromAPI {
		r.Requests = &requestCounts{Total: st.Requests, OK: st.OK, NotModified: st.NotModified, RateLimited: st.RateLimited,
			ServerErrors: st.ServerErrors, TransportErrors: st.TransportErrors, CutShort: st.CutShort, Retries: st.Retries}
	}
	if sc := s.Schedule; sc != nil {
		r.Schedule = &scheduleCounts{Policy: sc.Policy.Mode.String(), New: sc.Count(fresh.New), Changed: sc.Count(fresh.Changed),
			Revalidated: sc.Count(fresh.Due), Unchanged: sc.Count(fresh.Unchanged)}
	}
	r.Files = &fileCounts{Total: s.Files + 1, Written: s.FilesWritten, Unchanged: s.FilesUnchanged}
	r.PDFs = &pdfCounts{Printed: s.PDFsPrinted, Reused: s.PDFsReused}
	r.Images = &imageCounts{Fetched: s.AssetsFetched, Reused: s.AssetsReused, Failed: s.AssetsFailed}
	r.MathErrors = s.MathErrors
	for _, f := range s.Failures {
		r.Failures = append(r.Failures, failedExport{Export: f.Export.Dir(), CurriculumID: f.Export.CurriculumID,
			Variant: f.Export.Variant, Locale: f.Export.Locale, Kept: f.Kept, Error: g.describe(f.Err)})
	}
	for _, sk := range s.Skipped {
		r.Skipped = append(r.Skipped, skippedExport{Export: sk.Export.Dir(), Setting: sk.Setting, Reason: g.describeSkip(sk.Reason, sk.Setting)})
	}
}

// summarizePublish records what a publish did, for --summary-json.
func (g *globals) summarizePublish(dir string, res *publish.Result) {
	r := g.report()
	if r.Output == "" {
		r.Output = dir
		r.DurationSeconds = res.Duration.Seconds()
	} else {
		r.DurationSeconds += res.Duration.Seconds()
	}
	r.Publish = &publishCounts{Target: res.Target, DryRun: res.DryRun, Uploaded: res.Uploaded, Deleted: res.Deleted, Unchanged: res.Unchanged, Bytes: res.Bytes}
}

// report returns the summary of the running command, made on first use.
func (g *globals) report() *runSummary {
	if g.summary == nil {
		g.summary = &runSummary{Version: summaryVersion}
	}
	return g.summary
}

// registerSummaryJSON adds --summary-json to cmd.
func registerSummaryJSON(cmd *cobra.Command, g *globals) {
	cmd.Flags().StringVar(&g.summaryPath, "summary-json", "", "write a machine-readable summary of the run to this file, also when it fails (docs/automation.md)")
}

// checkSummaryPath refuses, before any work, a --summary-json whose
// folder does not exist: a night's run should not end unable to say how
// it went.
func (g *globals) checkSummaryPath() error {
	if g.summaryPath == "" {
		return nil
	}
	dir := filepath.Dir(g.summaryPath)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		path := g.summaryPath
		g.summaryPath = "" // nowhere to write the summary of this refusal
		return usageErr(fmt.Errorf("--summary-json %s: the folder %s does not exist", path, dir))
	}
	return nil
}

// writeSummary writes the summary of the command that ended with code and
// message msg to --summary-json, if given: the whole file or nothing, by
// a rename over the previous one.
func (g *globals) writeSummary(code int, msg string) error {
	if g.summaryPath == "" || g.cmd == nil {
		return nil
	}
	r := g.report()
	r.Command, r.ExitCode, r.Error = g.cmd.Name(), code, msg
	r.Status = status(code)
	if r.Failures == nil {
		r.Failures = []failedExport{}
	}
	if r.Skipped == nil {
		r.Skipped = []skippedExport{}
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(g.summaryPath, append(data, '\n')); err != nil {
		return fmt.Errorf("--summary-json: %w", err)
	}
	return nil
}

// status names an exit code for the summary.
func status(code int) string {
	switch code {
	case exitOK:
		return "ok"
	case exitPartial:
		return "partial"
	case exitUsage:
		return "usage"
	case exitSIGINT, exitSIGTERM:
		return "interrupted"
	}
	return "failed"
}

// writeFileAtomic writes data to path through a temporary file in the
// same folder, synced and renamed over path: a reader sees the old file
// or the new one, never a part.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
