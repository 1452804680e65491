package changes

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/model"
)

func node(id, parent, title, content string, translated bool) Node {
	return Node{ID: id, Parent: parent, Title: title, Content: content, Translated: translated, Path: "c/v/l/" + id + "/index.html"}
}

func kinds(e Entry) string {
	var b []string
	add := func(kind string, ids []string) {
		if len(ids) > 0 {
			b = append(b, kind+":"+strings.Join(ids, ","))
		}
	}
	ids := func(items []Item) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.ID)
		}
		return out
	}
	var moved, retitled []string
	for _, m := range e.Moved {
		moved = append(moved, fmt.Sprintf("%s(%s>%s)", m.ID, m.From, m.To))
	}
	for _, r := range e.Retitled {
		retitled = append(retitled, fmt.Sprintf("%s(%s>%s)", r.ID, r.From, r.Title))
	}
	add("added", ids(e.Added))
	add("removed", ids(e.Removed))
	add("moved", moved)
	add("retitled", retitled)
	add("content", ids(e.ContentChanged))
	add("translated", ids(e.Translated))
	return strings.Join(b, " ")
}

func TestDiff(t *testing.T) {
	base := Snapshot{ETag: "1", Nodes: []Node{
		node("u1", "", "Unit 1", "c", true),
		node("l1", "u1", "Lesson 1", "c", true),
		node("l2", "u1", "Lesson 2", "c", false),
		node("u2", "", "Unit 2", "c", true),
	}}
	for _, tc := range []struct {
		name string
		cur  []Node
		want string
	}{
		{"nothing", base.Nodes, ""},
		{"added and removed", []Node{base.Nodes[0], base.Nodes[1], node("l3", "u1", "Lesson 3", "c", true), base.Nodes[3]}, "added:l3 removed:l2"},
		{"moved", []Node{base.Nodes[0], base.Nodes[1], base.Nodes[3], node("l2", "u2", "Lesson 2", "c", false)}, "moved:l2(Unit 1>Unit 2)"},
		{"reordered is no move", []Node{base.Nodes[0], base.Nodes[2], base.Nodes[1], base.Nodes[3]}, ""},
		{"retitled", []Node{node("u1", "", "Unit One", "c", true), base.Nodes[1], base.Nodes[2], base.Nodes[3]}, "retitled:u1(Unit 1>Unit One)"},
		{"content", []Node{base.Nodes[0], node("l1", "u1", "Lesson 1", "d", true), base.Nodes[2], base.Nodes[3]}, "content:l1"},
		{"newly translated, title and all", []Node{base.Nodes[0], base.Nodes[1], node("l2", "u1", "Lección 2", "d", true), base.Nodes[3]}, "translated:l2"},
		{"translation withdrawn is a retitle", []Node{base.Nodes[0], node("l1", "u1", "Lesson 1 (en)", "c", false), base.Nodes[2], base.Nodes[3]}, "retitled:l1(Lesson 1>Lesson 1 (en))"},
		{"a repeated id counts once", []Node{base.Nodes[0], base.Nodes[1], base.Nodes[1], base.Nodes[2], base.Nodes[3]}, ""},
		{"everything gone", nil, "removed:u1,l1,l2,u2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := Diff(base, Snapshot{ETag: "2", Nodes: tc.cur})
			if got := kinds(e); got != tc.want {
				t.Errorf("Diff = %q, want %q", got, tc.want)
			}
			if e.Empty() != (tc.want == "") || e.ETag != "2" || e.PreviousETag != "1" {
				t.Errorf("Empty %v, ETags %q %q", e.Empty(), e.PreviousETag, e.ETag)
			}
			for _, it := range e.Removed {
				if it.Path != "" {
					t.Errorf("removed %s links %s", it.ID, it.Path)
				}
			}
		})
	}
}

func TestOfHashesContentNotLayout(t *testing.T) {
	tree := func(desc string) *model.Tree {
		return &model.Tree{Export: model.Export{Locale: "es", PrimaryLocale: "en"}, ETag: "x", Nodes: []*model.Node{{
			ID: "n", Title: "T", Attributes: map[string]json.RawMessage{"description": json.RawMessage(desc), "a": json.RawMessage(`{"y":1,"x":2}`)},
			Translation: model.Translation{IsTranslated: true},
		}}}
	}
	a, b, c := Of(tree(`"same"`)), Of(tree(` "same" `)), Of(tree(`"other"`))
	if a.Nodes[0].Content != b.Nodes[0].Content {
		t.Error("white space in a value changed the content hash")
	}
	if a.Nodes[0].Content == c.Nodes[0].Content {
		t.Error("another description has the same content hash")
	}
	if !a.Nodes[0].Translated {
		t.Error("a translated node is not marked so")
	}
}

func TestHistory(t *testing.T) {
	var h History
	h.Add(Entry{}) // empty: not kept
	for i := range MaxEntries + 5 {
		h.Add(Entry{ETag: fmt.Sprint(i), Added: []Item{{ID: "n"}}})
	}
	if len(h.Entries) != MaxEntries || h.Entries[0].ETag != fmt.Sprint(MaxEntries+4) {
		t.Fatalf("%d entries, newest %q", len(h.Entries), h.Entries[0].ETag)
	}
	data, err := h.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(data)
	if err != nil || len(back.Entries) != MaxEntries {
		t.Fatalf("Decode: %v, %d entries", err, len(back.Entries))
	}
	again, _ := back.Encode()
	if string(again) != string(data) {
		t.Error("encode, decode, encode changed the bytes")
	}
	for name, bad := range map[string]string{
		"not JSON":      "<html>",
		"unknown field": `{"entries":[],"owner":"me"}`,
		"two values":    `{"entries":[]} {}`,
		"wrong type":    `{"entries":{}}`,
	} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

func TestStore(t *testing.T) {
	st, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, b := model.Export{CurriculumID: "1", Locale: "en"}, model.Export{CurriculumID: "1", Locale: "es"}
	for _, s := range []struct {
		e    model.Export
		etag string
	}{{a, "1"}, {a, "2"}, {b, "1"}} {
		if err := st.Put(s.e, Snapshot{ETag: s.etag, Nodes: []Node{{ID: "n"}}}); err != nil {
			t.Fatal(err)
		}
	}
	if s, ok := st.Get(a, "1"); !ok || s.ETag != "1" {
		t.Fatal("a/1 missing")
	}
	if err := st.Prune(map[model.Key]string{a.Key(): "2"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := st.Get(a, "1"); ok {
		t.Error("a/1 kept")
	}
	if _, ok := st.Get(b, "1"); ok {
		t.Error("b/1 kept")
	}
	if _, ok := st.Get(a, "2"); !ok {
		t.Error("a/2 pruned")
	}
	entries, _ := os.ReadDir(st.dir)
	if len(entries) != 1 {
		t.Errorf("%d files left", len(entries))
	}
}

// FuzzDecode: changes.json comes back from the previous output, which
// others may have changed; any bytes decode or fail, and what decodes
// encodes again.
func FuzzDecode(f *testing.F) {
	h := History{CurriculumID: "1", Entries: []Entry{{ETag: "2", Added: []Item{{ID: "n", Title: "T"}}}}}
	data, _ := h.Encode()
	f.Add(data)
	f.Add([]byte(`{"entries":[]}`))
	f.Add([]byte(`{"entries":[{"date":"x"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := Decode(data)
		if err != nil {
			return
		}
		if len(h.Entries) > MaxEntries {
			t.Fatalf("%d entries", len(h.Entries))
		}
		if _, err := h.Encode(); err != nil {
			t.Fatalf("decoded but does not encode: %v", err)
		}
	})
}

// roundTrip is compact's reading of a value that canonical does not
// vouch for: decoded and encoded again by encoding/json.
func roundTrip(raw []byte) ([]byte, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil, false
	}
	b, err := json.Marshal(v)
	return b, err == nil
}

// TestCanonical: the strings and numbers summed as they are, and those
// that go through encoding/json (whose form differs, or may).
func TestCanonical(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want bool
	}{
		{`"Solve $9x + 12 = 78$.\n\n- a \"quoted\" \\ b\tc\r"`, true},
		{`"A \u0026 B \u003c C \u003e D"`, true},
		{`"日本語 é"`, true},
		{`"A & B"`, false},    // written \u0026
		{`"\u00e9"`, false},   // written é
		{`"\u003C"`, false},   // upper case: written \u003c
		{`"a\/b"`, false},     // written a/b
		{"\"\u2028\"", false}, // written \u2028
		{"\"\xff\"", false},   // written \ufffd
		{`"a"b"`, false},
		{`"\b"`, false},
		{`35`, true},
		{`-12`, true},
		{`0`, true},
		{`-0`, false},
		{`012`, false},
		{`1.5`, false},
		{`1e3`, false},
		{`1234567890123456`, false}, // past a float64's exact digits
		{`true`, false},
		{`[1]`, false},
	} {
		if got := canonical([]byte(c.raw)); got != c.want {
			t.Errorf("canonical(%s) = %v, want %v", c.raw, got, c.want)
		}
		if c.want {
			if rt, ok := roundTrip([]byte(c.raw)); !ok || string(rt) != c.raw {
				t.Errorf("%s: encoding/json gives %s", c.raw, rt)
			}
		}
	}
}

// FuzzCanonical holds canonical to encoding/json: a value it vouches for
// comes back from the round trip byte for byte, so the sum of a node is
// the one earlier versions wrote.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`"a\nb"`, `"\u0026"`, `"<"`, `"\u2029"`, "\"\xe2\x80\xa8\"", `"\t\"\\"`, `7`, `-0`, `999999999999999`, `"é\u003e"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !canonical(raw) {
			return
		}
		if rt, ok := roundTrip(raw); !ok || string(rt) != string(raw) {
			t.Fatalf("canonical(%q), but encoding/json gives %q (%v)", raw, rt, ok)
		}
	})
}
