//go:build !gcs || nopublish

package publish

// gcsSchemes is empty: gs:// needs a build with -tags gcs, since the Cloud
// Storage client adds about 31 MB to the binary (see drivers.go).
var gcsSchemes []string
