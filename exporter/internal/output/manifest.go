package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/curex/curex/exporter/internal/layout"
)

// ManifestName is the manifest's file name at the output root.
const ManifestName = layout.Manifest

// Export states in the manifest.
const (
	// StateOK: the export was written by this run.
	StateOK = "ok"
	// StateKept: this run failed to fetch the export; its files are the
	// previous run's, carried over.
	StateKept = "kept"
	// StateMissing: this run failed to fetch the export and no previous
	// version existed.
	StateMissing = "missing"
)

// Manifest is manifest.json (a contract: see the design).
type Manifest struct {
	Generator string           `json:"generator"`
	Exports   []ManifestExport `json:"exports"`
	Files     []ManifestFile   `json:"files"`
}

// ManifestExport describes one variant × locale in the output.
type ManifestExport struct {
	CurriculumID   string   `json:"curriculum_id"`
	CurriculumName string   `json:"curriculum_name"`
	Variant        string   `json:"variant"`
	VariantChain   []string `json:"variant_chain"`
	Locale         string   `json:"locale"`
	PrimaryLocale  string   `json:"primary_locale"`
	NodeCount      int      `json:"node_count"`
	ETag           string   `json:"etag"`
	HTML           string   `json:"html,omitempty"`
	JSON           string   `json:"json,omitempty"`
	Markdown       string   `json:"markdown,omitempty"`
	Handbook       string   `json:"handbook,omitempty"`
	// PDF is the printed handbook (--formats pdf).
	PDF string `json:"pdf,omitempty"`
	// EPUB is the EPUB book (--formats epub).
	EPUB string `json:"epub,omitempty"`
	// Cartridge is the IMS Common Cartridge (--formats cartridge).
	Cartridge string `json:"cartridge,omitempty"`
	// Formats lists the paths of the formats the manifest has no key of
	// its own for (a format added to a build), by format name. Use
	// SetPath and Path, which keep each format in its place.
	Formats map[string]string `json:"formats,omitempty"`
	// Changes is the export's changes.json: what changed at each export.
	Changes string `json:"changes,omitempty"`
	// Feed is its Atom feed of changes (with the website).
	Feed string `json:"feed,omitempty"`
	// MathErrors counts the TeX expressions of the export's content that
	// could not be converted to MathML (with the website, the handbook,
	// the PDF or the EPUB book): their pages show the source, marked.
	MathErrors int `json:"math_errors,omitempty"`
	// RenderKey identifies everything besides the tree that shaped the
	// export's files (program, formats, theme, options, its curriculum's
	// variants and locales): a run whose key and ETag match may carry the
	// files over instead of rendering them again.
	RenderKey string `json:"render_key,omitempty"`
	// Assets are the images its pages show, kept under assets/content/
	// (shared by every export that shows them), sorted: an export
	// carried over carries them over.
	Assets []string `json:"assets,omitempty"`
	// State is ok, kept or missing; Error says why when not ok.
	State string `json:"state"`
	Error string `json:"error,omitempty"`
}

// keyedPath is the field of a format that has a key of its own in the
// manifest (docs/schema/manifest.schema.json).
type keyedPath struct {
	format string
	path   *string
}

// keyed returns the fields of e of the formats that have a key of their
// own, in the order of the keys.
func (e *ManifestExport) keyed() []keyedPath {
	return []keyedPath{{"html", &e.HTML}, {"json", &e.JSON}, {"markdown", &e.Markdown}, {"handbook", &e.Handbook},
		{"pdf", &e.PDF}, {"epub", &e.EPUB}, {"cartridge", &e.Cartridge}}
}

// field returns the field that holds the path of format, nil for a
// format without a key of its own.
func (e *ManifestExport) field(format string) *string {
	for _, k := range e.keyed() {
		if k.format == format {
			return k.path
		}
	}
	return nil
}

// Path returns the path listed for format ("" for none): its own key's,
// or its entry in Formats.
func (e *ManifestExport) Path(format string) string {
	if f := e.field(format); f != nil {
		return *f
	}
	return e.Formats[format]
}

// SetPath lists path for format, under its own key or in Formats; ""
// removes it.
func (e *ManifestExport) SetPath(format, path string) {
	if f := e.field(format); f != nil {
		*f = path
		return
	}
	if path == "" {
		delete(e.Formats, format)
		if len(e.Formats) == 0 {
			e.Formats = nil
		}
		return
	}
	if e.Formats == nil {
		e.Formats = map[string]string{}
	}
	e.Formats[format] = path
}

// Paths returns every format's path listed, those with a key of their own
// first, in the manifest's order, then the others by format name.
func (e *ManifestExport) Paths() []string {
	var out []string
	for _, k := range e.keyed() {
		if p := *k.path; p != "" {
			out = append(out, p)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(e.Formats)) {
		out = append(out, e.Formats[name])
	}
	return out
}

// ManifestFile is one file of the output with its size and SHA-256.
type ManifestFile struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Encode returns the manifest as indented JSON with a trailing newline.
func (m *Manifest) Encode() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	return buf.Bytes(), nil
}

// encode writes m as Encode does (byte for byte, TestStreamedManifest),
// with the n files file(i) gives instead of m.Files, one at a time: a
// manifest of many files is written without a copy of its list in memory.
func (m *Manifest) encode(w io.Writer, n int, file func(i int) ManifestFile) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	// The members before files, as encoding/json writes them: the last
	// line ("}\n") is left out, for files to follow.
	head := struct {
		Generator string           `json:"generator"`
		Exports   []ManifestExport `json:"exports"`
	}{m.Generator, m.Exports}
	if err := enc.Encode(head); err != nil {
		return fmt.Errorf("encode manifest: %w", err)
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n}\n"))
	if _, err := w.Write(b); err != nil {
		return err
	}
	if n == 0 {
		_, err := io.WriteString(w, ",\n  \"files\": []\n}\n")
		return err
	}
	if _, err := io.WriteString(w, ",\n  \"files\": [\n"); err != nil {
		return err
	}
	enc.SetIndent("    ", "  ")
	for i := range n {
		buf.Reset()
		if err := enc.Encode(file(i)); err != nil {
			return fmt.Errorf("encode manifest: %w", err)
		}
		b := buf.Bytes()
		b = b[:len(b)-1] // the encoder's newline
		sep := ",\n"
		if i == n-1 {
			sep = "\n"
		}
		if _, err := io.WriteString(w, "    "); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "  ]\n}\n")
	return err
}

// ReadManifest decodes a manifest.
func ReadManifest(r io.Reader) (*Manifest, error) {
	var m Manifest
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		return nil, fmt.Errorf("read %s: %w", ManifestName, err)
	}
	return &m, nil
}
