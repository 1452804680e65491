package fetch

import (
	"strings"

	"golang.org/x/text/language"

	"github.com/curex/curex/exporter/internal/model"
)

// NormalizeLocale returns code as a BCP 47 language tag: a tag as it is
// (its case is kept: the API and the output use the codes as served), a
// POSIX or Rails style code ("pt_BR", "zh_Hant_TW", "pt_BR.UTF-8") with
// hyphens, or the canonical form x/text/language gives. ok is false for an
// empty code and for one that is still no language tag.
func NormalizeLocale(code string) (tag string, ok bool) {
	code = strings.TrimSpace(code)
	if safeLocale.MatchString(code) {
		return code, true
	}
	c := code
	if i := strings.IndexByte(c, '.'); i > 0 { // a POSIX codeset: pt_BR.UTF-8
		c = c[:i]
	}
	c = model.LocaleTag(c)
	if safeLocale.MatchString(c) {
		return c, true
	}
	t, err := language.Parse(c)
	if err != nil {
		return "", false
	}
	if s := t.String(); safeLocale.MatchString(s) && s != "und" {
		return s, true
	}
	return "", false
}
