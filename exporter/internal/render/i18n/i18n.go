// Package i18n holds the user-interface words of curex's rendered output
// (website and handbook) in several languages, and knows which locales are
// written right to left. Content comes from the API; only the words curex
// adds around it (navigation, labels, notices) are translated here.
//
// The words are data: one JSON object per language under words/ (en.json,
// es.json, ...), key to text, embedded into the binary. English has every
// key and every other language has the same keys. A theme folder may
// override words per locale with its own i18n/<locale>.json
// (Catalog.WithOverrides); see themes/README.md.
package i18n

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/curex/curex/exporter/internal/model"
)

// rtlLanguages are the primary language subtags written right to left.
var rtlLanguages = map[string]bool{
	"ar": true, "he": true, "iw": true, "fa": true, "ur": true, "ps": true, "sd": true,
	"ug": true, "yi": true, "ji": true, "dv": true, "ckb": true, "syr": true,
}

// RTL reports whether the locale code names a right-to-left language ("ar",
// "he-IL", "fa", "ur", "ps", "sd", "ug", "yi", "dv", "ckb"). A script subtag
// wins over the language: "az-Arab" is right to left, "ug-Latn" is not.
func RTL(code string) bool {
	parts := strings.Split(model.FoldLocale(code), "-")
	for _, p := range parts[1:] {
		switch p {
		case "arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg":
			return true
		case "latn", "cyrl":
			return false
		}
	}
	return rtlLanguages[parts[0]]
}

// Messages is one language's user-interface words, by key; missing keys
// fall back to English. Callers must not change it.
type Messages map[string]string

// T returns the message key, formatted with args, falling back to English
// and then to the key itself.
func (m Messages) T(key string, args ...any) string {
	s, ok := m[key]
	if !ok {
		if s, ok = Builtin().langs[english][key]; !ok {
			s = key
		}
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// english is the language whose words every other language translates.
const english = "en"

// Catalog is the words of every language curex knows, by lower-case
// locale code ("pt-br") or language subtag ("pt"). It is read-only, so safe
// for concurrent use.
type Catalog struct {
	langs map[string]Messages
}

//go:embed words/*.json
var wordFiles embed.FS

// builtin parses the embedded word files once.
var builtin = sync.OnceValue(func() *Catalog {
	c, err := parseBuiltin(wordFiles)
	if err != nil {
		panic(fmt.Sprintf("i18n: the built-in words: %v", err)) // a build defect, caught by the tests
	}
	return c
})

// Builtin returns the words curex ships (words/*.json).
func Builtin() *Catalog { return builtin() }

// parseBuiltin reads words/<language>.json from fsys: every file an
// object of strings, English present, and every language with exactly
// English's keys.
func parseBuiltin(fsys fs.FS) (*Catalog, error) {
	names, err := fs.Glob(fsys, "words/*.json")
	if err != nil {
		return nil, err
	}
	c := &Catalog{langs: map[string]Messages{}}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		m, err := parseWords(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		c.langs[strings.TrimSuffix(path.Base(name), ".json")] = m
	}
	en, ok := c.langs[english]
	if !ok {
		return nil, fmt.Errorf("no words/%s.json", english)
	}
	for lang, m := range c.langs {
		for key := range en {
			if _, ok := m[key]; !ok {
				return nil, fmt.Errorf("words/%s.json: no %q, which words/%s.json has", lang, key, english)
			}
		}
		for key := range m {
			if _, ok := en[key]; !ok {
				return nil, fmt.Errorf("words/%s.json: %q is not in words/%s.json", lang, key, english)
			}
		}
	}
	return c, nil
}

// For returns the words for a locale code: the exact code ("pt-br"), then
// its language ("pt"), then English. A nil Catalog is Builtin.
func (c *Catalog) For(code string) Messages {
	if c == nil {
		c = Builtin()
	}
	lc := model.FoldLocale(code)
	if m, ok := c.langs[lc]; ok {
		return m
	}
	if m, ok := c.langs[model.LocaleLanguage(lc)]; ok {
		return m
	}
	return c.langs[english]
}

// Has reports whether c has words for a locale code, its exact catalog or
// its language's ("es-MX" has Spanish's).
func (c *Catalog) Has(code string) bool {
	lc := model.FoldLocale(code)
	_, exact := c.langs[lc]
	_, ok := c.langs[model.LocaleLanguage(lc)]
	return exact || ok
}

// Languages lists the locale codes and languages c has words for, sorted.
func (c *Catalog) Languages() []string {
	out := make([]string, 0, len(c.langs))
	for k := range c.langs {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// For returns the built-in words for a locale code (Builtin().For).
func For(code string) Messages { return Builtin().For(code) }

// Has reports whether there are built-in words for a locale code
// (Builtin().Has).
func Has(code string) bool { return Builtin().Has(code) }

// Languages lists the languages with built-in words, sorted
// (Builtin().Languages).
func Languages() []string { return Builtin().Languages() }
