package output

import (
	"bytes"
	"testing"

	"github.com/spf13/afero"
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

// TestUnchangedManifestOnMemoryFS: a second run with the same files on a
// file system without hard links keeps manifest.json whole (it was once
// replaced by an empty file there) and counts it unchanged.
func TestUnchangedManifestOnMemoryFS(t *testing.T) {
	fsys := afero.NewMemMapFs()
	var first []byte
	for run := range 2 {
		w, err := Begin(fsys, "/out")
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write("a/index.html", []byte("<p>a</p>")); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(&Manifest{Generator: "curex test"}); err != nil {
			t.Fatal(err)
		}
		data, err := afero.ReadFile(fsys, "/out/"+ManifestName)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ReadManifest(bytes.NewReader(data)); err != nil {
			t.Fatalf("run %d: %v (%d bytes)", run+1, err, len(data))
		}
		if run == 0 {
			first = data
			continue
		}
		if !bytes.Equal(data, first) {
			t.Errorf("the unchanged manifest changed:\n%s\nwas:\n%s", data, first)
		}
		if written, unchanged := w.Counts(); written != 0 || unchanged != 2 {
			t.Errorf("second run: %d written, %d unchanged; want 0 and 2", written, unchanged)
		}
	}
}
