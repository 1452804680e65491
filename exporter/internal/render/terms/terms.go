// Package terms turns text into the terms of the search index, and a
// query into the terms it looks up, the same way on both sides: Fold
// folds case, compatibility forms and Latin and Arabic diacritics (as
// norm in themes/default/search.js), Words cuts folded text into words,
// and a Stemmer reduces a word to its stem with the Snowball algorithm of
// the text's language.
//
// The stemmers are JavaScript (the Snowball algorithms as @orama/stemmers
// publishes them, vendored under stemmers/ by `make vendor-stemmers`).
// The build runs them in goja, a JavaScript interpreter written in Go;
// the site ships the same files (Script), which search.js runs on the
// words of a query. The index and the query are thus stemmed by one
// program, not by two implementations that could drift apart.
//
// Chinese, Japanese and Korean have no stemmer and no spaces between
// words: Words leaves their characters out, and the search matches them
// as substrings of the text instead, read only where the index's keys of
// their characters and pairs of characters are (AppendGrams). A kana reading does not
// find the kanji it spells (ほうていしき does not find 方程式).
package terms

import (
	"embed"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/dop251/goja"
	"golang.org/x/text/unicode/norm"
)

//go:embed stemmers/*.js
var stemmerFS embed.FS

// aliases are language codes whose stemmer is another code's.
var aliases = map[string]string{"nb": "no", "nn": "no", "in": "id"}

// Language returns the stemmer's language for a BCP 47 code ("es-MX" →
// "es", "nb" → "no"), or "" when no stemmer covers it (Chinese, Japanese,
// Korean and the languages Snowball has no algorithm for).
func Language(code string) string {
	p, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(code)), "-")
	p, _, _ = strings.Cut(p, "_")
	if a, ok := aliases[p]; ok {
		p = a
	}
	if p == "" {
		return ""
	}
	if _, err := stemmerFS.Open("stemmers/" + p + ".js"); err != nil {
		return ""
	}
	return p
}

// Languages are the languages with a stemmer, sorted.
func Languages() []string {
	ents, err := stemmerFS.ReadDir("stemmers")
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".js"))
	}
	return out
}

// Script is the stemmer of lang (a code Language returned) as a classic
// script, which sets globalThis.curexStem[lang] to the stem function: the
// file search.js loads to stem a query. ok is false for a language with
// no stemmer.
func Script(lang string) (js []byte, ok bool) {
	if lang == "" {
		return nil, false
	}
	b, err := stemmerFS.ReadFile("stemmers/" + lang + ".js")
	return b, err == nil
}

// isFoldedMark reports whether Fold removes r: a combining mark of
// Latin diacritics or an Arabic haraka, as search.js's norm does.
func isFoldedMark(r rune) bool {
	return r >= 0x300 && r <= 0x36f || r >= 0x64b && r <= 0x65f || r == 0x670
}

// Fold folds s as search.js's norm does: compatibility decomposition,
// Latin and Arabic diacritics removed, recomposed, lower case.
func Fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	d := norm.NFKD.String(s)
	d = strings.Map(func(r rune) rune {
		if isFoldedMark(r) {
			return -1
		}
		return r
	}, d)
	return strings.ToLower(norm.NFC.String(d))
}

// cjkFirst is the lowest rune of the scripts isCJK holds (U+1100, the
// first Hangul jamo; Han, Hiragana and Katakana start higher): runes
// below it, every Latin, Greek, Cyrillic, Arabic or Devanagari letter
// among them, skip the tables.
const cjkFirst = 0x1100

// isCJK reports whether r is written without spaces between words:
// Han, Hiragana, Katakana, Hangul.
func isCJK(r rune) bool {
	return r >= cjkFirst && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// isWord reports whether r belongs to a word: a letter, a mark or a
// number (search.js: /[\p{L}\p{M}\p{N}]/u). An ASCII rune is one of
// a word when it is a letter or a digit (ASCII has no mark).
func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r)
}

// Words returns the words of folded text: the runs of letters, marks and
// numbers, less those with a Chinese, Japanese or Korean character
// (matched as substrings instead). search.js cuts a query the same way.
func Words(folded string) []string { return AppendWords(nil, folded) }

// AppendWords appends the words of folded text to out, as Words cuts
// them, and returns the extended slice: a caller that indexes many texts
// reuses one slice.
func AppendWords(out []string, folded string) []string {
	for at := 0; ; {
		start, end, cjk := nextRun(folded, at)
		if start == end {
			return out
		}
		if !cjk {
			out = append(out, folded[start:end])
		}
		at = end
	}
}

// AppendGrams appends to out the keys of the characters of the runs of
// folded text that Words leaves out, those with a Chinese, Japanese or
// Korean character, which search.js finds as substrings: one key a
// character (GramKey), in order, repeated as the text repeats it. A node
// whose text holds a query's run holds the keys of its characters, so
// they bound the nodes that a substring search reads. search.js's
// keysOf cuts a query the same way.
func AppendGrams(out []string, folded string) []string {
	if !strings.ContainsFunc(folded, func(r rune) bool { return r >= cjkFirst }) {
		return out
	}
	for at := 0; ; {
		start, end, cjk := nextRun(folded, at)
		if start == end {
			return out
		}
		if cjk {
			for _, r := range folded[start:end] {
				out = append(out, GramKey(r))
			}
		}
		at = end
	}
}

// nextRun finds the first run of letters, marks and numbers of s from
// byte at: its bounds, and whether it holds a Chinese, Japanese or
// Korean character; start == end when none is left. Words and the CJK
// keys of an index cut text by it, and search.js by the same rule.
func nextRun(s string, at int) (start, end int, cjk bool) {
	start = -1
	for i, r := range s[at:] {
		if !isWord(r) {
			if start >= 0 {
				return start, at + i, cjk
			}
			continue
		}
		if start < 0 {
			start = at + i
		}
		cjk = cjk || isCJK(r)
	}
	if start < 0 {
		return len(s), len(s), false
	}
	return start, len(s), cjk
}

// GramKey is the key of character r of a CJK run in an index's terms:
// "~", the low byte of r in two hexadecimal digits, then r. No word
// holds a "~", and the two digits spread the characters of a script
// over 256 prefixes, so the index's shards (package shard, which splits
// by the keys' first characters) stay few where a language has
// thousands of characters.
func GramKey(r rune) string {
	const hex = "0123456789abcdef"
	return string([]byte{'~', hex[r>>4&15], hex[r&15]}) + string(r)
}

// memoSize bounds each generation of a Stemmer's memo (see memo).
const memoSize = 1 << 17

// Stemmer stems the words of one language. It is safe for concurrent
// use: one interpreter behind a lock, and before it a memo of the stems
// already found, which concurrent callers read at once (a curriculum's
// variants and locales repeat the same words, and so do the builds of
// one curex dev session that share a Stemmers).
type Stemmer struct {
	lang string
	memo memo
	runs *atomic.Int64 // the Stemmers' count of words stemmed

	mu sync.Mutex // guards the interpreter: fn and vm
	fn goja.Callable
	vm *goja.Runtime
}

// memo maps words to their stems, bounded: it keeps two generations of
// at most limit words each. When the current one is full it becomes the
// old one and the oldest is dropped; a word found in the old generation
// moves to the current one. So a vocabulary of up to limit words, asked
// for again and again (every build of a dev session), is never dropped,
// and the memory held is at most twice limit entries.
type memo struct {
	mu    sync.RWMutex
	limit int
	cur   map[string]string
	old   map[string]string
}

// get returns the stem remembered for word.
func (m *memo) get(word string) (string, bool) {
	m.mu.RLock()
	st, ok := m.cur[word]
	inOld := false
	if !ok {
		st, ok = m.old[word]
		inOld = ok
	}
	m.mu.RUnlock()
	if inOld {
		m.put(word, st)
	}
	return st, ok
}

// put remembers the stem of word. Both are copied: a word from Words is
// a slice of the whole text it came from, which the memo must not keep
// alive.
func (m *memo) put(word, st string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cur == nil {
		m.cur = map[string]string{}
	}
	if _, ok := m.cur[word]; ok {
		return
	}
	if len(m.cur) >= m.limit {
		m.old, m.cur = m.cur, make(map[string]string, len(m.cur))
	}
	word = strings.Clone(word)
	if st == word {
		st = word // one copy for a word that is its own stem
	} else {
		st = strings.Clone(st)
	}
	m.cur[word] = st
}

// len is the number of words remembered.
func (m *memo) len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.cur) + len(m.old)
}

// Stemmers makes a Stemmer for each language once, when first asked,
// and keeps it: a Stemmers shared by several builds (curex dev) loads
// each interpreter once and stems each word once. The zero value is not
// ready: use NewStemmers.
type Stemmers struct {
	mu    sync.Mutex
	by    map[string]*Stemmer
	limit int          // memoSize; tests set less
	runs  atomic.Int64 // words the interpreters stemmed
}

// NewStemmers returns an empty set of stemmers.
func NewStemmers() *Stemmers { return &Stemmers{by: map[string]*Stemmer{}, limit: memoSize} }

// ErrNoStemmer is returned by For for a language with no stemmer.
var ErrNoStemmer = errors.New("terms: no stemmer for the language")

// For returns the stemmer of lang (a code Language returned), loading
// it on first use.
func (s *Stemmers) For(lang string) (*Stemmer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.by[lang]; ok {
		return st, nil
	}
	js, ok := Script(lang)
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNoStemmer, lang)
	}
	vm := goja.New()
	if _, err := vm.RunScript("stemmers/"+lang+".js", string(js)); err != nil {
		return nil, fmt.Errorf("terms: load stemmer %s: %w", lang, err)
	}
	v, err := vm.RunString(`globalThis.curexStem[` + fmt.Sprintf("%q", lang) + `]`)
	if err != nil {
		return nil, fmt.Errorf("terms: load stemmer %s: %w", lang, err)
	}
	fn, ok := goja.AssertFunction(v)
	if !ok {
		return nil, fmt.Errorf("terms: load stemmer %s: no stem function", lang)
	}
	st := &Stemmer{lang: lang, fn: fn, vm: vm, memo: memo{limit: s.limit}, runs: &s.runs}
	s.by[lang] = st
	return st, nil
}

// Runs is the number of words the stemmers' interpreters have stemmed:
// the words their memos did not hold yet.
func (s *Stemmers) Runs() int64 { return s.runs.Load() }

// Language is the stemmer's language.
func (s *Stemmer) Language() string { return s.lang }

// Stem returns the stem of a folded word (from Words). A word with a
// digit, or of fewer than three letters, is its own stem, as in
// search.js; so is a word the stemmer fails on.
func (s *Stemmer) Stem(word string) string {
	if s == nil || !Stemmable(word) {
		return word
	}
	if st, ok := s.memo.get(word); ok {
		return st
	}
	st := s.run(word)
	s.memo.put(word, st)
	return st
}

// run stems word in the interpreter, which one caller at a time may use;
// a word it fails on is its own stem.
func (s *Stemmer) run(word string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs.Add(1)
	v, err := s.fn(goja.Undefined(), s.vm.ToValue(word))
	if err != nil {
		return word
	}
	if r, ok := v.Export().(string); ok && r != "" {
		return r
	}
	return word
}

// Stemmable reports whether a word goes through the stemmer: three
// runes or more and no digit, and not a character's key (GramKey).
func Stemmable(word string) bool {
	if strings.HasPrefix(word, "~") {
		return false
	}
	n := 0
	for _, r := range word {
		if unicode.IsNumber(r) {
			return false
		}
		n++
	}
	return n >= 3
}
