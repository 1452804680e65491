package output

import (
	"bytes"
	"testing"
)

// TestStreamedManifest: the manifest Commit writes a file entry at a time
// is byte for byte what Encode writes of the whole struct.
func TestStreamedManifest(t *testing.T) {
	exports := []ManifestExport{{CurriculumID: "c1", CurriculumName: "Algebra <1> & \"more\"", Variant: "Texas", VariantChain: []string{"c1", "v1"},
		Locale: "es", PrimaryLocale: "en", NodeCount: 3, ETag: `W/"x"`, HTML: "c/texas/es/index.html"}}
	files := []ManifestFile{
		{Path: "a/index.html", Size: 12, SHA256: "00ff"},
		{Path: "b & <c>/ü.html", Size: 0, SHA256: ""},
		{Path: "z.json", Size: 1 << 40, SHA256: "abc"},
	}
	tests := []struct {
		name string
		m    Manifest
	}{
		{"no files", Manifest{Generator: "curex test", Files: []ManifestFile{}}},
		{"one file", Manifest{Generator: "curex", Exports: exports, Files: files[:1]}},
		{"files and exports", Manifest{Generator: "curex <test>", Exports: exports, Files: files}},
		{"no exports", Manifest{Files: files}},
		{"empty exports", Manifest{Exports: []ManifestExport{}, Files: files}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, err := tc.m.Encode()
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := tc.m.encode(&got, len(tc.m.Files), func(i int) ManifestFile { return tc.m.Files[i] }); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("streamed:\n%s\nwant:\n%s", got.Bytes(), want)
			}
		})
	}
}
