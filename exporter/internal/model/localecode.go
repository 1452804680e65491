package model

import "strings"

// Locale codes come as BCP 47 tags ("pt-BR") or in POSIX or Rails style
// ("pt_BR"), in any case. The functions below are the one rule by which
// curex compares them: case is ignored and "_" reads as "-".

// FoldLocale is code in the form codes are compared in: white space
// around it trimmed, lower case, "_" read as "-" ("PT_br" gives "pt-br").
func FoldLocale(code string) string { return strings.ToLower(LocaleTag(code)) }

// SameLocale reports whether a and b name the same locale: equal once
// folded (FoldLocale).
func SameLocale(a, b string) bool { return FoldLocale(a) == FoldLocale(b) }

// LocaleLanguage is the language subtag of code, folded: "pt" for "pt_BR"
// and for "PT-br".
func LocaleLanguage(code string) string {
	lang, _, _ := strings.Cut(FoldLocale(code), "-")
	return lang
}

// LocaleTag is code spelled as a language tag, its case kept: white space
// around it trimmed and "_" read as "-" ("pt_BR" gives "pt-BR"). It does
// not check that the result is a well-formed tag.
func LocaleTag(code string) string {
	return strings.ReplaceAll(strings.TrimSpace(code), "_", "-")
}
