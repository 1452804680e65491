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
	for _, s := range []struct{ key, raw string }{
		{"notes", `"Some *markdown*"`},
		{"vocabulary", `[{"term":"<b>t</b>","definition":"[d](javascript:x)"}]`},
		{"rubric", `[{"criterion":"c","points":3},{"criterion":null}]`},
		{"levels", `[{"criterion":"c","levels":["a","b"]},{"x":"y\nz"}]`},
		{`<b>key"`, `{"a":{"b":[1,2.5e3,true,null,"x"]}}`},
		{"deep", strings.Repeat("[", 50) + strings.Repeat("]", 50)},
		{"deep object", strings.Repeat(`{"a":`, 20) + `1` + strings.Repeat(`}`, 20)},
		{"broken", `{"a": <script>}`},
		{"title", `"Title"`},
		{"description", `{"not":"a string"}`},
		{"learning_objectives", `"one string"`},
		{"", `""`},
		{"n", `-0.0e-0`},
		{"dup", `{"a":1,"a":null}`},
		{"bad utf8", "\"\xff\xfe\""},
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
