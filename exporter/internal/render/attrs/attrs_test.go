package attrs

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// show writes v in a short notation that the tests compare: a kind name
// and its contents.
func show(v Value) string {
	var b strings.Builder
	var walk func(v Value)
	list := func(name string, items []Value) {
		b.WriteString(name + "[")
		for i, e := range items {
			if i > 0 {
				b.WriteString(" ")
			}
			walk(e)
		}
		b.WriteString("]")
	}
	walk = func(v Value) {
		switch v.Kind {
		case Invalid:
			b.WriteString("invalid")
		case Text:
			fmt.Fprintf(&b, "%q", v.Text)
		case Number:
			b.WriteString(v.Text)
		case Bool:
			fmt.Fprint(&b, v.Bool)
		case Null:
			b.WriteString("null")
		case List:
			list("list", v.Items)
		case Terms:
			b.WriteString("terms[")
			for i, t := range v.Terms {
				if i > 0 {
					b.WriteString(" ")
				}
				fmt.Fprintf(&b, "%q=%q", t.Term, t.Definition)
			}
			b.WriteString("]")
		case Table:
			list("table"+fmt.Sprint(v.Columns), v.Items)
		case Records:
			list("records", v.Items)
		case Fields:
			if v.Pair != nil {
				b.WriteString("pair")
			}
			b.WriteString("{")
			for i, f := range v.Fields {
				if i > 0 {
					b.WriteString(" ")
				}
				b.WriteString(f.Key + ":")
				walk(f.Value)
			}
			b.WriteString("}")
		case JSON:
			fmt.Fprintf(&b, "json(%s)", v.Text)
		}
	}
	walk(v)
	return b.String()
}

func TestShapes(t *testing.T) {
	deep := strings.Repeat(`{"a":`, MaxDepth+2) + `"x"` + strings.Repeat(`}`, MaxDepth+2)
	long := `[` + strings.Repeat(`[`, MaxDepth) + `"` + strings.Repeat("é", 300) + `"` + strings.Repeat(`]`, MaxDepth) + `]`
	for _, tc := range []struct {
		name, raw, want string
	}{
		{"string", `"Some *Markdown*"`, `"Some *Markdown*"`},
		{"number as received", `12345678901234567890.50`, `12345678901234567890.50`},
		{"negative exponent", `-2.5e-3`, `-2.5e-3`},
		{"bool", `false`, `false`},
		{"empty array", `[]`, `list[]`},
		{"empty object", `{}`, `{}`},
		{"strings", `["a", "b"]`, `list["a" "b"]`},
		{"null kept in arrays", `["a", null, 1, true]`, `list["a" null 1 true]`},
		{"null members dropped", `{"b":1,"a":null,"c":"x"}`, `{b:1 c:"x"}`},
		{"object sorted", `{"z":1,"a":{"y":[],"x":{}}}`, `{a:{x:{} y:list[]} z:1}`},
		{"terms", `[{"term":"T","definition":"D"},{"word":"W","meaning":"M\nmore"}]`, `terms["T"="D" "W"="M\nmore"]`},
		{"term and description", `[{"title":"T","description":"D"}]`, `terms["T"="D"]`},
		{"two terms keys", `[{"term":"T","name":"N"}]`, `table[name term][{name:"N" term:"T"}]`},
		{"term on two lines", `[{"term":"T\nU","definition":"D"}]`, `records[{definition:"D" term:"T\nU"}]`},
		{"blank term", `[{"term":"  ","definition":"D"}]`, `table[definition term][{definition:"D" term:"  "}]`},
		{"term not a string", `[{"term":1,"definition":"D"}]`, `table[definition term][{definition:"D" term:1}]`},
		{"flat records", `[{"criterion":"C","points":30},{"criterion":"E","points":null,"extra":true}]`,
			`table[criterion extra points][{criterion:"C" points:30} {criterion:"E" extra:true}]`},
		{"eight columns", `[{"a":1,"b":2,"c":3,"d":4},{"e":5,"f":6,"g":7,"h":8,"a":0}]`, `table[a b c d e f g h][{a:1 b:2 c:3 d:4} {a:0 e:5 f:6 g:7 h:8}]`},
		{"nine columns", `[{"a":1,"b":2,"c":3,"d":4},{"e":5,"f":6,"g":7,"h":8,"i":9}]`, `records[{a:1 b:2 c:3 d:4} {e:5 f:6 g:7 h:8 i:9}]`},
		{"multi-line value", `[{"a":"x\ny"}]`, `records[{a:"x\ny"}]`},
		{"carriage return", `[{"a":"x\ry"}]`, `records[{a:"x\ry"}]`},
		{"list in a record", `[{"a":"x","b":["y"]}]`, `records[{a:"x" b:list["y"]}]`},
		{"empty record", `[{"a":1},{}]`, `list[{a:1} {}]`},
		{"all-null record", `[{"a":null}]`, `table[a][{}]`},
		{"mixed", `["a", {"term":"T","definition":"D"}, {"k":"v"}]`, `list["a" pair{definition:"D" term:"T"} {k:"v"}]`},
		{"pair alone", `{"term":"T","definition":"D"}`, `pair{definition:"D" term:"T"}`},
		{"nested table", `{"r":[{"a":1}]}`, `{r:table[a][{a:1}]}`},
		{"arrays of arrays", `[[1,2],[3]]`, `list[list[1 2] list[3]]`},
		{"too deep", deep, `{a:{a:{a:{a:{a:{a:{a:{a:json({"a":{"a":"x"}})}}}}}}}}`},
		{"too deep, cut", long, `list[list[list[list[list[list[list[list[json(["` + strings.Repeat("é", MaxJSONRunes-2) + `…)]]]]]]]]`},
		{"html not escaped", `[[[[[[[["<b>&"]]]]]]]]`, `list[list[list[list[list[list[list[list[json("<b>&")]]]]]]]]`},
		{"table at depth", strings.Repeat(`[`, MaxDepth) + `{"a":1}` + strings.Repeat(`]`, MaxDepth), strings.Repeat("list[", MaxDepth-1) + `table[a][{a:1}]` + strings.Repeat("]", MaxDepth-1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Parse(map[string]json.RawMessage{"k": json.RawMessage(tc.raw)}, "")
			if len(s) != 1 {
				t.Fatalf("%d sections, want 1", len(s))
			}
			if got := show(s[0].Value); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if string(s[0].Raw) != tc.raw {
				t.Errorf("Raw = %q, want the member as received", s[0].Raw)
			}
		})
	}
}

func TestInvalid(t *testing.T) {
	for _, raw := range []string{`{"a":`, `1 2`, `"a" "b"`, `"unterminated`, `nul`, `{"a":1}}`, `[1,]`, "\"\xff\"x"} {
		s := Parse(map[string]json.RawMessage{"k": json.RawMessage(raw)}, "")
		if len(s) != 1 || s[0].Value.Kind != Invalid || string(s[0].Raw) != raw {
			t.Errorf("%q: got %+v, want one Invalid section holding it", raw, s)
		}
	}
}

func TestSectionsOrderAndOmissions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		attrs map[string]string
		title string
		want  []string // key, with "*" when Lead
	}{
		{
			name: "order",
			attrs: map[string]string{
				"zeta": `1`, "learning_objectives": `["o"]`, "Alpha": `"a"`, "description": `"d"`, "alpha": `2`, "": `""`,
			},
			want: []string{"description*", "learning_objectives", "", "Alpha", "alpha", "zeta"},
		},
		{
			name:  "null and nothing",
			attrs: map[string]string{"a": `null`, "b": ` null `, "c": ``, "d": "\t", "e": `[null]`},
			want:  []string{"e"},
		},
		{
			name:  "title equal to the node's",
			attrs: map[string]string{"title": `" Node "`},
			title: "Node",
			want:  nil,
		},
		{
			name:  "title of its own",
			attrs: map[string]string{"title": `"Other"`},
			title: "Node",
			want:  []string{"title"},
		},
		{
			name:  "title not a string",
			attrs: map[string]string{"title": `["Node"]`},
			title: "Node",
			want:  []string{"title"},
		},
		{
			name:  "title not valid",
			attrs: map[string]string{"title": `"Node`},
			title: `"Node`,
			want:  []string{"title"},
		},
		{
			name:  "description not a string",
			attrs: map[string]string{"description": `{"a":1}`, "learning_objectives": `"one"`},
			want:  []string{"description", "learning_objectives"},
		},
		{
			name:  "empty description",
			attrs: map[string]string{"description": `""`},
			want:  []string{"description*"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := map[string]json.RawMessage{}
			for k, v := range tc.attrs {
				m[k] = json.RawMessage(v)
			}
			var got []string
			for _, s := range Parse(m, tc.title) {
				k := s.Key
				if s.Lead {
					k += "*"
				}
				got = append(got, k)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("sections %q, want %q", got, tc.want)
			}
		})
	}
}

func TestGet(t *testing.T) {
	s := Parse(map[string]json.RawMessage{"k": json.RawMessage(`{"b":2,"a":1,"n":null}`)}, "")
	v := s[0].Value
	for _, tc := range []struct {
		key  string
		want string
		ok   bool
	}{
		{"a", "1", true}, {"b", "2", true}, {"n", "", false}, {"c", "", false}, {"", "", false},
	} {
		got, ok := v.Get(tc.key)
		if ok != tc.ok || got.Text != tc.want {
			t.Errorf("Get(%q) = %q, %v; want %q, %v", tc.key, got.Text, ok, tc.want, tc.ok)
		}
	}
}

func TestEmptyAndScalar(t *testing.T) {
	for _, tc := range []struct {
		raw           string
		empty, scalar bool
	}{
		{`[]`, true, false}, {`{}`, true, false}, {`{"a":null}`, true, false}, {`[null]`, false, false},
		{`""`, false, true}, {`0`, false, true}, {`true`, false, true}, {`[{"a":1}]`, false, false},
	} {
		v := Parse(map[string]json.RawMessage{"k": json.RawMessage(tc.raw)}, "")[0].Value
		if v.Empty() != tc.empty || v.Scalar() != tc.scalar {
			t.Errorf("%s: Empty %v, Scalar %v; want %v, %v", tc.raw, v.Empty(), v.Scalar(), tc.empty, tc.scalar)
		}
	}
	if !(Value{Kind: Null}).Scalar() {
		t.Error("Null is not a scalar")
	}
}

// check verifies the invariants the package documentation promises of v,
// found at the given depth.
func check(t *testing.T, v Value, depth int) {
	t.Helper()
	if depth > MaxDepth && v.Kind != JSON {
		t.Fatalf("%s at depth %d", show(v), depth)
	}
	switch v.Kind {
	case JSON:
		if n := utf8.RuneCountInString(v.Text); n > MaxJSONRunes+1 {
			t.Fatalf("JSON of %d runes", n)
		}
	case Terms:
		if len(v.Terms) == 0 {
			t.Fatal("empty Terms")
		}
		for _, x := range v.Terms {
			if strings.TrimSpace(x.Term) == "" || strings.ContainsAny(x.Term, "\r\n") {
				t.Fatalf("term %q", x.Term)
			}
		}
	case Table:
		if len(v.Columns) == 0 || len(v.Columns) > MaxColumns || !slices.IsSorted(v.Columns) || len(v.Items) == 0 {
			t.Fatalf("table columns %q of %d records", v.Columns, len(v.Items))
		}
		for _, r := range v.Items {
			if r.Kind != Fields {
				t.Fatalf("table record %s", show(r))
			}
			for _, f := range r.Fields {
				if !slices.Contains(v.Columns, f.Key) || !f.Value.Scalar() || strings.ContainsAny(f.Value.Text, "\r\n") {
					t.Fatalf("table cell %s:%s of columns %q", f.Key, show(f.Value), v.Columns)
				}
			}
		}
	case Records:
		if len(v.Items) == 0 {
			t.Fatal("empty Records")
		}
		for _, r := range v.Items {
			if r.Kind != Fields && r.Kind != JSON {
				t.Fatalf("record %s", show(r))
			}
			check(t, r, depth+1)
		}
	case List:
		for _, e := range v.Items {
			check(t, e, depth+1)
		}
	case Fields:
		if !slices.IsSortedFunc(v.Fields, func(a, b Field) int { return strings.Compare(a.Key, b.Key) }) {
			t.Fatal("fields not sorted")
		}
		for _, f := range v.Fields {
			if f.Value.Kind == Null {
				t.Fatalf("null member %q", f.Key)
			}
			check(t, f.Value, depth+1)
		}
	}
}

// TestMinutes: which members count minutes (issue 25, item 6).
func TestMinutes(t *testing.T) {
	num := func(s string) Value { return Value{Kind: Number, Text: s} }
	for _, tc := range []struct {
		key  string
		v    Value
		want int
		ok   bool
	}{
		{"estimated_minutes", num("50"), 50, true},
		{"Duration_Minutes", num("0"), 0, true},
		{"minutes", num("100000"), 100000, true},
		{"estimated_minutes", num("100001"), 0, false},
		{"estimated_minutes", num("50.5"), 0, false},
		{"estimated_minutes", num("-5"), 0, false},
		{"estimated_minutes", num("5e1"), 0, false},
		{"estimated_minutes", Value{Kind: Text, Text: "50"}, 0, false},
		{"minutes_per_day", num("50"), 0, false},
		{"points", num("50"), 0, false},
	} {
		got, ok := Minutes(tc.key, tc.v)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Minutes(%q, %q) = %d, %v; want %d, %v", tc.key, tc.v.Text, got, ok, tc.want, tc.ok)
		}
	}
}

// TestLiteral: the strings and numbers decode reads itself, and those it
// leaves to encoding/json (FuzzLiteral checks the values against it).
func TestLiteral(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want any // nil: declined
	}{
		{`"plain"`, "plain"},
		{`""`, ""},
		{`"a\nb\"c\\d\/e\tf\r\b\f"`, "a\nb\"c\\d/e\tf\r\b\f"},
		{`"日本語 é"`, "日本語 é"},
		{`"\u00e9 \u0026 \u00E9\u0000"`, "é & é\x00"},
		{`"\ud83d\ude00"`, nil}, // a surrogate pair: encoding/json
		{`"\ud83d"`, nil},       // half of one: encoding/json replaces it
		{`"\u12"`, nil},         // not four digits
		{`"\u12g4"`, nil},
		{"\"\xff\"", nil},  // not UTF-8: encoding/json replaces it
		{"\"a\x01\"", nil}, // a control character: invalid
		{`"a"b"`, nil},     // not one string
		{`"a\"`, nil},      // unterminated
		{`"\q"`, nil},      // no such escape
		{`35`, json.Number("35")},
		{`-0.5e+10`, json.Number("-0.5e+10")},
		{`0`, json.Number("0")},
		{`012`, nil},
		{`1.`, nil},
		{`1e`, nil},
		{`-`, nil},
		{`true`, nil},
		{`[1]`, nil},
	} {
		got, ok := literal([]byte(c.raw))
		if !ok {
			got = nil
		}
		if got != c.want {
			t.Errorf("literal(%s) = %#v, %v; want %#v", c.raw, got, ok, c.want)
		}
	}
}
