package jsonbundle

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/curex/curex/exporter/internal/golden"
	"github.com/curex/curex/exporter/internal/model"
)

// FuzzEncode builds a small tree from fuzzed ids, titles, an attribute
// name and an attribute value, and checks that Encode either refuses it
// for a documented reason or writes valid JSON in canonical indentation
// that reads back to the same ids, titles and attributes, is byte-stable,
// and passes the Validator.
func FuzzEncode(f *testing.F) {
	f.Add("alg-u1", "Linear equations", "alg-u1-l1", "Ecuaciones <b>1</b> & 2", "description", `{"a":[1,2.50,null,"<script>"]}`)
	f.Add("u", "", "l", "حل المعادلات", "ja", `"一次方程式"`)
	f.Add("x\xff", "bad\xfe\"utf8\\", "y\u2028", "\x00\x1f", "k\xff", "\"x\xffy\"")
	f.Add("", "empty id", "c", "t", "n", `1e400`)
	f.Add("id", "t", "c", "t", "n", `{"a" : { "b" : [ ] , "c" : { } } }`)
	f.Add("id", "t", "c", "t", "n", `not json`)
	f.Fuzz(func(t *testing.T, rootID, rootTitle, childID, childTitle, attrName, attrValue string) {
		e := export("Texas", "111", "texas", "es")
		raw := json.RawMessage(attrValue)
		if !json.Valid(raw) {
			raw, _ = json.Marshal(attrValue) // still exercise strings of any content
		}
		child := node(e, "child", childTitle, lessonES, "1", 0, 1)
		child.ID = childID
		child.Attributes = map[string]json.RawMessage{attrName: raw, "fixed": json.RawMessage(`[true]`)}
		root := node(e, "root", rootTitle, unitES, "1", 0, 0, child)
		root.ID = rootID
		root.Attributes = map[string]json.RawMessage{"value": raw}
		tr := &model.Tree{Export: e, VariantChain: []string{"Algebra 1", rootTitle}, ETag: childTitle, Nodes: []*model.Node{root}}

		out, err := Encode(tr)
		if rootID == "" || childID == "" {
			if err == nil || !strings.Contains(err.Error(), "empty id") {
				t.Fatalf("empty id: error %v", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Encode: %v", err)
		}
		if !utf8.Valid(out) {
			t.Fatal("output is not valid UTF-8")
		}
		if !json.Valid(out) {
			t.Fatalf("output is not valid JSON:\n%s", out)
		}
		if want := reindented(t, out); !bytes.Equal(out, want) {
			t.Fatalf("not in canonical indentation:\n%s", golden.FirstDiff(want, out))
		}
		if again, _ := Encode(tr); !bytes.Equal(out, again) {
			t.Fatal("second encoding differs")
		}
		mustValidate(t, out)

		b := readBundle(t, out)
		if len(b.Nodes) != 1 || len(b.Nodes[0].Children) != 1 || b.NodeCount != 2 {
			t.Fatalf("shape: %+v", b)
		}
		r, c := b.Nodes[0], b.Nodes[0].Children[0]
		for _, p := range [][2]string{
			{r.ID, rootID}, {r.Title, rootTitle}, {c.ID, childID}, {c.Title, childTitle},
			{b.ETag, childTitle}, {b.VariantChain[1], rootTitle},
		} {
			if p[0] != valid(p[1]) {
				t.Errorf("read back %q, want %q", p[0], valid(p[1]))
			}
		}
		if !sameJSON(t, r.Attributes["value"], raw) || !sameTokens(fixUTF8(r.Attributes["value"]), fixUTF8(raw)) {
			t.Errorf("attribute read back as %s, want %s", r.Attributes["value"], raw)
		}
		name := valid(attrName)
		if name != "fixed" && !sameJSON(t, c.Attributes[name], raw) {
			t.Errorf("attribute %q read back as %s, want %s", name, c.Attributes[name], raw)
		}
	})
}

// valid returns s as encoding/json reads it back: each byte that is not
// part of valid UTF-8 becomes U+FFFD.
func valid(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
