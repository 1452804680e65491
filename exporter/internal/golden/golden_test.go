package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sampleFiles are files of the kinds an export writes, and the edges of
// both layouts.
var sampleFiles = []File{
	{Name: "index.html", Data: []byte("<!DOCTYPE html>\n<p>Hola</p>\n")},
	{Name: "bundles/a/tree.json", Data: []byte("{\n  \"a\": 1\n}\n")},
	{Name: "search.json", Data: []byte(`{"no":"final newline"}`)},
	{Name: "empty.txt", Data: []byte{}},
	{Name: "blank-lines.md", Data: []byte("\n\n# t\n\n")},
	{Name: "arabic/ملف.md", Data: []byte("مرحبا\n")},
}

func TestTxtarRoundTrip(t *testing.T) {
	for _, comment := range []string{"", "curex export of one tree.\nRewrite: go test -update\n"} {
		files := append([]File(nil), sampleFiles...)
		files = append(files, File{Name: "head-like.txt", Data: []byte("==> not a header here <==\n")})
		a := &Archive{Comment: comment, Files: files}
		data, err := a.Txtar()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseTxtar(data)
		if err != nil {
			t.Fatal(err)
		}
		if !sameArchive(a, back) {
			t.Errorf("round trip changed the archive:\n%s", data)
		}
		if !bytes.Contains(data, []byte("-- search.json --\n{\"no\":\"final newline\"}\n"+noNewline+"\n")) {
			t.Errorf("a file without a final newline is not marked:\n%s", data)
		}
	}
}

func TestHeadRoundTrip(t *testing.T) {
	files := append([]File(nil), sampleFiles...)
	files = append(files, File{Name: "txtar-like.txt", Data: []byte("-- not a header here --\n")})
	a := &Archive{Files: files}
	data, err := a.Head()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseHead(data)
	if err != nil {
		t.Fatal(err)
	}
	if !sameArchive(a, back) {
		t.Errorf("round trip changed the archive:\n%s", data)
	}
	if want := "==> index.html <==\n<!DOCTYPE html>\n<p>Hola</p>\n\n==> bundles/a/tree.json <==\n"; !strings.HasPrefix(string(data), want) {
		t.Errorf("head layout starts %.80q, want %q", data, want)
	}
}

// TestReadsTheExistingHeadGoldens reads the golden file in the head(1)
// layout that the html package keeps, and writes it back byte for byte.
func TestReadsTheExistingHeadGoldens(t *testing.T) {
	path := "../../exporter/render/html/testdata/search.golden.txt"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("no head-layout golden file to read: %v", err)
	}
	a, err := ParseHead(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Files) < 3 {
		t.Errorf("%d files read from %s", len(a.Files), path)
	}
	out, err := a.Head()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, data) {
		t.Errorf("%s written back differs: %s", path, FirstDiff(data, out))
	}
}

func TestBinaryFilesAsDigests(t *testing.T) {
	zip := []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00")
	latin1 := []byte("caf\xe9\n")
	a := &Archive{Files: []File{{Name: "a.zip", Data: zip}, {Name: "b.txt", Data: latin1}}}
	for _, layout := range []struct {
		name  string
		write func() ([]byte, error)
	}{{"txtar", a.Txtar}, {"head", a.Head}} {
		data, err := layout.write()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if !bytes.Contains(data, Digest(f.Data)) || bytes.Contains(data, f.Data) {
				t.Errorf("%s: %s is not written as its digest:\n%q", layout.name, f.Name, data)
			}
		}
	}
	if got := string(Digest([]byte("abc"))); got != "binary, 3 bytes, sha256 ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n" {
		t.Errorf("Digest(abc) = %q", got)
	}
	for _, tc := range []struct {
		data []byte
		text bool
	}{{[]byte("plain\n"), true}, {nil, true}, {[]byte("a\x00b"), false}, {[]byte{0xff}, false}, {zip, false}} {
		if IsText(tc.data) != tc.text {
			t.Errorf("IsText(%q) = %v", tc.data, !tc.text)
		}
	}
}

func TestRefusesAmbiguousArchives(t *testing.T) {
	tests := []struct {
		name  string
		a     Archive
		txtar bool // written as txtar, else head
		want  string
	}{
		{"txtar header in a file", Archive{Files: []File{{"a", []byte("x\n-- b --\ny\n")}}}, true, "line 2"},
		{"txtar header in the comment", Archive{Comment: "-- a --\n"}, true, "the comment"},
		{"diff's no-newline line at the end", Archive{Files: []File{{"a", []byte("x\n" + noNewline + "\n")}}}, true, "ends in a line"},
		{"head header in a file", Archive{Files: []File{{"a", []byte("==> b <==\n")}}}, false, "line 1"},
		{"comment in head", Archive{Comment: "c"}, false, "no place for a comment"},
		{"empty name", Archive{Files: []File{{"", nil}}}, true, "file name"},
		{"spaced name", Archive{Files: []File{{" a", nil}}}, false, "file name"},
		{"name with a newline", Archive{Files: []File{{"a\nb", nil}}}, true, "file name"},
		{"twice", Archive{Files: []File{{"a", nil}, {"a", nil}}}, true, "twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			write := tt.a.Head
			if tt.txtar {
				write = tt.a.Txtar
			}
			_, err := write()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for name, data := range map[string]string{
		"text before the first head header": "hello\n==> a <==\nx\n\n",
		"head file without its newline":     "==> a <==\nx",
		"head name twice":                   "==> a <==\n\n==> a <==\n\n",
	} {
		if _, err := ParseHead([]byte(data)); err == nil {
			t.Errorf("ParseHead, %s: no error", name)
		}
	}
	if _, err := ParseTxtar([]byte("-- a --\n-- a --\n")); err == nil {
		t.Error("ParseTxtar read a name twice")
	}
}

func TestFromMap(t *testing.T) {
	a := FromMap("c", map[string][]byte{"b": []byte("2"), "a/z": []byte("1"), "a": nil})
	var names []string
	for _, f := range a.Files {
		names = append(names, f.Name)
	}
	if want := []string{"a", "a/z", "b"}; !reflect.DeepEqual(names, want) || a.Comment != "c" {
		t.Errorf("FromMap: %q %q", a.Comment, names)
	}
}

func TestFirstDiff(t *testing.T) {
	tests := []struct{ want, got, out string }{
		{"a\nb\nc\n", "a\nB\nc\n", "line 2:\n    want \"b\\n\"\n    got  \"B\\n\""},
		{"a\n", "a\nb\n", "line 2:\n    want (end of file)\n    got  \"b\\n\""},
		{"a\n", "a", "line 1:\n    want \"a\\n\"\n    got  \"a\""},
		{"same\n", "same\n", "no line differs"},
	}
	for _, tt := range tests {
		if out := FirstDiff([]byte(tt.want), []byte(tt.got)); out != tt.out {
			t.Errorf("FirstDiff(%q, %q) = %q, want %q", tt.want, tt.got, out, tt.out)
		}
	}
	long := strings.Repeat("x", 300)
	if out := FirstDiff([]byte(long), nil); !strings.Contains(out, "…") || len(out) > 260 {
		t.Errorf("a long line is not cut: %q", out)
	}
}

// TestWriteAndCompare runs what Check does with and without -update on a
// temporary folder.
func TestWriteAndCompare(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "testdata", "sub", "page.golden.html")
	if err := compare(path, []byte("x")); err == nil || !strings.Contains(err.Error(), "-update creates it") {
		t.Errorf("a missing golden file: %v", err)
	}
	if err := write(path, []byte("<p>one</p>\n<p>two</p>\n")); err != nil {
		t.Fatal(err)
	}
	if err := compare(path, []byte("<p>one</p>\n<p>two</p>\n")); err != nil {
		t.Errorf("equal: %v", err)
	}
	err := compare(path, []byte("<p>one</p>\n<p>deux</p>\n"))
	if err == nil || !strings.Contains(err.Error(), "page.golden.html differs: line 2:") || !strings.Contains(err.Error(), `"<p>deux</p>\n"`) {
		t.Errorf("a difference: %v", err)
	}
}

func TestCompareArchive(t *testing.T) {
	dir := t.TempDir()
	want := &Archive{Comment: "what\n", Files: []File{{"a.html", []byte("1\n2\n")}, {"gone.txt", []byte("x\n")}, {"same", []byte("s\n")}}}
	got := &Archive{Comment: "what\n", Files: []File{{"a.html", []byte("1\n3\n")}, {"new.txt", []byte("y\n")}, {"same", []byte("s\n")}}}
	for _, name := range []string{"out.txtar", "out.golden.txt"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			data, err := want.format(path)
			if name != "out.txtar" {
				w := *want
				w.Comment = ""
				data, err = w.format(path)
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := write(path, data); err != nil {
				t.Fatal(err)
			}
			g := *got
			if name != "out.txtar" {
				g.Comment = ""
			}
			gdata, err := g.format(path)
			if err != nil {
				t.Fatal(err)
			}
			err = compareArchive(path, gdata)
			if err == nil {
				t.Fatal("no difference found")
			}
			for _, line := range []string{"missing: gone.txt", "new:     new.txt", "changed: a.html: line 2:"} {
				if !strings.Contains(err.Error(), line) {
					t.Errorf("the report does not say %q:\n%v", line, err)
				}
			}
			if strings.Contains(err.Error(), "same") {
				t.Errorf("the report names an unchanged file:\n%v", err)
			}
			if err := compareArchive(path, data); err != nil {
				t.Errorf("equal archives: %v", err)
			}
		})
	}
}

func TestDiffArchivesListsAtMostSome(t *testing.T) {
	want, got := &Archive{}, &Archive{}
	for i := range 30 {
		want.Files = append(want.Files, File{Name: fmt.Sprint("f", i), Data: []byte("a\n")})
		got.Files = append(got.Files, File{Name: fmt.Sprint("f", i), Data: []byte("b\n")})
	}
	d := diffArchives(want, got)
	if n := strings.Count(d, "changed: "); n != maxListed || !strings.HasSuffix(d, fmt.Sprintf("... and %d more files", 30-maxListed)) {
		t.Errorf("%d files listed:\n%s", n, d)
	}
}

// sameArchive reports whether a and b hold the same comment and files,
// treating nil and empty contents alike.
func sameArchive(a, b *Archive) bool {
	if a.Comment != b.Comment || len(a.Files) != len(b.Files) {
		return false
	}
	for i := range a.Files {
		if a.Files[i].Name != b.Files[i].Name || !bytes.Equal(a.Files[i].Data, b.Files[i].Data) {
			return false
		}
	}
	return true
}
