package sandbox

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
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

// encodePlain encodes an endpoint's answer with its records in the plain
// form. It writes the records itself rather than through encoding/json,
// whose check of what a MarshalJSON method returns stops at 10,000 levels
// of nesting (the sandbox serves deeper trees, for the clients' limits
// to refuse) and would scan each subtree again at every level.
func encodePlain(v any) []byte {
	env, ok := v.(envelope)
	if !ok {
		return encode(v)
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	if env.Status != "" {
		buf.WriteString(`"status":`)
		writeJSON(&buf, env.Status)
		buf.WriteByte(',')
	}
	buf.WriteString(`"data":`)
	writeData(&buf, plainOf(env.Data))
	if env.Meta != nil {
		buf.WriteString(`,"meta":`)
		writeJSON(&buf, env.Meta)
	}
	buf.WriteString("}\n")
	return buf.Bytes()
}

// writeJSON appends v as encode does, without the newline.
func writeJSON(buf *bytes.Buffer, v any) {
	buf.Write(bytes.TrimSuffix(encode(v), []byte("\n")))
}

// writeData appends a record, a list of records or any other value.
func writeData(buf *bytes.Buffer, v any) {
	switch x := v.(type) {
	case plainRecord:
		x.writeTo(buf)
	case []plainRecord:
		buf.WriteByte('[')
		for i := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			x[i].writeTo(buf)
		}
		buf.WriteByte(']')
	default:
		writeJSON(buf, v)
	}
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

// writeTo appends the record and its subtree to buf.
func (p plainRecord) writeTo(buf *bytes.Buffer) {
	buf.WriteString(`{"id":`)
	writeJSON(buf, p.id)
	// The members of the attributes, in their order, without the braces.
	// Every attributes value is a struct of this package: an object.
	attrs := bytes.TrimSuffix(encode(p.attrs), []byte("\n"))
	if inner := attrs[1 : len(attrs)-1]; len(inner) > 0 {
		buf.WriteByte(',')
		buf.Write(inner)
	}
	if p.hasChildren {
		buf.WriteString(`,"children":`)
		writeData(buf, p.children)
	}
	if p.rels != nil {
		buf.WriteString(`,"relationships":{`)
		for i, k := range slices.Sorted(maps.Keys(p.rels)) {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeJSON(buf, k)
			buf.WriteString(`:{"data":`)
			writeData(buf, p.rels[k].Data)
			buf.WriteByte('}')
		}
		buf.WriteByte('}')
	}
	buf.WriteByte('}')
}
