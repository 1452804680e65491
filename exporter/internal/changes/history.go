package changes

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MaxEntries is how many entries a History keeps; older ones are dropped.
const MaxEntries = 50

// History is what changed in one variant × locale over its exports,
// newest first: the changes.json of its bundle folder.
type History struct {
	CurriculumID   string   `json:"curriculum_id"`
	CurriculumName string   `json:"curriculum_name"`
	Variant        string   `json:"variant"`
	VariantChain   []string `json:"variant_chain"`
	Locale         string   `json:"locale"`
	// Entries are the changes, newest first; at most MaxEntries.
	Entries []Entry `json:"entries"`
}

// Add puts e first, unless it is empty, and keeps at most MaxEntries.
func (h *History) Add(e Entry) {
	if e.Empty() {
		return
	}
	h.Entries = append([]Entry{e}, h.Entries...)
	if len(h.Entries) > MaxEntries {
		h.Entries = h.Entries[:MaxEntries]
	}
}

// Encode returns h as indented JSON with a final newline: the same
// history gives the same bytes.
func (h *History) Encode() ([]byte, error) {
	c := *h
	if c.Entries == nil {
		c.Entries = []Entry{}
	}
	if c.VariantChain == nil {
		c.VariantChain = []string{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		return nil, fmt.Errorf("changes: %w", err)
	}
	return b.Bytes(), nil
}

// maxHistoryBytes bounds a changes.json read back.
const maxHistoryBytes = 64 << 20

// Decode reads a changes.json written by Encode. The file comes from the
// previous output, which anyone with access to the folder or bucket may
// have changed: anything unexpected is an error, and the caller starts a
// new history.
func Decode(data []byte) (*History, error) {
	if len(data) > maxHistoryBytes {
		return nil, fmt.Errorf("changes.json: %d bytes, more than the %d expected", len(data), maxHistoryBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var h History
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("changes.json: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("changes.json: data after the history")
	}
	if len(h.Entries) > MaxEntries {
		h.Entries = h.Entries[:MaxEntries]
	}
	return &h, nil
}
