package i18n

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestRTL(t *testing.T) {
	t.Parallel()
	for code, want := range map[string]bool{
		"ar": true, "ar-EG": true, "he": true, "fa": true, "ur": true, "ps": true, "sd": true, "ug": true,
		"yi": true, "dv": true, "ckb": true, "en": false, "es": false, "ja": false, "zh-Hans": false,
		"az-Arab": true, "ug-Latn": false, "pt-BR": false, "": false,
	} {
		if RTL(code) != want {
			t.Errorf("RTL(%q) = %v", code, !want)
		}
	}
}

// TestEveryLocaleHasEveryEnglishKey checks the built-in word files: the
// eight languages, each with every English key and no other, each text
// taking the English one's arguments.
func TestEveryLocaleHasEveryEnglishKey(t *testing.T) {
	t.Parallel()
	c := Builtin()
	if got, want := c.Languages(), []string{"ar", "de", "en", "es", "fr", "ja", "pt", "zh"}; !slices.Equal(got, want) {
		t.Errorf("languages %v, want %v", got, want)
	}
	en := c.langs[english]
	if len(en) < 90 {
		t.Errorf("English has %d words; words/en.json did not load", len(en))
	}
	for _, lang := range c.Languages() {
		m := c.langs[lang]
		for key, want := range en {
			s, ok := m[key]
			if !ok {
				t.Errorf("%s: missing %q", lang, key)
				continue
			}
			if !slices.Equal(verbs(s), verbs(want)) {
				t.Errorf("%s: %q = %q does not take the arguments of %q", lang, key, s, want)
			}
		}
		if len(m) != len(en) {
			t.Errorf("%s: %d words, English %d", lang, len(m), len(en))
		}
	}
}

func TestFor(t *testing.T) {
	t.Parallel()
	tests := []struct{ code, key, want string }{
		{"pt-BR", "next", "Próximo"},
		{"pt_br", "next", "Próximo"},
		{"zh-Hans", "next", "下一页"},
		{"xx", "next", "Next"},
		{"", "next", "Next"},
		{"ES", "previous", "Anterior"},
	}
	for _, tc := range tests {
		if got := For(tc.code)[tc.key]; got != tc.want {
			t.Errorf("For(%q)[%q] = %q, want %q", tc.code, tc.key, got, tc.want)
		}
	}
	if got := For("fr").T("no_such_key"); got != "no_such_key" {
		t.Errorf("T of an unknown key = %q, want the key", got)
	}
	if !Has("es-MX") || Has("xx") {
		t.Error("Has does not go by language")
	}
}

func TestParseBuiltinRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"no English", map[string]string{"words/es.json": `{"next":"Siguiente"}`}, "no words/en.json"},
		{"missing key", map[string]string{"words/en.json": `{"next":"Next","previous":"Previous"}`, "words/es.json": `{"next":"Siguiente"}`}, `words/es.json: no "previous"`},
		{"extra key", map[string]string{"words/en.json": `{"next":"Next"}`, "words/es.json": `{"next":"Siguiente","nxt":"x"}`}, `words/es.json: "nxt" is not in`},
		{"not strings", map[string]string{"words/en.json": `{"next":1}`}, `words/en.json: "next": want a string`},
		{"not JSON", map[string]string{"words/en.json": `next = Next`}, `words/en.json: want a JSON object`},
	}
	for _, tc := range tests {
		fsys := fstest.MapFS{}
		for name, data := range tc.files {
			fsys[name] = &fstest.MapFile{Data: []byte(data)}
		}
		_, err := parseBuiltin(fsys)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// TestThemeOverridesWords: a theme's i18n/<locale>.json replaces the words
// it names for that locale, and its regional codes, and no others.
func TestThemeOverridesWords(t *testing.T) {
	t.Parallel()
	c, err := Builtin().WithOverrides(map[string][]byte{
		"i18n/es.json":    []byte(`{"next": "Adelante", "search_results": "%d resultados encontrados"}`),
		"i18n/es-MX.json": []byte(`{"previous": "Atrás"}`),
		"i18n/it.json":    []byte(`{"next": "Avanti"}`),
		"assets/x.json":   []byte(`not words`),
		"i18n/sub/x.json": []byte(`not words either`),
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ code, key, want string }{
		{"es", "next", "Adelante"},
		{"es", "previous", "Anterior"},
		{"es-AR", "next", "Adelante"},
		{"es-MX", "next", "Adelante"},
		{"es_mx", "previous", "Atrás"},
		{"it", "next", "Avanti"},
		{"it", "previous", "Previous"},
		{"fr", "next", "Suivant"},
	}
	for _, tc := range tests {
		if got := c.For(tc.code)[tc.key]; got != tc.want {
			t.Errorf("For(%q)[%q] = %q, want %q", tc.code, tc.key, got, tc.want)
		}
	}
	if got := c.For("es").T("search_results", 3); got != "3 resultados encontrados" {
		t.Errorf("T = %q", got)
	}
	if For("es")["next"] != "Siguiente" {
		t.Error("overriding changed the built-in words")
	}
	if same, err := Builtin().WithOverrides(map[string][]byte{"site.html": nil}); err != nil || same != Builtin() {
		t.Errorf("a theme without words: %v, %v", same, err)
	}
}

// TestThemeOverrideBadKey: a word curex does not have, or a text that
// does not take the English arguments, is an error naming the file and
// the key.
func TestThemeOverrideBadKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		files   map[string]string
		file    string
		key     string
		wantErr error
		msg     string
	}{
		{"unknown key", map[string]string{"i18n/fr.json": `{"suivant": "Après"}`}, "i18n/fr.json", "suivant", ErrUnknownKey,
			`i18n/fr.json: "suivant": no such word`},
		{"arguments dropped", map[string]string{"i18n/de.json": `{"search_results": "Ergebnisse"}`}, "i18n/de.json", "search_results", ErrArguments, ""},
		{"arguments changed", map[string]string{"i18n/de.json": `{"search_results": "%s Ergebnisse"}`}, "i18n/de.json", "search_results", ErrArguments, ""},
		{"stray percent", map[string]string{"i18n/de.json": `{"next": "100%"}`}, "i18n/de.json", "next", ErrArguments, ""},
		{"not a string", map[string]string{"i18n/ja.json": `{"next": ["次"]}`}, "i18n/ja.json", "", nil, `"next": want a string`},
		{"not an object", map[string]string{"i18n/ja.json": `["next"]`}, "i18n/ja.json", "", nil, "want a JSON object"},
		{"null", map[string]string{"i18n/ja.json": `null`}, "i18n/ja.json", "", nil, "not null"},
		{"trailing data", map[string]string{"i18n/ja.json": `{} {}`}, "i18n/ja.json", "", nil, "nothing after it"},
		{"not a locale", map[string]string{"i18n/spanish.json": `{}`}, "i18n/spanish.json", "", nil, "not a locale code"},
		{"two files for one locale", map[string]string{"i18n/es.json": `{}`, "i18n/ES.json": `{}`}, "", "", nil, "a second file for locale es"},
	}
	for _, tc := range tests {
		files := map[string][]byte{}
		for name, data := range tc.files {
			files[name] = []byte(data)
		}
		_, err := Builtin().WithOverrides(files)
		var oe *OverrideError
		if !errors.As(err, &oe) {
			t.Errorf("%s: error %v, want an *OverrideError", tc.name, err)
			continue
		}
		if tc.file != "" && oe.File != tc.file || oe.Key != tc.key {
			t.Errorf("%s: file %q key %q, want %q %q", tc.name, oe.File, oe.Key, tc.file, tc.key)
		}
		if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: %v is not %v", tc.name, err, tc.wantErr)
		}
		if !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), oe.File) {
			t.Errorf("%s: %q does not name the file or say %q", tc.name, err, tc.msg)
		}
	}
}

func TestVerbs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    string
		want []string
	}{
		{"From %s, in %s", []string{"%s", "%s"}},
		{"%d results", []string{"%d"}},
		{"100%% sure", nil},
		{"100%", []string{"%!"}},
		{"% off", []string{"%!"}},
		{"no verbs", nil},
	}
	for _, tc := range tests {
		if got := verbs(tc.s); !slices.Equal(got, tc.want) {
			t.Errorf("verbs(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// FuzzWithOverrides feeds a theme's word file to WithOverrides: it never
// panics, and an accepted file changes only the words it names.
func FuzzWithOverrides(f *testing.F) {
	f.Add(`{"next": "Adelante"}`)
	f.Add(`{"search_results": "%d"}`)
	f.Add(`{"x": 1}`)
	f.Add(`null`)
	f.Add(`{"next": "a", "next": "b"}`)
	f.Fuzz(func(t *testing.T, data string) {
		c, err := Builtin().WithOverrides(map[string][]byte{"i18n/es.json": []byte(data)})
		if err != nil {
			var oe *OverrideError
			if !errors.As(err, &oe) || oe.File != "i18n/es.json" {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		got, es := c.For("es"), For("es")
		if len(got) != len(es) {
			t.Fatalf("%d words, want %d", len(got), len(es))
		}
		if c.For("fr")["next"] != For("fr")["next"] {
			t.Fatal("an override of es changed fr")
		}
	})
}
