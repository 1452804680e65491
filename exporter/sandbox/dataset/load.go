package dataset

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

//go:embed sample.json
var sampleJSON []byte

// Sample returns a fresh copy of the embedded sample dataset: two
// organizations, curricula with nested variants, five locales (one
// right-to-left, one CJK) with partial translations, and drafts.
func Sample() (*Dataset, error) {
	ds, err := Decode(bytes.NewReader(sampleJSON))
	if err != nil {
		return nil, fmt.Errorf("sample dataset: %w", err)
	}
	return ds, nil
}

// Decode reads a dataset in the JSON format of docs/sandbox.md. Unknown
// fields are errors, so that a misspelt field does not silently vanish.
func Decode(r io.Reader) (*Dataset, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var ds Dataset
	if err := dec.Decode(&ds); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, fmt.Errorf("decode dataset: at byte %d: %w", syn.Offset, err)
		}
		return nil, fmt.Errorf("decode dataset: %w", err)
	}
	if dec.More() {
		return nil, errors.New("decode dataset: trailing data after the top-level object")
	}
	return &ds, nil
}

// Open returns the dataset named by spec: "sample", "synthetic:KEY=VALUE,..."
// (see ParseSynthetic), or the path of a JSON dataset file.
func Open(spec string) (*Dataset, error) {
	switch {
	case spec == "" || spec == "sample":
		return Sample()
	case strings.HasPrefix(spec, "synthetic"):
		opts, err := ParseSynthetic(strings.TrimPrefix(strings.TrimPrefix(spec, "synthetic"), ":"))
		if err != nil {
			return nil, err
		}
		return Synthetic(opts), nil
	}
	f, err := os.Open(spec)
	if err != nil {
		return nil, fmt.Errorf("open dataset: %w", err)
	}
	defer f.Close()
	ds, err := Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	return ds, nil
}
