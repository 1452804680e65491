package i18n

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/curex/curex/exporter/internal/model"
)

// ErrUnknownKey is the error of a word that curex does not have.
var ErrUnknownKey = errors.New("no such word")

// ErrArguments is the error of a word whose text does not take the
// arguments (%s, %d) of the English one.
var ErrArguments = errors.New("takes other arguments than the English word")

// parseWords reads one word file: a JSON object whose values are strings.
func parseWords(data []byte) (Messages, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("want a JSON object of words, key to text: %w", err)
	}
	if raw == nil {
		return nil, errors.New("want a JSON object of words, key to text, not null")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("want one JSON object, and nothing after it")
	}
	m := make(Messages, len(raw))
	for _, key := range slices.Sorted(maps.Keys(raw)) {
		var s string
		if err := json.Unmarshal(raw[key], &s); err != nil {
			return nil, fmt.Errorf("%q: want a string", key)
		}
		m[key] = s
	}
	return m, nil
}

// verbs lists the formatting verbs of s in order ("%s", "%d"), with "%!"
// for a "%" that starts none; "%%" is no verb.
func verbs(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		switch {
		case i+1 < len(s) && s[i+1] == '%':
			i++
		case i+1 < len(s) && ('a' <= s[i+1] && s[i+1] <= 'z' || 'A' <= s[i+1] && s[i+1] <= 'Z'):
			out = append(out, s[i:i+2])
			i++
		default:
			out = append(out, "%!")
		}
	}
	return out
}

// OverrideDir is the folder of a theme that holds its words: one file
// <locale>.json per locale it overrides.
const OverrideDir = "i18n"

// localeName is a well-formed locale code: a language subtag, then
// subtags of 2 to 8 letters or digits ("es", "pt-BR", "zh-Hant").
var localeName = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)

// IsOverrideFile reports whether name, slash-separated and relative to a
// theme folder, is where a theme's words may be: a .json file directly in
// OverrideDir.
func IsOverrideFile(name string) bool {
	rest, ok := strings.CutPrefix(name, OverrideDir+"/")
	return ok && !strings.Contains(rest, "/") && strings.HasSuffix(rest, ".json")
}

// OverrideError is a theme's word file that cannot be used: File is its
// path in the theme folder ("i18n/fr.json") and Key the word, when one is
// at fault.
type OverrideError struct {
	File string
	Key  string
	Err  error
}

// Error names the file and the key.
func (e *OverrideError) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s: %q: %v", e.File, e.Key, e.Err)
}

// Unwrap returns the reason.
func (e *OverrideError) Unwrap() error { return e.Err }

// WithOverrides returns c with a theme's words over it. files are the
// theme folder's files by slash-separated path; of them, the
// IsOverrideFile ones count, each named after a locale code
// ("i18n/es.json", "i18n/pt-BR.json") and holding a JSON object of words
// that replace those of that locale. A key English does not have is an
// error (*OverrideError naming the file and key, ErrUnknownKey), as is a
// text that does not take the English one's arguments (ErrArguments);
// keys a file leaves out keep their built-in words. Any key
// AttributePrefix+KEY is a word: the label of the attribute member KEY. A file for a locale
// builds on what that locale shows without it: "i18n/es-MX.json" on the
// theme's "i18n/es.json", which builds on curex's Spanish; a language
// curex lacks builds on English. Without such files, WithOverrides
// returns c itself. A nil c is Builtin.
func (c *Catalog) WithOverrides(files map[string][]byte) (*Catalog, error) {
	if c == nil {
		c = Builtin()
	}
	type override struct{ file, code string }
	var todo []override
	for name := range files {
		if !IsOverrideFile(name) {
			continue
		}
		code := strings.TrimSuffix(strings.TrimPrefix(name, OverrideDir+"/"), ".json")
		if !localeName.MatchString(code) {
			return nil, &OverrideError{File: name, Err: fmt.Errorf("%q is not a locale code such as es or pt-BR", code)}
		}
		todo = append(todo, override{name, model.FoldLocale(code)})
	}
	if len(todo) == 0 {
		return c, nil
	}
	// A language before its regional codes ("es" before "es-mx"), which
	// build on it.
	slices.SortFunc(todo, func(a, b override) int { return strings.Compare(a.code, b.code) })
	out := &Catalog{langs: maps.Clone(c.langs)}
	en := c.langs[english]
	for i, o := range todo {
		if i > 0 && todo[i-1].code == o.code {
			return nil, &OverrideError{File: o.file, Err: fmt.Errorf("a second file for locale %s (%s)", o.code, todo[i-1].file)}
		}
		words, err := parseWords(files[o.file])
		if err != nil {
			return nil, &OverrideError{File: o.file, Err: err}
		}
		m := maps.Clone(out.For(o.code))
		for _, key := range slices.Sorted(maps.Keys(words)) {
			if attributeWord(key) {
				m[key] = words[key] // a label, never formatted
				continue
			}
			want, ok := en[key]
			if !ok {
				return nil, &OverrideError{File: o.file, Key: key, Err: ErrUnknownKey}
			}
			if !slices.Equal(verbs(words[key]), verbs(want)) {
				return nil, &OverrideError{File: o.file, Key: key, Err: fmt.Errorf("%w (%q)", ErrArguments, want)}
			}
			m[key] = words[key]
		}
		out.langs[o.code] = m
	}
	return out, nil
}

// attributeWord reports whether key is the label of an attribute member
// (AttributePrefix and a key).
func attributeWord(key string) bool {
	return strings.HasPrefix(key, AttributePrefix) && len(key) > len(AttributePrefix)
}

// AttributeLabels are the publisher's labels of attribute members: by
// member key, then by locale code ("es", "pt-BR"), the label.
type AttributeLabels map[string]map[string]string

// LabelError is a label of AttributeLabels that cannot be used: the
// member Key, the Locale, and why.
type LabelError struct {
	Key, Locale string
	Err         error
}

// Error names the member and the locale.
func (e *LabelError) Error() string {
	if e.Locale == "" {
		return fmt.Sprintf("%q: %v", e.Key, e.Err)
	}
	return fmt.Sprintf("%q: %s: %v", e.Key, e.Locale, e.Err)
}

// Unwrap returns the reason.
func (e *LabelError) Unwrap() error { return e.Err }

// Check reports the first label that cannot be used, in key and locale
// order: an empty or space-edged member key, a locale that is not a
// locale code, an empty label or one with a line break (*LabelError).
func (l AttributeLabels) Check() error {
	for _, key := range slices.Sorted(maps.Keys(l)) {
		if key == "" || strings.TrimSpace(key) != key {
			return &LabelError{Key: key, Err: errors.New("want an attribute key, such as teacher_notes")}
		}
		for _, code := range slices.Sorted(maps.Keys(l[key])) {
			label := l[key][code]
			switch {
			case !localeName.MatchString(code):
				return &LabelError{Key: key, Locale: code, Err: errors.New("want a locale code such as es or pt-BR")}
			case strings.TrimSpace(label) == "":
				return &LabelError{Key: key, Locale: code, Err: errors.New("want a label, not an empty one")}
			case strings.ContainsAny(label, "\r\n"):
				return &LabelError{Key: key, Locale: code, Err: errors.New("want a label on one line")}
			}
		}
	}
	return nil
}

// WithAttributeLabels returns c with the publisher's labels over it, as
// the words AttributePrefix+KEY (see AttributeLabel): a label given for a
// language ("es") labels its regional locales too ("es-MX"), unless one is
// given for the regional locale itself; a locale curex has no words for
// gets English's words with its labels. The labels are checked first
// (AttributeLabels.Check). Without labels it returns c itself.
func (c *Catalog) WithAttributeLabels(labels AttributeLabels) (*Catalog, error) {
	if c == nil {
		c = Builtin()
	}
	if err := labels.Check(); err != nil {
		return nil, err
	}
	if len(labels) == 0 {
		return c, nil
	}
	byLocale := map[string]map[string]string{}
	for key, ls := range labels {
		for code, label := range ls {
			lc := model.FoldLocale(code)
			if byLocale[lc] == nil {
				byLocale[lc] = map[string]string{}
			}
			byLocale[lc][AttributePrefix+key] = label
		}
	}
	out := &Catalog{langs: maps.Clone(c.langs)}
	// A language before its regional codes ("es" before "es-mx"), whose
	// own labels then win.
	for _, code := range slices.Sorted(maps.Keys(byLocale)) {
		if _, ok := out.langs[code]; !ok {
			out.langs[code] = out.For(code)
		}
		for lc, m := range out.langs {
			if lc != code && !strings.HasPrefix(lc, code+"-") {
				continue
			}
			m = maps.Clone(m)
			maps.Copy(m, byLocale[code])
			out.langs[lc] = m
		}
	}
	return out, nil
}
