package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// RecordForm is how the sandbox writes the records of spec section 2.
type RecordForm string

// The record forms. The specification shows resource objects (id, type,
// attributes) but describes the locale progress entry by its fields alone,
// with no type; a server that writes every record as a plain object, its
// fields at the top, is as faithful. Clients must read both.
const (
	// RecordsResource writes resource objects: id, type, attributes and
	// relationships (the default; the zero value means it too).
	RecordsResource RecordForm = "resource"
	// RecordsPlain writes plain objects: id, the fields at the top (a
	// content node's free-form content stays under attributes),
	// relationships and a resolved node's children; no type.
	RecordsPlain RecordForm = "plain"
)

// ParseRecordForm reads a record form by name; "" is RecordsResource.
func ParseRecordForm(s string) (RecordForm, error) {
	switch f := RecordForm(s); f {
	case "", RecordsResource:
		return RecordsResource, nil
	case RecordsPlain:
		return f, nil
	}
	return "", fmt.Errorf("%q is not a record form (resource or plain)", s)
}

// plainRecords rewrites the data of an endpoint's envelope in the plain
// form. References (relationship data naming a record by id and type) are
// not records and stay as they are.
func plainRecords(v any) any {
	env, ok := v.(envelope)
	if !ok {
		return v
	}
	env.Data = plainOf(env.Data)
	return env
}

// plainOf converts a record or a list of records; anything else is kept.
func plainOf(v any) any {
	switch x := v.(type) {
	case resource:
		return plainRecord{id: x.ID, attrs: x.Attributes, rels: plainRels(x.Relationships)}
	case []resource:
		out := make([]plainRecord, len(x))
		for i := range x {
			out[i] = plainOf(x[i]).(plainRecord)
		}
		return out
	case resolvedNode:
		children := make([]plainRecord, len(x.Children))
		for i := range x.Children {
			children[i] = plainOf(x.Children[i]).(plainRecord)
		}
		return plainRecord{id: x.ID, attrs: x.Attributes, rels: plainRels(x.Relations), children: children, hasChildren: true}
	case []resolvedNode:
		out := make([]plainRecord, len(x))
		for i := range x {
			out[i] = plainOf(x[i]).(plainRecord)
		}
		return out
	}
	return v
}

func plainRels(rels map[string]relation) map[string]relation {
	if rels == nil {
		return nil
	}
	out := make(map[string]relation, len(rels))
	for k, r := range rels {
		out[k] = relation{Data: plainOf(r.Data)}
	}
	return out
}

// plainRecord is a record in the plain form: id, then the members of its
// attributes in their order, then children and relationships.
type plainRecord struct {
	id          string
	attrs       any
	rels        map[string]relation
	children    []plainRecord
	hasChildren bool
}

// MarshalJSON writes the record with its fields at the top.
func (p plainRecord) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := p.writeTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeTo writes the record and its subtree into buf itself: children
// written through MarshalJSON would be checked again at every level, and
// deep trees would cost time quadratic in their depth.
func (p plainRecord) writeTo(buf *bytes.Buffer) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false) // as encode: free-form content keeps its bytes
	buf.WriteString(`{"id":`)
	if err := enc.Encode(p.id); err != nil {
		return err
	}
	var attrs bytes.Buffer
	aenc := json.NewEncoder(&attrs)
	aenc.SetEscapeHTML(false)
	if err := aenc.Encode(p.attrs); err != nil {
		return err
	}
	inner := bytes.TrimSpace(attrs.Bytes())
	if len(inner) < 2 || inner[0] != '{' {
		return fmt.Errorf("record %s: attributes are not an object", p.id)
	}
	if inner = bytes.TrimSpace(inner[1 : len(inner)-1]); len(inner) > 0 {
		buf.WriteByte(',')
		buf.Write(inner)
	}
	if p.hasChildren {
		buf.WriteString(`,"children":[`)
		for i, c := range p.children {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := c.writeTo(buf); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	}
	if p.rels != nil {
		buf.WriteString(`,"relationships":`)
		if err := enc.Encode(p.rels); err != nil {
			return err
		}
	}
	buf.WriteByte('}')
	return nil
}
