// Package setting names the settings of a run as the library speaks of
// them, so that library errors name what was wrong without knowing how a
// user gave it. A library returns a *Error naming the setting by its key
// (the key of curex.yaml, "base_url"); the command line maps each key to
// its flag and environment variable in one table (cmd/curex) and shows
// the error as the user would write the setting ("--base-url").
package setting

import (
	"errors"
	"fmt"
)

// Keys of the settings library errors name. They are the keys of
// curex.yaml.
const (
	BaseURL          = "base_url"
	Token            = "token"
	AllowHTTP        = "allow_http"
	Output           = "output"
	Formats          = "formats"
	CacheDir         = "cache_dir"
	Curricula        = "curricula"
	Variants         = "variants"
	Locales          = "locales"
	MinTranslation   = "min_translation"
	Concurrency      = "concurrency"
	MaxTreeNodes     = "max_tree_nodes"
	MaxRequests      = "max_requests"
	Deadline         = "deadline"
	Revalidate       = "revalidate"
	RevalidateWithin = "revalidate_within"
	SiteURL          = "site_url"
	Theme            = "theme"
	Paper            = "paper"
	PDFTimeout       = "pdf_timeout"
	MarkdownLayout   = "markdown_layout"
	CartridgeVersion = "cartridge_version"
	SourceDate       = "source_date"
	// Assets is local or remote: whether content images are kept in the
	// output.
	Assets = "assets"
	// PrivateAssets (allow_private_assets) lets content images come from
	// private and loopback addresses (testing).
	PrivateAssets = "allow_private_assets"
	// The publisher's identity on the website (render.Identity).
	SiteTitle       = "site_title"
	SiteLanguage    = "site_language"
	SiteLogo        = "site_logo"
	SiteFavicon     = "site_favicon"
	SiteImage       = "site_image"
	SiteAccent      = "site_accent"
	SiteFooter      = "site_footer"
	SiteFooterLinks = "site_footer_links"
	SiteScripts     = "site_scripts"
	SiteLocales     = "site_locales"
)

// Error is a setting a library refuses.
type Error struct {
	// Name is the setting's key (one of the constants above).
	Name string
	// Err says what is wrong with its value.
	Err error
}

func (e *Error) Error() string { return e.Name + ": " + e.Err.Error() }

// Unwrap returns the reason.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns a *Error for the setting name, its reason formatted as by
// fmt.Errorf.
func Errorf(name, format string, args ...any) error {
	return &Error{Name: name, Err: fmt.Errorf(format, args...)}
}

// Of returns the setting err names, if any.
func Of(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
