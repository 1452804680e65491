package attrs

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParse reads arbitrary bytes as one member, under an arbitrary key,
// beside a description and a title: Parse must not panic, must keep its
// order and omissions, must give shapes that keep the package's promises
// and must give the same sections twice.
func FuzzParse(f *testing.F) {
	// Shapes on the edge of a kind: a term on two lines, nine columns,
	// records with a list, depth past MaxDepth, duplicate keys, bad UTF-8.
	for _, s := range []struct{ key, raw string }{
		{"vocabulary", `[{"word":"a\nb","meaning":"m"},{"term":" ","text":"t"}]`},
		{"rubric", `[{"a":1,"b":2,"c":3,"d":4,"e":5},{"f":"6","g":null,"h":true,"i":"x"}]`},
		{"levels", `[{"criterion":"c","levels":["a","b"]},{"x":"y\rz"}]`},
		{"mixed", `["s",{"term":"t","definition":"d"},{},[1,[2]],null]`},
		{"deep object", strings.Repeat(`{"a":`, 20) + `[1,2]` + strings.Repeat(`}`, 20)},
		{"title", `"Title"`},
		{"description", `["not","a string"]`},
		{"n", `-0.0e-0`},
		{"dup", `{"a":1,"a":null}`},
		{"bad utf8", "\"\xff\xfe\""},
		{"trailing", `{} {}`},
	} {
		f.Add(s.key, []byte(s.raw))
	}
	f.Fuzz(func(t *testing.T, key string, raw []byte) {
		m := map[string]json.RawMessage{
			key:           raw,
			"description": json.RawMessage(`"Intro"`),
			"title":       json.RawMessage(`"Title"`),
		}
		got := Parse(m, "Title")
		again := Parse(m, "Title")
		if len(got) != len(again) {
			t.Fatal("not deterministic")
		}
		for i, s := range got {
			if show(s.Value) != show(again[i].Value) || s.Key != again[i].Key || s.Lead != again[i].Lead {
				t.Fatalf("not deterministic: %s, then %s", show(s.Value), show(again[i].Value))
			}
			if i > 0 && cmpKey(got[i-1].Key, s.Key) >= 0 {
				t.Fatalf("%q before %q", got[i-1].Key, s.Key)
			}
			if s.Lead && (s.Key != KeyDescription || s.Value.Kind != Text) {
				t.Fatalf("lead %q of kind %d", s.Key, s.Value.Kind)
			}
			if s.Key == KeyTitle && s.Value.Kind == Text && strings.TrimSpace(s.Value.Text) == "Title" {
				t.Fatal("title repeated")
			}
			if s.Value.Kind == Null {
				t.Fatal("null section")
			}
			check(t, s.Value, 1)
		}
	})
}
