package terms

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/chromedp/chromedp"
	"github.com/dop251/goja"

	"github.com/curex/curex/exporter/internal/chromium"
)

// stemmerWords are words of each language the cross-check stems in goja
// and in Chromium; TestStem holds the stems that matter for search.
var stemmerWords = map[string][]string{
	"en": {"solving", "solve", "solves", "solved", "equations", "equation", "equasion", "variables", "coefficient", "happiness", "running", "generalizations", "fractions", "linear"},
	"es": {"ecuaciones", "ecuacion", "resolver", "resolviendo", "variables", "lineales", "fracciones", "numero", "sistemas", "aprendizaje"},
	"fr": {"equations", "equation", "resoudre", "resolvons", "variables", "lineaires", "fractions", "nombres", "apprentissage"},
	"de": {"gleichungen", "gleichung", "losen", "variablen", "lineare", "bruche", "zahlen", "lernziele"},
	"pt": {"equacoes", "equacao", "resolver", "resolvendo", "variaveis", "lineares", "fracoes", "numeros"},
	"it": {"equazioni", "equazione", "risolvere", "variabili", "lineari", "frazioni", "numeri"},
	"nl": {"vergelijkingen", "vergelijking", "oplossen", "variabelen", "lineaire", "breuken", "getallen"},
	"ru": {"уравнения", "уравнение", "решение", "решать", "переменные", "линейные", "дроби"},
	"ar": {"معادلة", "المعادلات", "معادلات", "المتغيرات", "متغير", "حل", "الكسور"},
	"sv": {"ekvationer", "ekvation", "losa", "variabler"},
	"tr": {"denklemler", "denklem", "cozmek", "degiskenler"},
	"fi": {"yhtalot", "yhtalo", "ratkaista", "muuttujat"},
	"el": {"εξισωσεις", "εξισωση", "μεταβλητες"},
	"da": {"ligninger", "ligning", "variable"}, "no": {"likninger", "likning", "variabler"},
	"hu": {"egyenletek", "egyenlet", "valtozok"}, "ro": {"ecuatii", "ecuatie", "variabile"},
	"id": {"persamaan", "memecahkan", "variabel"}, "ga": {"cothromoidi", "athroga"},
	"hi": {"समीकरणों", "समीकरण"}, "ne": {"समीकरणहरू", "समीकरण"}, "hy": {"հավասարումներ", "հավասարում"},
	"lt": {"lygtys", "lygtis", "kintamieji"}, "sr": {"једначине", "једначина", "jednacine"}, "ta": {"சமன்பாடுகள்", "சமன்பாடு"},
}

// TestStem: the stems search depends on, in the languages of the sample
// and the issue (inflections of one word share a stem).
func TestStem(t *testing.T) {
	t.Parallel()
	s := NewStemmers()
	for _, tc := range []struct {
		lang  string
		words []string // all with one stem
	}{
		{"en", []string{"solving", "solve", "solves", "solved"}},
		{"en", []string{"equations", "equation"}},
		{"en", []string{"variables", "variable"}},
		{"es", []string{"ecuaciones", "ecuacion"}},
		{"es", []string{"resolver", "resolviendo"}},
		{"fr", []string{"equations", "equation"}},
		{"de", []string{"gleichungen", "gleichung"}},
		{"pt", []string{"numeros", "numero"}},
		{"it", []string{"equazioni", "equazione"}},
		{"nl", []string{"vergelijkingen", "vergelijking"}},
		{"ru", []string{"уравнения", "уравнение"}},
		{"ar", []string{"معادلة", "المعادلات"}},
	} {
		st, err := s.For(tc.lang)
		if err != nil {
			t.Fatal(err)
		}
		want := st.Stem(tc.words[0])
		for _, w := range tc.words[1:] {
			if got := st.Stem(w); got != want {
				t.Errorf("%s: stem(%q) = %q, stem(%q) = %q; want one stem", tc.lang, tc.words[0], want, w, got)
			}
		}
	}
	en, err := s.For("en")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"x", "ab", "11", "hsa2", "3d"} {
		if got := en.Stem(w); got != w {
			t.Errorf("stem(%q) = %q, want the word itself (short or with a digit)", w, got)
		}
	}
}

// TestLanguage maps locale codes to stemmers: regions and the Norwegian
// written forms fold; Chinese, Japanese and Korean have none.
func TestLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ code, want string }{
		{"en", "en"}, {"es-MX", "es"}, {"pt_BR", "pt"}, {"AR", "ar"}, {"nb", "no"}, {"nn-NO", "no"},
		{"ja", ""}, {"zh-Hans", ""}, {"ko", ""}, {"", ""}, {"xx", ""}, {"../en", ""},
	} {
		if got := Language(tc.code); got != tc.want {
			t.Errorf("Language(%q) = %q, want %q", tc.code, got, tc.want)
		}
	}
	if _, err := NewStemmers().For("ja"); !errors.Is(err, ErrNoStemmer) {
		t.Errorf("For(ja): %v, want ErrNoStemmer", err)
	}
	for _, l := range Languages() {
		if _, ok := stemmerWords[l]; !ok {
			t.Errorf("%s: a stemmer with no words in the cross-check", l)
		}
	}
}

// TestWords cuts folded text as search.js does.
func TestWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Solve 2x + 3 = 11.", []string{"solve", "2x", "3", "11"}},
		{"CCSS.MATH.CONTENT.HSA.REI.D.11", []string{"ccss", "math", "content", "hsa", "rei", "d", "11"}},
		{"Ecuación lineal", []string{"ecuacion", "lineal"}},
		{"المُعادَلات", []string{"المعادلات"}},
		{"変数 and 方程式を解く", []string{"and"}},
		{"समीकरणों को", []string{"समीकरणों", "को"}},
		{"ﬁnd ＡＢＣ", []string{"find", "abc"}},
		{"", nil},
	} {
		if got := Words(Fold(tc.in)); !slices.Equal(got, tc.want) {
			t.Errorf("Words(Fold(%q)) = %q, want %q", tc.in, got, tc.want)
		}
		if got := AppendWords([]string{"x"}, Fold(tc.in)); !slices.Equal(got, append([]string{"x"}, tc.want...)) {
			t.Errorf("AppendWords(x, Fold(%q)) = %q, want x then %q", tc.in, got, tc.want)
		}
	}
}

// FuzzWords: the words of any text are non-empty runs of it, with
// nothing but letters, marks and numbers and no CJK, and the stemmer
// takes any of them without failing.
func FuzzWords(f *testing.F) {
	f.Add("Solve 2x + 3 = 11")
	f.Add("المُعادَلات 変数 ＡＢＣ\u0301")
	f.Add("\xff\xfe")
	en, err := NewStemmers().For("en")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		folded := Fold(s)
		for _, w := range Words(folded) {
			if w == "" || !strings.Contains(folded, w) {
				t.Fatalf("word %q not in %q", w, folded)
			}
			for _, r := range w {
				if !isWord(r) || isCJK(r) || r == utf8.RuneError && !strings.ContainsRune(folded, utf8.RuneError) {
					t.Fatalf("word %q holds %q", w, r)
				}
			}
			_ = en.Stem(w)
		}
	})
}

// TestAppendGrams: the characters of the runs with a CJK character give
// their keys, in order; other text gives none.
func TestAppendGrams(t *testing.T) {
	keys := func(s string) []string {
		var out []string
		for _, r := range s {
			out = append(out, GramKey(r))
		}
		return out
	}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Solve 2x + 3 = 11", nil},
		{"方程式", keys("方程式")},
		{"一次方程式を解く", keys("一次方程式を解く")},
		{"第2章 a", keys("第2章")},
		{"ＡＢ 変数", keys("変数")},
		{"수학 math", keys("수학")},
	} {
		if got := AppendGrams([]string{"x"}, Fold(tc.in)); !slices.Equal(got, append([]string{"x"}, tc.want...)) {
			t.Errorf("AppendGrams(x, Fold(%q)) = %q, want x then %q", tc.in, got, tc.want)
		}
	}
	if k := GramKey('方'); k != "~b9方" {
		t.Errorf("GramKey(方) = %q, want ~b9方 (U+65B9)", k)
	}
}

// FuzzAppendGrams: every key of a text is a character of it behind its
// "~" and two digits, and any part of a CJK run of the text (what a
// reader may type to find it) has the keys of its characters among the
// text's: search.js then reads only the nodes that hold them all.
func FuzzAppendGrams(f *testing.F) {
	f.Add("一次方程式を解く 第2章", 1, 3)
	f.Add("수학 math 変数", 0, 2)
	f.Add("\xff方\xfe程", 0, 2)
	f.Fuzz(func(t *testing.T, s string, from, n int) {
		folded := Fold(s)
		keys := AppendGrams(nil, folded)
		for _, k := range keys {
			r, size := utf8.DecodeRuneInString(k[min(3, len(k)):])
			if len(k) < 4 || k[:3] != GramKey(r)[:3] || 3+size != len(k) || !strings.ContainsRune(folded, r) {
				t.Fatalf("key %q of %q", k, folded)
			}
		}
		for _, w := range strings.FieldsFunc(folded, func(r rune) bool { return !isWord(r) }) {
			rs := []rune(w)
			if !slices.ContainsFunc(rs, isCJK) {
				continue
			}
			from = min(max(from, 0), len(rs)-1)
			for _, r := range rs[from:min(len(rs), from+max(n, 1))] {
				if !slices.Contains(keys, GramKey(r)) {
					t.Fatalf("%q: the key of %q not among %q", folded, r, keys)
				}
			}
			break
		}
	})
}

// crossCheckPage loads every stemmer with a <script> element, as a page
// of the site does.
const crossCheckPage = `<!doctype html><meta charset="utf-8"><title>stemmers</title>%s`

// TestStemmersMatchBrowser stems the word lists in goja (the build) and
// in headless Chromium (the search box) and wants the same stems: the
// same scripts in two JavaScript engines. It skips without Chromium
// (fails with CUREX_REQUIRE_TOOLS=1) and with -short.
func TestStemmersMatchBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	b, err := chromium.Launch(context.Background(), chromium.Options{})
	if err != nil {
		if errors.Is(err, chromium.ErrNoBrowser) && os.Getenv("CUREX_REQUIRE_TOOLS") != "1" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	dir := t.TempDir()
	var tags strings.Builder
	for _, l := range Languages() {
		js, _ := Script(l)
		if err := os.WriteFile(filepath.Join(dir, l+".js"), js, 0o644); err != nil {
			t.Fatal(err)
		}
		tags.WriteString(`<script src="` + l + `.js"></script>`)
	}
	page := filepath.Join(dir, "index.html")
	if err := os.WriteFile(page, []byte(strings.Replace(crossCheckPage, "%s", tags.String(), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	words, err := json.Marshal(stemmerWords)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string][]string
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String()
	err = b.Run(ctx, u, func(tab context.Context) error {
		got, err = chromedp.Run(tab, chromedp.Evaluate[map[string][]string](`((w) => Object.fromEntries(Object.entries(w).map(([l, ws]) => [l, ws.map((x) => globalThis.curexStem[l](x))])))(`+string(words)+`)`))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	s := NewStemmers()
	for lang, ws := range stemmerWords {
		st, err := s.For(lang)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range ws {
			var want string
			if v, err := st.fn(goja.Undefined(), st.vm.ToValue(w)); err == nil {
				want = v.String()
			}
			if i >= len(got[lang]) || got[lang][i] != want {
				t.Errorf("%s: %q: goja %q, Chromium %q", lang, w, want, got[lang])
			}
		}
	}
}

// TestStemmersConcurrent: trees render side by side and share one
// Stemmers; For and Stem are safe to call at once (run with -race).
func TestStemmersConcurrent(t *testing.T) {
	t.Parallel()
	s := NewStemmers()
	es, err := NewStemmers().For("es")
	if err != nil {
		t.Fatal(err)
	}
	wantES := es.Stem("equations")
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Go(func() {
			st, err := s.For([]string{"en", "es"}[i%2])
			if err != nil {
				t.Error(err)
				return
			}
			for range 50 {
				got[i] = st.Stem("equations")
			}
		})
	}
	wg.Wait()
	for i, g := range got {
		if want := []string{"equat", wantES}[i%2]; g != want {
			t.Errorf("goroutine %d: %q, want %q", i, g, want)
		}
	}
}

// TestStemMemoKeptAcrossUses: a Stemmers kept between builds (curex dev)
// stems a word once; the second pass over the same text runs no
// interpreter, and its stems are those of a fresh Stemmers.
func TestStemMemoKeptAcrossUses(t *testing.T) {
	t.Parallel()
	text := Words(Fold("Solving linear equations: variables, coefficients and equations again"))
	kept := NewStemmers()
	stemAll := func(s *Stemmers) []string {
		st, err := s.For("en")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, w := range text {
			out = append(out, st.Stem(w))
		}
		return out
	}
	first := stemAll(kept)
	runs := kept.Runs()
	if runs == 0 || runs > int64(len(text)) {
		t.Fatalf("first pass ran the interpreter %d times for %d words", runs, len(text))
	}
	second := stemAll(kept)
	if got := kept.Runs(); got != runs {
		t.Errorf("second pass ran the interpreter %d more times, want 0", got-runs)
	}
	fresh := stemAll(NewStemmers())
	if !slices.Equal(first, second) || !slices.Equal(first, fresh) {
		t.Errorf("stems differ: first %q, second %q, fresh %q", first, second, fresh)
	}
}

// TestStemMemoBounded: the memo holds at most two generations of its
// limit; a vocabulary within the limit, asked for again, stays whole,
// and a larger one still stems right.
func TestStemMemoBounded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		limit      int
		vocabulary int
		wantRerun  bool // the second pass stems some words again
	}{
		{"fits", 64, 50, false},
		{"fits exactly", 50, 50, false},
		{"twice the limit", 20, 40, true},
		{"far over", 8, 100, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := NewStemmers()
			s.limit = tc.limit
			st, err := s.For("en")
			if err != nil {
				t.Fatal(err)
			}
			ref, err := NewStemmers().For("en")
			if err != nil {
				t.Fatal(err)
			}
			words := make([]string, tc.vocabulary)
			for i := range words {
				words[i] = "solving" + strings.Repeat("s", i) // distinct, stemmable, no digit
			}
			for pass := range 2 {
				before := s.Runs()
				for _, w := range words {
					if got, want := st.Stem(w), ref.Stem(w); got != want {
						t.Fatalf("pass %d: Stem(%q) = %q, want %q", pass, w, got, want)
					}
					if n := st.memo.len(); n > 2*tc.limit {
						t.Fatalf("memo holds %d words, limit %d", n, tc.limit)
					}
				}
				if pass == 1 && (s.Runs() > before) != tc.wantRerun {
					t.Errorf("second pass stemmed %d words again, want again: %v", s.Runs()-before, tc.wantRerun)
				}
			}
		})
	}
}

// TestStemMemoCopiesWords: the memo keeps a copy of a word, not the text
// it is a slice of (a page's whole body would otherwise stay in memory
// for the life of a dev session).
func TestStemMemoCopiesWords(t *testing.T) {
	t.Parallel()
	st, err := NewStemmers().For("en")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("x", 1<<10) + " equations"
	word := Words(text)[1]
	st.Stem(word)
	st.memo.mu.RLock()
	defer st.memo.mu.RUnlock()
	for k, v := range st.memo.cur {
		for _, s := range []string{k, v} {
			if unsafe.StringData(s) == unsafe.StringData(word) {
				t.Errorf("memo keeps %q as a slice of the text", s)
			}
		}
	}
}

// TestStemMemoConcurrent: page workers stem at once through one memo
// while it turns over its generations (run with -race); every stem is
// the interpreter's.
func TestStemMemoConcurrent(t *testing.T) {
	t.Parallel()
	s := NewStemmers()
	s.limit = 4
	st, err := s.For("en")
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"solving", "equations", "variables", "coefficients", "fractions", "happiness", "running", "linear"}
	ref, err := NewStemmers().For("en")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 40 {
				w := words[(g+i)%len(words)]
				if got, want := st.Stem(w), ref.Stem(w); got != want {
					t.Errorf("Stem(%q) = %q, want %q", w, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestRuneClassesFastPaths: isWord and isCJK, with their shortcuts for
// ASCII and for runes below cjkFirst, answer as the Unicode tables do
// for every rune.
func TestRuneClassesFastPaths(t *testing.T) {
	t.Parallel()
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := isWord(r), unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r); got != want {
			t.Fatalf("isWord(%U) = %v, want %v", r, got, want)
		}
		if got, want := isCJK(r), unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul); got != want {
			t.Fatalf("isCJK(%U) = %v, want %v", r, got, want)
		}
	}
}
