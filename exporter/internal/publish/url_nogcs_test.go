//go:build !gcs && !nopublish

package publish

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestGSNeedsTheTag: without -tags gcs, gs:// is refused with a way out.
func TestGSNeedsTheTag(t *testing.T) {
	err := CheckURL(context.Background(), "gs://bucket/site")
	if !errors.Is(err, ErrUnsupportedScheme) || !strings.Contains(err.Error(), `"gs"`) ||
		!strings.Contains(err.Error(), "-tags gcs") || !strings.Contains(err.Error(), "storage.googleapis.com") {
		t.Errorf("CheckURL(gs://) = %v; want the scheme refused, naming -tags gcs and the S3 interoperability endpoint", err)
	}
}
