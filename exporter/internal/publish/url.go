package publish

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gocloud.dev/blob"

	"github.com/curex/curex/exporter/internal/output"
)

var (
	// ErrBadURL is returned for a bucket URL that cannot be used: malformed,
	// without a bucket name, with an unsafe prefix, or with a scheme this
	// build does not support.
	ErrBadURL = errors.New("bad bucket URL")
	// ErrUnsupportedScheme is returned (wrapped together with ErrBadURL) for
	// a URL scheme this build of curex has no driver for.
	ErrUnsupportedScheme = errors.New("unsupported bucket URL scheme")
	// ErrNoCredentials is returned when a bucket cannot be opened because
	// the environment lacks what its driver needs (for azblob://, a storage
	// account); the message names what to set. It is found before anything
	// is listed or written.
	ErrNoCredentials = errors.New("no credentials for the bucket")
	// ErrNoRegion is returned for an s3:// bucket whose region neither the
	// URL nor the AWS configuration gives; found before any request.
	ErrNoRegion = errors.New("no region for the bucket")
	// ErrNotBuilt is returned (wrapped together with ErrBadURL) for every
	// bucket URL by a curex built with -tags nopublish, which has no
	// publishing drivers (drivers_nopublish.go).
	ErrNotBuilt = errors.New("this curex was built without publishing (-tags nopublish)")
)

// Schemes returns the bucket URL schemes this build of curex supports.
func Schemes() []string { return append([]string(nil), supportedSchemes...) }

// IsURL reports whether s names a bucket (scheme://...) rather than a local
// folder. It does not check that the scheme is supported: CheckURL does.
func IsURL(s string) bool {
	scheme, _, ok := strings.Cut(s, "://")
	if !ok || len(scheme) < 2 { // "C://" is not a scheme anyone uses
		return false
	}
	for i, r := range scheme {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
		case i > 0 && ('0' <= r && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return true
}

// CheckURL reports whether rawURL is a bucket URL this build can publish
// to; use it to validate a command line before doing any work (curex
// export calls it before its first API request). Besides the checks of the
// URL's form, s3:// and mem:// URLs are opened (and closed) with gocloud's
// URL opener, which refuses unknown query parameters and bad values; that
// sends no request. file:// URLs have their parameters checked the same
// way without creating the folder, and azblob:// ones are checked by curex
// (opening them needs credentials). Errors wrap ErrBadURL (and
// ErrUnsupportedScheme), without the URL's query. Last it runs the gate of
// what the driver needs from the environment (preflight): an s3:// bucket
// without a region or credentials, or an azblob:// one without a storage
// account, fails here (ErrNoRegion, ErrNoCredentials), before any request.
func CheckURL(ctx context.Context, rawURL string) error {
	t, err := parseURL(rawURL)
	if err != nil {
		return err
	}
	u, err := url.Parse(t.open)
	if err != nil {
		return fmt.Errorf("%w %s: %w", ErrBadURL, t.display, err)
	}
	switch u.Scheme {
	case "azblob":
		return checkedPreflight(ctx, t) // its name checked by checkBucket; opening needs credentials
	case "gs":
		return nil // checked by checkBucket, or needs credentials to open
	case "file":
		// The folder may not exist yet: open the system's temporary
		// folder with the same parameters, create_dir checked here.
		q := u.Query()
		if v := q.Get("create_dir"); q.Has("create_dir") {
			if _, err := strconv.ParseBool(v); err != nil {
				return fmt.Errorf("%w %s: create_dir=%q: want true or false", ErrBadURL, t.display, v)
			}
			q.Del("create_dir")
		}
		u.Path, u.Host, u.RawQuery = filepath.ToSlash(os.TempDir()), "", q.Encode()
	}
	b, err := blob.OpenBucket(ctx, u.String())
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), u.String(), t.display)
		return &redacted{msg: fmt.Sprintf("%s %s: %s", ErrBadURL, t.display, msg), err: ErrBadURL}
	}
	if err := b.Close(); err != nil {
		return err
	}
	return checkedPreflight(ctx, t)
}

// checkedPreflight is preflight, its errors naming the bucket (without
// the URL's query).
func checkedPreflight(ctx context.Context, t target) error {
	if err := preflight(ctx, t); err != nil {
		return fmt.Errorf("%s: %w", t.display, err)
	}
	return nil
}

// Redact returns rawURL without its query and user information, the way
// messages show it: s3://bucket/prefix/.
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme == "" {
		if i := strings.IndexAny(rawURL, "?#"); i >= 0 {
			return rawURL[:i]
		}
		return rawURL
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

// target is a parsed bucket URL.
type target struct {
	display string // scheme://host/path, no query: safe to print
	open    string // the URL blob.OpenBucket gets (no prefix)
	prefix  string // "" or a safe key prefix ending in "/"
	dir     string // for file://, the folder (absolute)
}

// parseURL splits a bucket URL into what blob.OpenBucket needs and the key
// prefix. For s3, gs and azblob URLs the path is the prefix; for file URLs
// the path is the folder and a prefix may be given as ?prefix=. The query
// parameter prefix is accepted for every scheme, but not together with a
// path prefix. For azblob the container name and the query parameters are
// checked too (see checkBucket).
func parseURL(raw string) (target, error) {
	display := Redact(raw)
	u, err := url.Parse(raw)
	if err != nil || !IsURL(raw) {
		return target{}, fmt.Errorf("%w %q: want scheme://bucket/prefix, e.g. s3://my-bucket/site/?region=us-east-1", ErrBadURL, display)
	}
	t := target{display: display}
	if len(supportedSchemes) == 0 {
		return target{}, fmt.Errorf("%w %s: %w: it writes output folders only; copy one to a bucket with "+
			"rclone or aws s3 sync, or use a release build of curex, which publishes to s3://, azblob:// and file://", ErrBadURL, display, ErrNotBuilt)
	}
	scheme := strings.ToLower(u.Scheme)
	if !supported(scheme) {
		return target{}, fmt.Errorf("%w: %w %q in %s: this build of curex supports %s",
			ErrBadURL, ErrUnsupportedScheme, scheme, display, schemeList())
	}
	if u.User != nil {
		return target{}, fmt.Errorf("%w %s: credentials do not belong in the URL; they come from the environment", ErrBadURL, display)
	}
	if u.Fragment != "" {
		return target{}, fmt.Errorf("%w %s: unexpected #fragment", ErrBadURL, display)
	}
	q := u.Query()
	if q.Has("key") {
		return target{}, fmt.Errorf("%w %s: the key parameter is not supported; give a prefix", ErrBadURL, display)
	}
	prefix := q.Get("prefix")
	q.Del("prefix")
	switch scheme {
	case "file":
		dir := u.Path
		if u.Host == "." {
			dir = strings.TrimPrefix(dir, "/")
		} else if u.Host != "" && u.Host != "localhost" {
			return target{}, fmt.Errorf("%w %s: want file:///absolute/folder or file://./relative/folder", ErrBadURL, display)
		}
		if dir == "" {
			return target{}, fmt.Errorf("%w %s: no folder", ErrBadURL, display)
		}
		if t.dir, err = filepath.Abs(filepath.FromSlash(dir)); err != nil {
			return target{}, fmt.Errorf("%w %s: %w", ErrBadURL, display, err)
		}
		if !q.Has("create_dir") {
			q.Set("create_dir", "true")
		}
	case "mem":
		if p := strings.Trim(u.Path, "/"); p != "" {
			if prefix != "" {
				return target{}, fmt.Errorf("%w %s: give the prefix as the path or as ?prefix=, not both", ErrBadURL, display)
			}
			prefix = p
		}
		u.Path = ""
	default:
		if u.Host == "" {
			return target{}, fmt.Errorf("%w %s: no bucket name", ErrBadURL, display)
		}
		if err := checkBucket(scheme, u.Host, q); err != nil {
			return target{}, fmt.Errorf("%w %s: %w", ErrBadURL, display, err)
		}
		if p := strings.Trim(u.Path, "/"); p != "" {
			if prefix != "" {
				return target{}, fmt.Errorf("%w %s: give the prefix as the path or as ?prefix=, not both", ErrBadURL, display)
			}
			prefix = p
		}
		u.Path = ""
	}
	if prefix = strings.Trim(prefix, "/"); prefix != "" {
		if err := output.CheckPath(prefix); err != nil || hiddenSegment(prefix) {
			return target{}, fmt.Errorf("%w %s: unsafe prefix %q", ErrBadURL, display, prefix)
		}
		t.prefix = prefix + "/"
	}
	u.RawQuery = q.Encode()
	u.RawPath = ""
	t.open = u.String()
	return t, nil
}

func supported(scheme string) bool {
	for _, s := range supportedSchemes {
		if s == scheme {
			return true
		}
	}
	return false
}

func schemeList() string {
	parts := make([]string, len(supportedSchemes))
	for i, s := range supportedSchemes {
		parts[i] = s + "://"
	}
	if len(gcsSchemes) == 0 {
		return strings.Join(parts, ", ") + " (gs:// needs a build with -tags gcs, or use s3:// with endpoint=https://storage.googleapis.com and HMAC keys: see docs/publish.md)"
	}
	return strings.Join(parts, ", ")
}

// azblobParams are the query parameters azblob URLs accept besides prefix
// (gocloud.dev v0.47); the driver refuses others only when the bucket is
// opened, after the export. Credentials come from the environment.
var azblobParams = []string{"storage_account", "domain", "protocol", "localemu", "cdn"}

// checkBucket checks the container name and query parameters of an azblob
// URL, so that a typo fails before an export rather than after. s3 URLs
// are left to the driver's URL opener, which CheckURL runs: the bucket
// names of S3-compatible servers vary.
func checkBucket(scheme, name string, q url.Values) error {
	switch scheme {
	case "azblob":
		for k, v := range q {
			if !slices.Contains(azblobParams, k) {
				return fmt.Errorf("unknown query parameter %q: azblob:// URLs take prefix, %s", k, strings.Join(azblobParams, ", "))
			}
			if len(v) > 1 {
				return fmt.Errorf("query parameter %q given %d times", k, len(v))
			}
		}
		if p := q.Get("protocol"); q.Has("protocol") && p != "http" && p != "https" {
			return fmt.Errorf("protocol=%q: want http or https", p)
		}
		for _, k := range []string{"localemu", "cdn"} {
			if q.Has(k) {
				if _, err := strconv.ParseBool(q.Get(k)); err != nil {
					return fmt.Errorf("%s=%q: want true or false", k, q.Get(k))
				}
			}
		}
		if q.Has("storage_account") && !validAzureAccount(q.Get("storage_account")) {
			return fmt.Errorf("storage_account=%q: want 3 to 24 lowercase letters and digits", q.Get("storage_account"))
		}
		return checkAzureContainer(name)
	}
	return nil
}

// checkAzureContainer applies Azure's container naming rules: $web (the
// static website container) or $root, or 3 to 63 lowercase letters, digits
// and single hyphens, starting and ending with a letter or digit.
func checkAzureContainer(name string) error {
	if name == "$web" || name == "$root" {
		return nil
	}
	bad := func(why string) error {
		return fmt.Errorf("container name %q: %s (Azure container names are $web, $root, or 3 to 63 lowercase letters, digits and single hyphens)", name, why)
	}
	if len(name) < 3 || len(name) > 63 {
		return bad("wrong length")
	}
	for _, r := range name {
		if !lowerAlnum(r) && r != '-' {
			return bad(fmt.Sprintf("character %q", r))
		}
	}
	if name[0] == '-' || name[len(name)-1] == '-' || strings.Contains(name, "--") {
		return bad("hyphens must sit between letters or digits")
	}
	return nil
}

// validAzureAccount reports whether name can be a storage account name.
func validAzureAccount(name string) bool {
	if len(name) < 3 || len(name) > 24 {
		return false
	}
	for _, r := range name {
		if !lowerAlnum(r) {
			return false
		}
	}
	return true
}

func lowerAlnum(r rune) bool { return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' }

// overlaps reports whether folders a and b are the same or one holds the
// other.
func overlaps(a, b string) bool {
	within := func(x, y string) bool {
		rel, err := filepath.Rel(y, x)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(os.PathSeparator))
	}
	return within(a, b) || within(b, a)
}
