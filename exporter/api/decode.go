package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Decoding is tolerant (spec section 2: "a client must tolerate both"
// shapes): unknown members are ignored, missing members and null leave zero
// values, identifiers may be strings or numbers, numbers and booleans may
// come as strings, and free-form attributes are kept whole. Every record
// may come as a resource object (its fields under attributes) or as a
// plain object (its fields at the top; see resource). What fails is a
// body that is not a JSON object with a data member, and a member of a kind
// that cannot be read as what it stands for (an object where a title
// belongs).

// Decode decodes a response body, such as one kept in a Cache, into v as Do
// does: v may point to one of this package's result types (read from the
// API's envelope) or to anything encoding/json can decode into. A body that
// is not JSON, or does not decode, is a *DecodeError.
func Decode(body []byte, v any) error {
	if err := decodeInto(body, v); err != nil {
		return &DecodeError{Snippet: sanitize(string(body), snippetBytes), Err: err}
	}
	return nil
}

// envelope is the top level of every response (spec section 2): data holds
// the resource or the list, meta counts and context. A top-level status is
// ignored.
type envelope[D, M any] struct {
	Data *D `json:"data"`
	Meta M  `json:"meta"`
}

// decodeEnvelope decodes body as an envelope whose data must be present.
func decodeEnvelope[D, M any](body []byte, what string) (*D, *M, error) {
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, nil, fmt.Errorf("decode %s: the body is not a JSON object", what)
	}
	var env envelope[D, M]
	if err := unmarshal(body, &env); err != nil {
		return nil, nil, fmt.Errorf("decode %s: %w", what, err)
	}
	if env.Data == nil {
		return nil, nil, fmt.Errorf("decode %s: the body has no data", what)
	}
	return env.Data, &env.Meta, nil
}

// resource is a record, read in either form: a resource object (id, type,
// attributes, relationships), or a plain object with the fields of A at
// the top (spec 2.4 describes the locale progress entry so, with no type).
// Its type member is not checked. Children is a children member beside
// the fields (a resolved curriculum's tree), kept raw.
type resource[A any] struct {
	ID            flexString
	Attributes    A
	Relationships map[string]relation
	Children      json.RawMessage
}

// contentRecord is implemented by the fields of records that have a
// member named attributes themselves (a content node's free-form
// content): for them an attributes member does not tell the resource
// form, and fieldsAtTop reports whether a record read in the plain form
// carried any of its other fields.
type contentRecord interface {
	fieldsAtTop() bool
}

// UnmarshalJSON reads a record in either form. An object without an
// attributes member is plain: its fields are read at the top. One with
// attributes is a resource object, unless A is a contentRecord and the
// object carries A's other fields at the top: attributes is then the
// free-form content of a plain record.
func (r *resource[A]) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) == 0 || b[0] != '{' {
		return kindError[resource[A]](b)
	}
	var w struct {
		ID            flexString          `json:"id"`
		Attributes    json.RawMessage     `json:"attributes"`
		Relationships map[string]relation `json:"relationships"`
		Children      json.RawMessage     `json:"children"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	out := resource[A]{ID: w.ID, Relationships: w.Relationships, Children: w.Children}
	if w.Attributes == nil { // the plain form
		if err := json.Unmarshal(b, &out.Attributes); err != nil {
			return err
		}
		*r = out
		return nil
	}
	err := within("attributes", json.Unmarshal(w.Attributes, &out.Attributes))
	if _, ok := any(&out.Attributes).(contentRecord); ok {
		var top A
		if json.Unmarshal(b, &top) == nil && any(&top).(contentRecord).fieldsAtTop() {
			out.Attributes, err = top, nil
		}
	}
	if err != nil {
		return err
	}
	*r = out
	return nil
}

// within adds member to the path of a *json.UnmarshalTypeError met inside
// it, as encoding/json does for the members it decodes itself.
func within(member string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			te.Field = member
		} else {
			te.Field = member + "." + te.Field
		}
	}
	return err
}

// relation is a member of relationships. Its data is kept raw and decoded
// where it is used; a member that is not an object is taken as the data
// itself.
type relation struct {
	Data json.RawMessage
}

// UnmarshalJSON reads {"data": ...}, or any other value as the data.
func (r *relation) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '{' {
		var w struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return err
		}
		r.Data = w.Data
		return nil
	}
	r.Data = append(json.RawMessage(nil), b...)
	return nil
}

// isNull reports whether raw is absent or JSON null.
func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// relationList decodes the data of the first of names present (and not
// null) in rels as a list.
func relationList[T any](rels map[string]relation, names ...string) ([]T, error) {
	for _, name := range names {
		r, ok := rels[name]
		if !ok || isNull(r.Data) {
			continue
		}
		var list []T
		if err := unmarshal(r.Data, &list); err != nil {
			return nil, fmt.Errorf("relationships.%s: %w", name, err)
		}
		return list, nil
	}
	return nil, nil
}

// relationID returns the id a to-one relationship refers to: data may be a
// resource identifier object, a bare id, or null.
func relationID(rels map[string]relation, name string) (string, error) {
	r, ok := rels[name]
	if !ok {
		return "", nil
	}
	id, err := refID(r.Data)
	if err != nil {
		return "", fmt.Errorf("relationships.%s: %w", name, err)
	}
	return id, nil
}

// refID reads an id from a resource identifier object, a bare id, or null.
func refID(raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", nil
	}
	if raw[0] == '{' {
		var ref struct {
			ID flexString `json:"id"`
		}
		if err := unmarshal(raw, &ref); err != nil {
			return "", err
		}
		return string(ref.ID), nil
	}
	var id flexString
	if err := unmarshal(raw, &id); err != nil {
		return "", err
	}
	return string(id), nil
}

// unmarshal is json.Unmarshal with readable errors, for the decoders'
// top-level calls (UnmarshalJSON methods return *json.UnmarshalTypeError,
// to which encoding/json adds the member's path).
func unmarshal(data []byte, v any) error {
	return readable(json.Unmarshal(data, v))
}

// readable words a *json.UnmarshalTypeError without Go type names; other
// errors are returned as they are.
func readable(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &typeError{te}
	}
	return err
}

// typeError words a *json.UnmarshalTypeError without Go type names:
// "data.attributes.title: got object, want a string".
type typeError struct {
	te *json.UnmarshalTypeError
}

func (e *typeError) Error() string {
	var path []string
	for f := range strings.SplitSeq(e.te.Field, ".") {
		// encoding/json names embedded structs in the path; the body
		// has no such members.
		if f != "" && f != "resource" && f != "nodeAttrs" {
			path = append(path, f)
		}
	}
	field := strings.Join(path, ".")
	if field == "" {
		field = "value"
	}
	return field + ": got " + e.te.Value + ", want " + wantOf(e.te.Type)
}

func (e *typeError) Unwrap() error { return e.te }

// wantOf names what a Go type reads from JSON.
func wantOf(t reflect.Type) string {
	switch t {
	case nil:
		return "another value"
	case reflect.TypeFor[flexString]():
		return "a string"
	case reflect.TypeFor[flexTime]():
		return "a timestamp"
	case reflect.TypeFor[nodeTypeWire]():
		return "an object"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return wantOf(t.Elem())
	}
	return "another value"
}

// kindError reports a JSON value b that cannot be read as a T, in the form
// encoding/json adds the member's path to.
func kindError[T any](b []byte) error {
	var got string
	switch {
	case len(b) == 0:
		got = "nothing"
	case b[0] == '{':
		got = "object"
	case b[0] == '[':
		got = "array"
	case b[0] == '"':
		got = "string " + strconv.Quote(sanitize(string(b[1:len(b)-1]), 40))
	case b[0] == 't' || b[0] == 'f':
		got = "bool"
	default:
		got = "number " + sanitize(string(b), 40)
	}
	return &json.UnmarshalTypeError{Value: got, Type: reflect.TypeFor[T]()}
}

// flexString is a string that may also come as a number (identifiers:
// "Identifier format and length: not shown").
type flexString string

// UnmarshalJSON reads a string, a number (as written) or null.
func (s *flexString) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) == 0:
		return kindError[flexString](b)
	case string(b) == "null":
		return nil
	case b[0] == '"':
		var x string
		if err := json.Unmarshal(b, &x); err != nil {
			return err
		}
		*s = flexString(x)
		return nil
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'):
		*s = flexString(b)
		return nil
	}
	return kindError[flexString](b)
}

// flexInt is a whole number that may also come as a fraction (rounded
// toward zero), in a string, or as null (0).
type flexInt int

// UnmarshalJSON reads a number, a numeric string or null.
func (n *flexInt) UnmarshalJSON(b []byte) error {
	s := string(b)
	switch {
	case s == "null":
		return nil
	case len(b) > 0 && b[0] == '"':
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s = strings.TrimSpace(s); s == "" {
			*n = 0
			return nil
		}
	}
	v, ok := parseWhole(s)
	if !ok {
		return kindError[flexInt](b)
	}
	*n = flexInt(v)
	return nil
}

// parseWhole reads a decimal number as an int, rounding toward zero and
// clamping to the range of int.
func parseWhole(s string) (int, bool) {
	if i, err := strconv.ParseInt(s, 10, 0); err == nil {
		return int(i), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	if err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return 0, false // "NaN", "Inf": words, not numbers (1e400 is out of range instead)
	}
	switch {
	case f >= math.MaxInt:
		return math.MaxInt, true
	case f <= math.MinInt:
		return math.MinInt, true
	}
	return int(f), true
}

// flexBool is a boolean that may also come as a string ("true", "1",
// "yes") or a number (non-zero is true), or as null (false).
type flexBool bool

// UnmarshalJSON reads a boolean, a string, a number or null.
func (v *flexBool) UnmarshalJSON(b []byte) error {
	switch s := string(b); {
	case s == "null":
		return nil
	case s == "true" || s == "false":
		*v = s == "true"
		return nil
	case len(b) > 0 && b[0] == '"':
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			*v = false
			return nil
		}
		switch s = strings.ToLower(s); s {
		case "yes", "no":
			*v = s == "yes"
			return nil
		}
		x, err := strconv.ParseBool(s)
		if err != nil {
			return kindError[flexBool](b)
		}
		*v = flexBool(x)
		return nil
	case len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')):
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return kindError[flexBool](b)
		}
		*v = f != 0
		return nil
	}
	return kindError[flexBool](b)
}

// flexTime is a timestamp: an ISO 8601 string (RFC 3339, with or without
// fractional seconds; a few common variants are accepted too), a number of
// Unix seconds, or null. A string that is no timestamp leaves the zero time:
// timestamps are informational, and one odd value must not fail a whole
// export.
type flexTime struct {
	time.Time
}

// UnmarshalJSON reads a string, a number or null.
func (t *flexTime) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		t.Time = parseTimestamp(s)
		return nil
	case len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')):
		f, err := strconv.ParseFloat(string(b), 64)
		// Seconds from 1970 to 9999 (larger values are not Unix seconds).
		if err == nil && f >= 0 && f < 253402300800 {
			sec, frac := math.Modf(f)
			t.Time = time.Unix(int64(sec), int64(frac*1e9)).UTC()
		}
		return nil
	}
	return kindError[flexTime](b)
}

// parseTimestamp reads an ISO 8601 timestamp in UTC, or returns the zero
// time.
func parseTimestamp(s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	for _, layout := range [...]string{
		time.RFC3339, // fractional seconds are accepted when parsing
		"2006-01-02T15:04:05Z0700",
		"2006-01-02 15:04:05Z07:00",
		"2006-01-02 15:04:05Z0700",
		"2006-01-02T15:04:05",
		"2006-01-02 15:04:05",
		"2006-01-02",
	} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// errorIn wraps an error met in one part of a response.
func errorIn(what, where string, err error) error {
	return fmt.Errorf("decode %s: %s: %w", what, where, err)
}
