package assets

import (
	"net/url"
	"strings"
)

// CheckURL is the URL rule of every image curex fetches, and of each
// redirect it follows: an absolute http or https URL with a host
// (ErrScheme), and no user name or password in it (ErrCredentials),
// which curex would otherwise send to whoever serves the image. The
// address the host resolves to is judged by Public when it is dialled.
// The error never holds the URL, whose password it would show.
func CheckURL(u *url.URL) error {
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return ErrScheme
	}
	if u.User != nil {
		return ErrCredentials
	}
	return nil
}

// Redact returns raw with the password of its user information replaced
// by "xxxxx" (url.URL.Redacted), fit for a log or an error; raw itself
// when it carries none. A URL that does not parse and holds an "@" is
// replaced whole.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case err != nil && strings.Contains(raw, "@"):
		return "(a URL that does not parse)"
	case err != nil || u.User == nil:
		return raw
	}
	return u.Redacted()
}
