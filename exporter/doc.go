// Package exporter runs an export: discover what the API holds, plan the
// variant × locale trees, fetch them within the rate limits, render each
// format, and commit the output so that a failed run leaves the previous
// output as it was.
//
// The domain model lives in exporter/model, so that the fetcher and the
// renderers can share it without importing this package.
package exporter
