package treeschema

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// schemaJSON is an identical copy of docs/schema/tree.schema.json (embed
// cannot reach outside the package; a test keeps the two in sync).
//
//go:embed tree.schema.json
var schemaJSON []byte

// format is the name of the format the schema describes, its
// properties.format.const (a test keeps the two in sync; jsonbundle's
// tests check that Encode writes it).
const format = "curex.tree/v1"

// SchemaID is the $id of the tree.json schema.
const SchemaID = "https://curex.dev/schema/tree.schema.json"

// SchemaJSON returns the embedded JSON Schema (draft 2020-12) of tree.json,
// the same bytes as docs/schema/tree.schema.json. The result is a copy the
// caller may modify.
func SchemaJSON() []byte { return bytes.Clone(schemaJSON) }

// Validator checks tree.json documents against the embedded schema, with
// formats (date-time) asserted. It is safe for concurrent use.
type Validator struct {
	schema *jsonschema.Schema
}

// NewValidator compiles the embedded schema. It fails only if the schema
// itself is broken.
func NewValidator() (*Validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("treeschema: schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(SchemaID, doc); err != nil {
		return nil, fmt.Errorf("treeschema: schema: %w", err)
	}
	sch, err := c.Compile(SchemaID)
	if err != nil {
		return nil, fmt.Errorf("treeschema: schema: %w", err)
	}
	return &Validator{schema: sch}, nil
}

// Validate reports whether data is a tree.json document that matches the
// schema. It returns a *SyntaxError when data is not one JSON value, and a
// *ValidationError listing every failing location when the value does not
// match. Documents of any nesting depth are read.
func (v *Validator) Validate(data []byte) error {
	doc, err := decode(data)
	if err != nil {
		return err
	}
	err = v.schema.Validate(doc)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return fmt.Errorf("treeschema: validate: %w", err)
	}
	return newValidationError(verr)
}

// SyntaxError reports that a document is not a single JSON value.
type SyntaxError struct {
	// Offset is the byte offset in the document after which the problem
	// was found.
	Offset int64
	// Msg describes the problem.
	Msg string
}

// Error says where the document stops being JSON.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("treeschema: tree.json is not valid JSON: at byte %d: %s", e.Offset, e.Msg)
}

// Problem is one place where a document breaks the schema.
type Problem struct {
	// Location is the JSON Pointer (RFC 6901) of the failing value in the
	// document, "" for the document itself (for example
	// "/nodes/0/children/2/path").
	Location string
	// Keyword is the JSON Pointer of the failing keyword in the schema
	// (for example "/$defs/node/properties/path/pattern").
	Keyword string
	// Message says what is wrong.
	Message string
}

// String formats the problem as "location: message [schema keyword]",
// with "(document)" as the location of the document itself.
func (p Problem) String() string {
	loc := p.Location
	if loc == "" {
		loc = "(document)"
	}
	return fmt.Sprintf("%s: %s [schema %s]", loc, p.Message, p.Keyword)
}

// ValidationError reports that a document does not match the schema.
type ValidationError struct {
	// Problems lists every failing location, sorted by location (array
	// elements by index).
	Problems []Problem
}

// Error lists the problems, one a line.
func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "treeschema: tree.json does not match the %s schema (%d problem", format, len(e.Problems))
	if len(e.Problems) != 1 {
		b.WriteByte('s')
	}
	b.WriteString("):")
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// printer renders the library's messages, in English.
var printer = message.NewPrinter(language.English)

// newValidationError flattens the library's error tree into its leaves,
// the errors that say what is wrong; the inner ones only say that a $ref
// or a group failed.
func newValidationError(verr *jsonschema.ValidationError) *ValidationError {
	type located struct {
		Problem
		tokens []string
	}
	var ps []located
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		p := located{Problem{Location: pointerOf(e.InstanceLocation), Keyword: keywordOf(e)}, e.InstanceLocation}
		if k, ok := e.ErrorKind.(*kind.Pattern); ok {
			// The library quotes the whole pattern; the keyword says which.
			p.Message = fmt.Sprintf("%q does not match the pattern", k.Got)
		} else {
			p.Message = e.ErrorKind.LocalizedString(printer)
		}
		ps = append(ps, p)
	}
	walk(verr)
	slices.SortFunc(ps, func(a, b located) int {
		return cmp.Or(compareTokens(a.tokens, b.tokens), strings.Compare(a.Keyword, b.Keyword), strings.Compare(a.Message, b.Message))
	})
	out := &ValidationError{}
	for _, p := range ps {
		if n := len(out.Problems); n == 0 || out.Problems[n-1] != p.Problem {
			out.Problems = append(out.Problems, p.Problem)
		}
	}
	return out
}

// compareTokens orders instance locations as in the document: parents
// before their members, array indexes by number.
func compareTokens(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, errx := strconv.Atoi(a[i])
		y, erry := strconv.Atoi(b[i])
		if errx == nil && erry == nil {
			if c := cmp.Compare(x, y); c != 0 {
				return c
			}
		} else if c := strings.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// pointerOf returns the JSON Pointer (RFC 6901) of a list of tokens.
func pointerOf(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

// keywordOf returns the JSON Pointer of e's keyword within the schema.
func keywordOf(e *jsonschema.ValidationError) string {
	loc := e.SchemaURL
	if i := strings.IndexByte(loc, '#'); i >= 0 {
		loc = loc[i+1:]
	} else {
		loc = ""
	}
	for _, k := range e.ErrorKind.KeywordPath() {
		loc += "/" + k
	}
	return loc
}

// decode reads data into the values the schema library validates (maps,
// slices, json.Number, string, bool, nil). encoding/json's decoder is fast
// but refuses documents nested more than 10,000 levels deep, and a node at
// depth d already sits 2d+3 levels deep: when it fails, decodeTokens reads
// the document token by token, at any depth, or reports the syntax error.
func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err == nil {
		if _, err := dec.Token(); err == io.EOF {
			return v, nil
		}
	}
	return decodeTokens(data)
}

// decodeTokens is decode without a depth limit and without recursion.
func decodeTokens(data []byte) (any, error) {
	type open struct {
		obj     map[string]any
		arr     []any
		isObj   bool
		key     string
		haveKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var (
		stack []*open
		root  any
		done  bool
	)
	add := func(v any) {
		if len(stack) == 0 {
			root, done = v, true
			return
		}
		o := stack[len(stack)-1]
		if o.isObj {
			o.obj[o.key] = v
			o.haveKey = false
		} else {
			o.arr = append(o.arr, v)
		}
	}
	syntax := func(err error) error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return &SyntaxError{Offset: se.Offset, Msg: se.Error()}
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return &SyntaxError{Offset: int64(len(data)), Msg: "unexpected end of data"}
		}
		return &SyntaxError{Offset: dec.InputOffset(), Msg: err.Error()}
	}
	for !done {
		tok, err := dec.Token()
		if err != nil {
			return nil, syntax(err)
		}
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{':
				stack = append(stack, &open{obj: map[string]any{}, isObj: true})
			case '[':
				stack = append(stack, &open{arr: []any{}})
			default: // '}' or ']': the decoder has matched it
				o := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if o.isObj {
					add(o.obj)
				} else {
					add(o.arr)
				}
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].isObj && !stack[n-1].haveKey {
				stack[n-1].key, stack[n-1].haveKey = tok, true
			} else {
				add(tok)
			}
		default: // json.Number, bool or nil
			add(tok)
		}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &SyntaxError{Offset: dec.InputOffset(), Msg: "data after the top-level value"}
	}
	return root, nil
}
