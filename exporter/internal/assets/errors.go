package assets

import (
	"errors"
	"fmt"

	"github.com/curex/curex/exporter/internal/imagecheck"
)

// Why an image was refused; an *Error wraps one of them (or a network
// error).
var (
	// ErrScheme: the URL is not http or https, or not absolute.
	ErrScheme = errors.New("not an http or https URL")
	// ErrAddress: the host resolves to an address curex does not fetch
	// from (private, loopback, link-local, unspecified or multicast).
	ErrAddress = errors.New("address not allowed")
	// ErrRedirects: more redirects than Options.MaxRedirects.
	ErrRedirects = errors.New("too many redirects")
	// ErrTooLarge: a body over Options.MaxBytes.
	ErrTooLarge = errors.New("image too large")
	// ErrNotImage: bytes that are no image curex keeps
	// (imagecheck.ErrNotImage, the same error).
	ErrNotImage = imagecheck.ErrNotImage
	// ErrSVG: an SVG document, refused since it can carry script
	// (imagecheck.ErrSVG, the same error).
	ErrSVG = imagecheck.ErrSVG
	// ErrStatus: the server answered neither 200 nor 304.
	ErrStatus = errors.New("unexpected HTTP status")
	// ErrNotCached: a build (Options.Offline) needs an image the cache
	// lacks.
	ErrNotCached = errors.New("not in the cache")
	// ErrCredentials: the URL carries a user name or password
	// (user:pass@host), which curex never sends.
	ErrCredentials = errors.New("URL carries credentials (user:password@)")
	// ErrBudget: the image is over a cap of the tree or of the run
	// (Budget); it is skipped, not fetched or not kept.
	ErrBudget = errors.New("over the image budget")
	// ErrDeadline: the run's deadline (Options.Deadline) came before the
	// image did.
	ErrDeadline = errors.New("the run's deadline has come")
)

// Error is why one image could not be kept.
type Error struct {
	// URL is the image's URL as the content gave it, its password
	// replaced by "xxxxx" (Redact).
	URL string
	// Err is the reason, wrapping one of the Err values or a network
	// error.
	Err error
}

func (e *Error) Error() string { return fmt.Sprintf("image %s: %v", Redact(e.URL), e.Err) }

// Unwrap returns the reason.
func (e *Error) Unwrap() error { return e.Err }
