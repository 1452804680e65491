package html

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/curex/curex/exporter/internal/jsonstr"
)

// The search index's files are most of the JSON a website holds, and
// encoding/json's reflection was a fifth of their build (issue 27). The
// functions below write the types of search.go (searchEntry,
// searchTitles, searchChunk, searchTerms) by appending to a []byte, byte
// for byte as json.Marshal writes them: the struct tags' names and
// order, omitempty, null for a nil slice or map, map keys sorted, and
// strings escaped by jsonstr.AppendHTMLSafe. TestSearchJSONAsMarshal
// compares them with json.Marshal (jsonstr's fuzz target the strings).
// The head (searchHead, one a tree) and other small files keep
// json.Marshal.

// appendJSONArray appends vs as a JSON array (null when nil), each
// element by appendOne.
func appendJSONArray[T any](b []byte, vs []T, appendOne func([]byte, T) []byte) []byte {
	if vs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendOne(b, v)
	}
	return append(b, ']')
}

// appendJSONInt appends n as a JSON number.
func appendJSONInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

// appendJSONEntries appends search.json: es as a JSON array (null when
// nil). It grows b once, to the size of es without escapes: appending
// a file of megabytes to a slice that doubles as it goes cost most of
// the encoding's time.
func appendJSONEntries(b []byte, es []searchEntry) []byte {
	if es == nil {
		return append(b, "null"...)
	}
	n := 2
	for i := range es {
		e := &es[i]
		n += len(e.ID) + len(e.Title) + len(e.TypeDisplay) + len(e.Path) + len(e.Lang) + len(e.Text) + 80
		for _, f := range e.Fields {
			n += len(f.Key) + len(f.Label) + len(f.Text) + 32
		}
	}
	b = slices.Grow(b, n)
	b = append(b, '[')
	for i := range es {
		if i > 0 {
			b = append(b, ',')
		}
		b = es[i].appendJSON(b)
	}
	return append(b, ']')
}

// appendJSON appends e as json.Marshal writes it.
func (e *searchEntry) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = jsonstr.AppendHTMLSafe(b, e.ID)
	b = append(b, `,"title":`...)
	b = jsonstr.AppendHTMLSafe(b, e.Title)
	b = append(b, `,"type_display":`...)
	b = jsonstr.AppendHTMLSafe(b, e.TypeDisplay)
	b = append(b, `,"path":`...)
	b = jsonstr.AppendHTMLSafe(b, e.Path)
	if e.Lang != "" {
		b = append(b, `,"lang":`...)
		b = jsonstr.AppendHTMLSafe(b, e.Lang)
	}
	b = append(b, `,"text":`...)
	b = jsonstr.AppendHTMLSafe(b, e.Text)
	if len(e.Fields) > 0 {
		b = append(b, `,"fields":[`...)
		for i, f := range e.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"key":`...)
			b = jsonstr.AppendHTMLSafe(b, f.Key)
			b = append(b, `,"label":`...)
			b = jsonstr.AppendHTMLSafe(b, f.Label)
			b = append(b, `,"text":`...)
			b = jsonstr.AppendHTMLSafe(b, f.Text)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendJSON appends t as json.Marshal writes it.
func (t *searchTitles) appendJSON(b []byte) []byte {
	b = append(b, `{"first":`...)
	b = strconv.AppendInt(b, int64(t.First), 10)
	b = append(b, `,"nodes":`...)
	if t.Nodes == nil {
		b = append(b, "null"...)
		return append(b, '}')
	}
	b = append(b, '[')
	for i, row := range t.Nodes {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONArray(b, row, jsonstr.AppendHTMLSafe)
	}
	return append(b, "]}"...)
}

// appendJSON appends c as json.Marshal writes it. The items of a node
// are label indexes (int) and texts (string); an item of another type,
// which buildSearch never makes, is written by json.Marshal.
func (c *searchChunk) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"first":`...)
	b = strconv.AppendInt(b, int64(c.First), 10)
	b = append(b, `,"nodes":`...)
	if c.Nodes == nil {
		b = append(b, "null"...)
		return append(b, '}'), nil
	}
	b = append(b, '[')
	for i, items := range c.Nodes {
		if i > 0 {
			b = append(b, ',')
		}
		if items == nil {
			b = append(b, "null"...)
			continue
		}
		b = append(b, '[')
		for k, it := range items {
			if k > 0 {
				b = append(b, ',')
			}
			switch v := it.(type) {
			case int:
				b = strconv.AppendInt(b, int64(v), 10)
			case string:
				b = jsonstr.AppendHTMLSafe(b, v)
			default:
				js, err := json.Marshal(v)
				if err != nil {
					return nil, err
				}
				b = append(b, js...)
			}
		}
		b = append(b, ']')
	}
	return append(b, "]}"...), nil
}

// appendJSON appends t as json.Marshal writes it: each map's keys in
// byte order.
func (t *searchTerms) appendJSON(b []byte) []byte {
	b = append(b, `{"terms":`...)
	if t.Terms == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '{')
		for i, stem := range slices.Sorted(maps.Keys(t.Terms)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonstr.AppendHTMLSafe(b, stem)
			b = append(b, ':')
			b = appendJSONArray(b, t.Terms[stem], appendJSONInt)
		}
		b = append(b, '}')
	}
	if len(t.Words) > 0 {
		b = append(b, `,"words":{`...)
		for i, stem := range slices.Sorted(maps.Keys(t.Words)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonstr.AppendHTMLSafe(b, stem)
			b = append(b, ':')
			b = jsonstr.AppendHTMLSafe(b, t.Words[stem])
		}
		b = append(b, '}')
	}
	return append(b, '}')
}
