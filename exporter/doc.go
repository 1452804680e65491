// Package exporter runs an export: discover what the API holds, plan the
// variant × locale trees, fetch them within the rate limits, render each
// format, and commit the output so that a failed run leaves the previous
// output as it was.
//
// The domain model lives in exporter/internal/model, so that the fetcher
// and the renderers can share it without importing this package. Run,
// Build and Plan are importable, for a Go program that exports as curex
// does; the packages under exporter/internal/ that Config refers to are
// curex's own and change in any release (docs/architecture.md, "Packages:
// a small public surface").
package exporter
