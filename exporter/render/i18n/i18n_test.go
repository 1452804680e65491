package i18n

import (
	"regexp"
	"testing"
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

var verbs = regexp.MustCompile(`%[ds]`)

func TestMessageCatalogsAreComplete(t *testing.T) {
	t.Parallel()
	for lang, m := range catalogs {
		for key, en := range catalogs["en"] {
			s, ok := m[key]
			if !ok {
				t.Errorf("%s: missing %q", lang, key)
				continue
			}
			if verbs.FindAllString(s, -1) == nil != (verbs.FindAllString(en, -1) == nil) || len(verbs.FindAllString(s, -1)) != len(verbs.FindAllString(en, -1)) {
				t.Errorf("%s: %q = %q does not take the arguments of %q", lang, key, s, en)
			}
		}
	}
	if For("pt-BR")["next"] != "Próximo" || For("zh-Hans")["next"] != "下一页" || For("xx")["next"] != "Next" {
		t.Error("For does not fall back by language")
	}
}
