//go:build nopublish

package publish

// A build with -tags nopublish registers no gocloud.dev/blob driver: no
// S3 or Azure SDK is linked (see docs/dependencies.md for the sizes).
// Every bucket URL is refused with ErrNotBuilt, so curex publish and
// curex export --output URL say how this binary was built; the output
// folder is then copied by rclone, aws s3 sync or the like.

import (
	"context"

	"gocloud.dev/blob"
)

// supportedSchemes is empty: this build publishes nowhere.
var supportedSchemes []string

// openBucket is never reached (parseURL refuses every URL first); it
// answers ErrNotBuilt all the same.
func openBucket(context.Context, target) (*blob.Bucket, error) {
	return nil, ErrNotBuilt
}

// preflight is never reached either (see openBucket).
func preflight(context.Context, target) error { return ErrNotBuilt }
