package html

import "github.com/curex/curex/exporter/internal/render/i18n"

// RTL reports whether the locale code names a right-to-left language; see
// i18n.RTL.
func RTL(code string) bool { return i18n.RTL(code) }
