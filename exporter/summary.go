package exporter

import (
	"time"

	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/model"
)

// Failure is an export that could not be refreshed.
type Failure struct {
	Export model.Export
	Err    error
	// Kept is true when the previous version was carried over.
	Kept bool
}

// Summary tells what a run did.
type Summary struct {
	Planned int
	// Written counts the exports rendered; Reused those carried over
	// unchanged from the previous output (same ETag, same render key).
	Written, Reused int
	Failures        []Failure
	// NotFetched counts exports left when the request budget ran out.
	NotFetched int
	Stats      fetch.StatsSnapshot
	// Files counts the output's files; FilesWritten those this run
	// wrote, FilesUnchanged those it kept byte for byte (not rewritten).
	Files, FilesWritten, FilesUnchanged int
	// PDFsPrinted counts the handbooks Chromium printed this run;
	// PDFsReused those the cache had printed before from the same bytes.
	PDFsPrinted, PDFsReused int
	// AssetsFetched counts the content images their servers sent this
	// run; AssetsReused those the cache held (a 304); AssetsFailed those
	// left as links (--assets local).
	AssetsFetched, AssetsReused, AssetsFailed int
	// MathErrors counts the TeX expressions of the trees rendered this
	// run that could not be converted to MathML: their pages show the
	// source, marked (see ManifestExport.MathErrors for each export).
	MathErrors int
	Duration   time.Duration
	Skipped    []fetch.Skip
	// Schedule is what the run decided for each tree: fetched because
	// new, changed or due for revalidation, or served from the cache.
	Schedule *fresh.Schedule
}

// Partial reports whether some exports failed while others were written.
func (s *Summary) Partial() bool { return len(s.Failures) > 0 }
