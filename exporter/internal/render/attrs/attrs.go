package attrs

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits on the shapes Parse gives.
const (
	// MaxDepth is how deep arrays and objects nest as structure: a value
	// with more than MaxDepth arrays and objects around it (the member's
	// own value counts as depth 1) is of Kind JSON.
	MaxDepth = 8
	// MaxJSONRunes is how much of a value of Kind JSON is kept; a longer
	// one is cut and ends in "…".
	MaxJSONRunes = 200
	// MaxColumns is the most distinct keys the records of a Table have.
	MaxColumns = 8
)

// Attribute keys with a place of their own.
const (
	// KeyDescription is the member whose string is the node's lead text.
	KeyDescription = "description"
	// KeyObjectives is the member holding the learning objectives, shown
	// second.
	KeyObjectives = "learning_objectives"
	// KeyTitle is the member left out when it repeats the node's title.
	KeyTitle = "title"
)

// Kind is the shape of a Value.
type Kind uint8

// The kinds of Value; see the package documentation.
const (
	// Invalid is a section whose member is not one valid JSON value;
	// Section.Raw holds it as received.
	Invalid Kind = iota
	// Text is a string, Markdown; Value.Text holds it.
	Text
	// Number is a JSON number; Value.Text holds its literal as received.
	Number
	// Bool is true or false; Value.Bool holds it.
	Bool
	// Null is JSON null inside an array.
	Null
	// List is an array of no other kind; Value.Items holds its elements
	// and may be empty.
	List
	// Terms is an array of term pairs; Value.Terms holds them.
	Terms
	// Table is an array of flat records; Value.Columns holds the sorted
	// union of their keys and Value.Items the records, each of Kind
	// Fields.
	Table
	// Records is any other array of non-empty objects; Value.Items holds
	// them, each of Kind Fields (or JSON, past MaxDepth).
	Records
	// Fields is an object; Value.Fields holds its non-null members sorted
	// by key and may be empty.
	Fields
	// JSON is a value nested deeper than MaxDepth; Value.Text holds it as
	// compact JSON, cut at MaxJSONRunes runes.
	JSON
)

// Section is one member of a node's attributes.
type Section struct {
	// Key is the member's key, as received.
	Key string
	// Lead is set on the "description" member when it is a string: the
	// node's lead text, shown first and without a heading.
	Lead bool
	// Value is the member's value.
	Value Value
	// Raw is the member as received.
	Raw json.RawMessage
}

// Value is one typed value; Kind says which fields hold it.
type Value struct {
	// Kind is the shape of the value.
	Kind Kind
	// Bool is the value of a Bool.
	Bool bool
	// Text is the string of a Text, the literal of a Number, the compact
	// JSON of a JSON.
	Text string
	// Items are the elements of a List and the records of a Table or
	// Records.
	Items []Value
	// Fields are the members of a Fields value.
	Fields []Field
	// Columns are the keys of a Table's records, sorted.
	Columns []string
	// Terms are the pairs of a Terms value.
	Terms []Term
	// Pair is set on a Fields value that is a term pair on its own (an
	// element of a List, say), for renderers that show such an element as
	// a term.
	Pair *Term
}

// Field is one member of an object.
type Field struct {
	// Key is the member's key, as received.
	Key string
	// Value is the member's value, never of Kind Null.
	Value Value
}

// Term is a term and its definition, both Markdown; Term is one line.
type Term struct {
	Term, Definition string
}

// Get returns the value of the member key of a Fields value, and whether
// it has one (null members have none).
func (v Value) Get(key string) (Value, bool) {
	i, ok := slices.BinarySearchFunc(v.Fields, key, func(f Field, k string) int { return strings.Compare(f.Key, k) })
	if !ok {
		return Value{}, false
	}
	return v.Fields[i].Value, true
}

// Empty reports whether v is an empty List or a Fields value without
// members.
func (v Value) Empty() bool {
	switch v.Kind {
	case List:
		return len(v.Items) == 0
	case Fields:
		return len(v.Fields) == 0
	}
	return false
}

// Scalar reports whether v is a Text, Number, Bool or Null.
func (v Value) Scalar() bool {
	switch v.Kind {
	case Text, Number, Bool, Null:
		return true
	}
	return false
}

// Parse reads the attributes of a node titled nodeTitle into sections,
// ordered and filtered as the package documentation says.
func Parse(attrs map[string]json.RawMessage, nodeTitle string) []Section {
	return Order(nil).Parse(attrs, nodeTitle)
}

// Order is the publisher's order of attribute members (the
// attribute_order setting): the sections of the keys it lists come
// first, in its order, and the others after them in the package's order.
// The lead text (Section.Lead) stays first whatever the order says: it is
// the node's introduction, not a section. A key listed that a node does
// not have is passed over. The zero Order is the package's order.
type Order []string

// Parse reads the attributes of a node titled nodeTitle into sections,
// filtered as the package documentation says and ordered by o.
func (o Order) Parse(attrs map[string]json.RawMessage, nodeTitle string) []Section {
	out := make([]Section, 0, len(attrs))
	for k, raw := range attrs {
		v, isNull, ok := decode(raw)
		if isNull {
			continue
		}
		s := Section{Key: k, Raw: raw}
		if !ok {
			out = append(out, s)
			continue
		}
		if str, isStr := v.(string); isStr {
			if k == KeyTitle && strings.TrimSpace(str) == strings.TrimSpace(nodeTitle) {
				continue
			}
			s.Lead = k == KeyDescription
		}
		s.Value = parse(v, 1)
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Section) int {
		if a.Lead != b.Lead {
			if a.Lead {
				return -1
			}
			return 1
		}
		if c := o.cmp(a.Key, b.Key); c != 0 {
			return c
		}
		return cmpKey(a.Key, b.Key)
	})
	return out
}

// cmp orders the keys o lists before the others, in o's order; 0 when o
// lists neither or both are one key.
func (o Order) cmp(a, b string) int {
	ia, ib := slices.Index(o, a), slices.Index(o, b)
	switch {
	case ia < 0 && ib < 0:
		return 0
	case ia < 0:
		return 1
	case ib < 0:
		return -1
	}
	return ia - ib
}

// rank orders description first, learning objectives second, then the
// other keys.
func rank(key string) int {
	switch key {
	case KeyDescription:
		return 0
	case KeyObjectives:
		return 1
	}
	return 2
}

func cmpKey(a, b string) int {
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra - rb
	}
	return strings.Compare(a, b)
}

// decode parses one member, numbers as json.Number. isNull reports JSON
// null or nothing; ok is false for anything but one valid JSON value.
func decode(raw []byte) (v any, isNull, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true, true
	}
	if v, ok := literal(raw); ok {
		return v, false, true
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, false, false
		}
		return s, false, true
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, false, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false, false
	}
	return v, v == nil, true
}

// parse types v, a value decoded by decode with depth arrays and objects
// around it, itself included.
func parse(v any, depth int) Value {
	if depth > MaxDepth {
		return Value{Kind: JSON, Text: compact(v)}
	}
	switch v := v.(type) {
	case nil:
		return Value{Kind: Null}
	case string:
		return Value{Kind: Text, Text: v}
	case json.Number:
		return Value{Kind: Number, Text: v.String()}
	case bool:
		return Value{Kind: Bool, Bool: v}
	case []any:
		return parseArray(v, depth)
	case map[string]any:
		return parseObject(v, depth)
	}
	return Value{Kind: JSON, Text: compact(v)}
}

func parseArray(a []any, depth int) Value {
	if len(a) == 0 {
		return Value{Kind: List, Items: []Value{}}
	}
	if terms := allTerms(a); terms != nil {
		return Value{Kind: Terms, Terms: terms}
	}
	if cols := flatColumns(a); cols != nil {
		items := make([]Value, len(a))
		for i, e := range a {
			items[i] = fields(e.(map[string]any), func(x any) Value { return parse(x, 1) })
		}
		return Value{Kind: Table, Columns: cols, Items: items}
	}
	kind := Records
	items := make([]Value, len(a))
	for i, e := range a {
		if m, ok := e.(map[string]any); !ok || len(m) == 0 {
			kind = List
		}
		items[i] = parse(e, depth+1)
	}
	return Value{Kind: kind, Items: items}
}

func parseObject(m map[string]any, depth int) Value {
	v := fields(m, func(x any) Value { return parse(x, depth+1) })
	if t, d, ok := termPair(m); ok {
		v.Pair = &Term{Term: t, Definition: d}
	}
	return v
}

// fields returns m as a Fields value, its non-null members sorted by key
// and typed by member.
func fields(m map[string]any, member func(any) Value) Value {
	keys := make([]string, 0, len(m))
	for k, x := range m {
		if x != nil {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	fs := make([]Field, len(keys))
	for i, k := range keys {
		fs[i] = Field{Key: k, Value: member(m[k])}
	}
	return Value{Kind: Fields, Fields: fs}
}

// Keys that make a two-member object a term and its definition.
var (
	termKeys       = []string{"term", "word", "name", "title", "label", "concept", "key"}
	definitionKeys = []string{"definition", "meaning", "description", "value", "explanation", "text"}
)

// termPair returns the term and definition of a {term, definition}-like
// object: exactly two string members, one named like a term and holding
// one non-blank line, one named like a definition.
func termPair(m map[string]any) (term, def string, ok bool) {
	if len(m) != 2 {
		return "", "", false
	}
	var haveTerm, haveDef bool
	for k, x := range m {
		s, isStr := x.(string)
		if !isStr {
			return "", "", false
		}
		switch {
		case slices.Contains(termKeys, k) && !haveTerm:
			term, haveTerm = s, true
		case slices.Contains(definitionKeys, k) && !haveDef:
			def, haveDef = s, true
		}
	}
	if !haveTerm || !haveDef || strings.ContainsAny(term, "\r\n") || strings.TrimSpace(term) == "" {
		return "", "", false
	}
	return term, def, true
}

// allTerms returns the pairs of a when every element is a term pair, nil
// otherwise.
func allTerms(a []any) []Term {
	terms := make([]Term, 0, len(a))
	for _, e := range a {
		m, ok := e.(map[string]any)
		if !ok {
			return nil
		}
		t, d, ok := termPair(m)
		if !ok {
			return nil
		}
		terms = append(terms, Term{Term: t, Definition: d})
	}
	return terms
}

// flatColumns returns the sorted keys of a when it holds flat records, nil
// otherwise.
func flatColumns(a []any) []string {
	var cols []string
	for _, e := range a {
		m, ok := e.(map[string]any)
		if !ok || len(m) == 0 {
			return nil
		}
		for k, x := range m {
			switch x := x.(type) {
			case string:
				if strings.ContainsAny(x, "\r\n") {
					return nil
				}
			case json.Number, bool, nil:
			default:
				return nil
			}
			if !slices.Contains(cols, k) {
				if len(cols) == MaxColumns {
					return nil
				}
				cols = append(cols, k)
			}
		}
	}
	slices.Sort(cols)
	return cols
}

// compact returns v as compact JSON, cut at MaxJSONRunes runes.
func compact(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "…"
	}
	s := strings.TrimSuffix(b.String(), "\n")
	if utf8.RuneCountInString(s) <= MaxJSONRunes {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxJSONRunes {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// maxMinutes bounds the durations Minutes reads as such: a longer count is
// more likely an identifier than a course length, and is shown as given.
const maxMinutes = 100000

// Minutes reports the number of minutes v holds when the member's key
// says it counts minutes ("estimated_minutes", "duration_minutes",
// "minutes", any case) and v is a whole number from 0 to 100,000. The
// formats then write it as a duration in the page's language; any other
// number is shown as given.
func Minutes(key string, v Value) (int, bool) {
	k := strings.ToLower(key)
	if v.Kind != Number || (k != "minutes" && !strings.HasSuffix(k, "_minutes") && !strings.HasSuffix(k, "-minutes")) {
		return 0, false
	}
	n, err := strconv.Atoi(v.Text)
	if err != nil || n < 0 || n > maxMinutes {
		return 0, false
	}
	return n, true
}
