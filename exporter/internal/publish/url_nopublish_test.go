//go:build nopublish

package publish

import (
	"errors"
	"strings"
	"testing"
)

// TestNopublishRefusesEveryURL: a build with -tags nopublish supports no
// scheme and refuses every bucket URL with ErrNotBuilt (and ErrBadURL),
// naming the URL without its secrets and saying what to do instead.
func TestNopublishRefusesEveryURL(t *testing.T) {
	if s := Schemes(); len(s) != 0 {
		t.Errorf("Schemes() = %q, want none", s)
	}
	for _, raw := range []string{"s3://bucket/site", "azblob://container", "file:///srv/www", "gs://bucket", "s3://user:secret@b/p"} {
		err := CheckURL(t.Context(), raw)
		if !errors.Is(err, ErrNotBuilt) || !errors.Is(err, ErrBadURL) {
			t.Errorf("CheckURL(%q) = %v, want ErrNotBuilt and ErrBadURL", raw, err)
			continue
		}
		if strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "rclone") {
			t.Errorf("CheckURL(%q) = %v: leaks a secret or gives no way out", raw, err)
		}
		if _, err := Publish(t.Context(), t.TempDir(), raw, Options{}); !errors.Is(err, ErrNotBuilt) {
			t.Errorf("Publish(%q) = %v, want ErrNotBuilt", raw, err)
		}
	}
}
