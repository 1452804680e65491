package attrs

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
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

// FuzzValuesOfAKind: Count, Date and Link read untrusted strings; none
// panics, and what each accepts is what it says: a count's literal as
// given, a date of the form the value starts with, a link with an http
// or https scheme and no white space.
func FuzzValuesOfAKind(f *testing.F) {
	for _, s := range []string{"2026-03-03", "2026-03-03T23:30:00-08:00", "https://example.org/a", "12500", "-2.5", "1e5", "javascript:x"} {
		f.Add("item_count", s)
	}
	f.Fuzz(func(t *testing.T, key, s string) {
		if n, ok := Count(key, Value{Kind: Number, Text: s}); ok && n != s {
			t.Fatalf("Count(%q) = %q", s, n)
		}
		if d, ok := Date(Value{Kind: Text, Text: s}); ok && !strings.HasPrefix(strings.TrimSpace(s), d.Format(time.DateOnly)) {
			t.Fatalf("Date(%q) = %s", s, d)
		}
		if u, ok := Link(Value{Kind: Text, Text: s}); ok {
			l := strings.ToLower(u)
			if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") || strings.ContainsAny(u, " \t\r\n<>") {
				t.Fatalf("Link(%q) = %q", s, u)
			}
		}
	})
}

// FuzzLiteral holds literal, decode's own reading of strings and numbers,
// to encoding/json's: whatever literal accepts, encoding/json reads as one
// value, the same.
func FuzzLiteral(f *testing.F) {
	for _, s := range []string{`"a"`, `""`, `"a\nb\"c\\d\/e\tf"`, `"\u00e9"`, `"\u0026\u00E9\ud83d\ude00"`, "\"\xc3\\u00a9\"", "\"\xff\"", `"a"b"`, `"\"`, `"\q"`, "\"\x01\"",
		`0`, `-0`, `-0.0e-0`, `12`, `012`, `1.`, `1e`, `1e+5`, `.5`, `-`, `1.5E-3`, `"é ü 日本"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) == 0 {
			return
		}
		got, ok := literal(raw)
		if !ok {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("literal(%q) = %#v, encoding/json: %v", raw, got, err)
		}
		if _, err := dec.Token(); err != io.EOF {
			t.Fatalf("literal(%q) = %#v, but encoding/json reads more after it", raw, got)
		}
		if got != want {
			t.Fatalf("literal(%q) = %#v, encoding/json: %#v", raw, got, want)
		}
	})
}
