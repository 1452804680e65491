package html

import (
	"encoding/json"
	"testing"

	"github.com/curex/curex/exporter/internal/jsonstr"
)

// jsonHostile are strings that every escape of encoding/json meets:
// quotes, backslashes, control characters, markup, line separators,
// invalid UTF-8, and text that needs none.
var jsonHostile = []string{
	"", "plain text", `"quoted" \back\slash`, "\b\f\n\r\t\x00\x01\x1f\x7f",
	"</script><!-- a < b & c > d", "line\u2028para\u2029end", "bad \xff\xfe utf-8 \xe2\x82",
	"Ecuación · المعادلات · 変数 · 😀", "\u2027\u202a\ufffd",
}

// TestSearchJSONAsMarshal: the encoders of search_json.go write each
// type of the index byte for byte as json.Marshal does, empty and nil
// parts included.
func TestSearchJSONAsMarshal(t *testing.T) {
	t.Parallel()
	same := func(name string, v any, got []byte) {
		t.Helper()
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	var fields []searchField
	for _, s := range jsonHostile {
		same("string", s, jsonstr.AppendHTMLSafe(nil, s))
		fields = append(fields, searchField{Key: s, Label: s + "l", Text: "t" + s})
	}
	entries := []searchEntry{
		{ID: "n1", Title: jsonHostile[4], TypeDisplay: "Lesson 1", Path: "n1.html", Text: jsonHostile[6], Fields: fields},
		{ID: jsonHostile[3], Lang: "en", Fields: []searchField{}},
		{},
	}
	same("entries", entries, appendJSONEntries(nil, entries))
	same("no entries", []searchEntry{}, appendJSONEntries(nil, []searchEntry{}))
	same("nil entries", []searchEntry(nil), appendJSONEntries(nil, nil))
	for _, ti := range []searchTitles{
		{First: 64, Nodes: [][]string{{"a", "b", "c"}, jsonHostile, {}, nil}},
		{Nodes: [][]string{}},
		{},
	} {
		same("titles", ti, ti.appendJSON(nil))
	}
	for _, c := range []searchChunk{
		{First: 3, Nodes: [][]any{{0, jsonHostile[4], 12, jsonHostile[5]}, {}, nil, {1.5, true, nil, []int{1}}}},
		{Nodes: [][]any{}},
		{},
	} {
		got, err := c.appendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		same("chunk", c, got)
	}
	for _, tm := range []searchTerms{
		{Terms: map[string][]int{"solv": {1, 17, 300}, "b": {}, "a": nil, jsonHostile[6]: {-1}, "ä": {2}},
			Words: map[string]string{"solv": "solve solving", jsonHostile[4]: jsonHostile[5]}},
		{Terms: map[string][]int{}, Words: map[string]string{}},
		{},
	} {
		same("terms", tm, tm.appendJSON(nil))
	}
}
