// Package golden compares what a test produces with golden files under
// testdata/, or rewrites them when the test binary runs with -update.
//
// One golden file holds either one output (Check) or several, as one
// archive (CheckFiles). Archives are txtar, the format of
// golang.org/x/tools/txtar, when the golden file's name ends in .txtar:
//
//	optional comment
//	-- path/of/one/file --
//	its content
//	-- path/of/another --
//	...
//
// and otherwise the layout that head(1) prints for several files, which
// older golden files use: a "==> path <==" line before each file and an
// empty line after it. Both are read and written by this package alone
// (ParseTxtar, Archive.Txtar, ParseHead, Archive.Head), with two additions
// to txtar that keep an archive exact: a file that does not end in a
// newline is followed by a line "\ No newline at end of file", as diff(1)
// writes it, and a file that is not UTF-8 text (a zip, an image) stands as
// one digest line (see Digest). An archive that cannot be written without
// ambiguity (a file holding a line that reads as a file header) is
// refused, never written wrongly.
//
// Every package whose tests import golden has the one -update flag:
//
//	go test ./exporter/render/html/ -run TestGolden -update
//
// rewrites the golden files the selected tests compare with; make golden
// runs every such package with it. Review the rewritten files with git
// diff before committing them.
package golden

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// update is the -update flag of every test binary that imports golden:
// the one piece of package state, as the flag package requires.
var update = flag.Bool("update", false, "rewrite the golden files under testdata/ instead of comparing with them")

// Update reports whether the test binary runs with -update: golden files
// are then written, not compared.
func Update() bool { return *update }

// Check compares got with the golden file at path (relative to the test's
// package folder, usually under testdata/). With -update it writes got
// there instead, creating folders as needed. A difference fails t with the
// first differing line.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	check(t, path, got, compare)
}

// CheckFiles compares the files of a with the archive at path: txtar if
// path ends in .txtar, otherwise the head(1) layout (see the package
// documentation). With -update it writes the archive instead. A
// difference fails t with the files missing, the files added and the
// first differing line of each changed file.
func CheckFiles(t testing.TB, path string, a *Archive) {
	t.Helper()
	got, err := a.format(path)
	if err != nil {
		t.Fatal(err)
	}
	check(t, path, got, compareArchive)
}

// check writes got to path under -update, else compares them with cmp.
func check(t testing.TB, path string, got []byte, cmp func(path string, got []byte) error) {
	t.Helper()
	if *update {
		if err := write(path, got); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := cmp(path, got); err != nil {
		t.Errorf("%v\n%s", err, hint(t))
	}
}

// hint says how to accept a difference.
func hint(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return "If the change is deliberate, rewrite the golden file and review it: go test -run '^" + name + "$' -update"
}

// write writes data to path, creating its folder.
func write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	return nil
}

// compare returns an error describing how got differs from the file at
// path, or nil when they are equal.
func compare(path string, got []byte) error {
	want, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("golden: %w (go test -update creates it)", err)
	}
	if bytes.Equal(got, want) {
		return nil
	}
	return fmt.Errorf("golden: %s differs: %s", path, FirstDiff(want, got))
}

// compareArchive is compare for archives: it names the files that differ.
func compareArchive(path string, got []byte) error {
	want, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("golden: %w (go test -update creates it)", err)
	}
	if bytes.Equal(got, want) {
		return nil
	}
	parse := ParseHead
	if isTxtar(path) {
		parse = ParseTxtar
	}
	wa, err := parse(want)
	if err != nil {
		return fmt.Errorf("golden: %s differs and does not read as an archive (%v): %s", path, err, FirstDiff(want, got))
	}
	ga, err := parse(got)
	if err != nil {
		return fmt.Errorf("golden: %s: the archive written does not read back: %w", path, err)
	}
	return fmt.Errorf("golden: %s differs:\n%s", path, diffArchives(wa, ga))
}

// maxListed is how many files a difference report lists at most.
const maxListed = 12

// diffArchives lists how got differs from want, file by file.
func diffArchives(want, got *Archive) string {
	var b strings.Builder
	if want.Comment != got.Comment {
		fmt.Fprintf(&b, "  comment: %s\n", FirstDiff([]byte(want.Comment), []byte(got.Comment)))
	}
	wf, gf := want.byName(), got.byName()
	var lines []string
	for _, f := range want.Files {
		if _, ok := gf[f.Name]; !ok {
			lines = append(lines, "missing: "+f.Name)
		}
	}
	for _, f := range got.Files {
		w, ok := wf[f.Name]
		switch {
		case !ok:
			lines = append(lines, "new:     "+f.Name)
		case !bytes.Equal(w, f.Data):
			lines = append(lines, "changed: "+f.Name+": "+FirstDiff(w, f.Data))
		}
	}
	if len(lines) == 0 && b.Len() == 0 {
		lines = append(lines, "the same files in another order")
	}
	if len(lines) > maxListed {
		lines = append(lines[:maxListed], fmt.Sprintf("... and %d more files", len(lines)-maxListed))
	}
	for _, l := range lines {
		b.WriteString("  " + l + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// FirstDiff describes the first line where got differs from want: its
// number, then both versions quoted (at most 200 bytes each).
func FirstDiff(want, got []byte) string {
	wl, gl := lines(want), lines(got)
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n    want %s\n    got  %s", i+1, quoteLine(w, i < len(wl)), quoteLine(g, i < len(gl)))
		}
	}
	return "no line differs"
}

// lines splits data after each newline; a final newline ends the last
// line rather than starting an empty one.
func lines(data []byte) []string {
	l := strings.SplitAfter(string(data), "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

// quoteLine quotes one line for FirstDiff.
func quoteLine(s string, present bool) string {
	if !present {
		return "(end of file)"
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return strconv.Quote(s)
}

// File is one file of an archive.
type File struct {
	// Name is the file's path, slash-separated.
	Name string
	// Data is the file's content.
	Data []byte
}

// Archive is several files kept as one golden file.
type Archive struct {
	// Comment is the text before the first file (txtar only): what the
	// archive holds and how to rewrite it.
	Comment string
	// Files are the files, in the order they are written.
	Files []File
}

// FromMap returns an archive of files, sorted by name.
func FromMap(comment string, files map[string][]byte) *Archive {
	a := &Archive{Comment: comment}
	for name, data := range files {
		a.Files = append(a.Files, File{Name: name, Data: data})
	}
	slices.SortFunc(a.Files, func(x, y File) int { return strings.Compare(x.Name, y.Name) })
	return a
}

// byName maps names to contents.
func (a *Archive) byName() map[string][]byte {
	m := make(map[string][]byte, len(a.Files))
	for _, f := range a.Files {
		m[f.Name] = f.Data
	}
	return m
}

// format writes a in the layout path's name selects.
func (a *Archive) format(path string) ([]byte, error) {
	if isTxtar(path) {
		return a.Txtar()
	}
	return a.Head()
}

// isTxtar reports whether path names a txtar archive.
func isTxtar(path string) bool { return strings.HasSuffix(path, ".txtar") }

// noNewline follows a file that does not end in a newline, in txtar.
const noNewline = `\ No newline at end of file`

// Digest returns the line a binary file stands as in an archive: its
// size and SHA-256, such as "binary, 1234 bytes, sha256 9f86d0...\n".
func Digest(data []byte) []byte {
	return fmt.Appendf(nil, "binary, %d bytes, sha256 %x\n", len(data), sha256.Sum256(data))
}

// IsText reports whether data is kept as it is in an archive: UTF-8
// without NUL bytes. Other files stand as their Digest.
func IsText(data []byte) bool {
	return utf8.Valid(data) && bytes.IndexByte(data, 0) < 0
}

// checkName refuses names a header line cannot carry.
func checkName(name string, seen map[string]bool) error {
	if name == "" || name != strings.TrimSpace(name) || strings.ContainsAny(name, "\n\r") {
		return fmt.Errorf("golden: file name %q: empty, spaced at an end or holding a line break", name)
	}
	if seen[name] {
		return fmt.Errorf("golden: file %q twice in one archive", name)
	}
	seen[name] = true
	return nil
}

// isTxtarMarker reports whether line (without its newline) is a txtar file
// header, and the name it gives.
func isTxtarMarker(line string) (string, bool) {
	if !strings.HasPrefix(line, "-- ") || !strings.HasSuffix(line, " --") || len(line) < 6 {
		return "", false
	}
	return strings.TrimSpace(line[3 : len(line)-3]), true
}

// Txtar writes a as a txtar archive. Binary files stand as their Digest;
// a file that does not end in a newline is followed by a line "\ No
// newline at end of file". It fails if a name cannot be a header, or if a
// file or the comment holds a line that reads as a header.
func (a *Archive) Txtar() ([]byte, error) {
	var b bytes.Buffer
	comment := a.Comment
	if comment != "" && !strings.HasSuffix(comment, "\n") {
		comment += "\n"
	}
	if err := noMarker("the comment", []byte(comment), isTxtarMarker); err != nil {
		return nil, err
	}
	b.WriteString(comment)
	err := a.each(isTxtarMarker, func(name string, data []byte) error {
		if bytes.HasSuffix(data, []byte("\n"+noNewline+"\n")) || string(data) == noNewline+"\n" {
			return fmt.Errorf("golden: %s ends in a line %q, which the archive uses", name, noNewline)
		}
		fmt.Fprintf(&b, "-- %s --\n", name)
		b.Write(data)
		if len(data) > 0 && data[len(data)-1] != '\n' {
			b.WriteString("\n" + noNewline + "\n")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// each calls fn with the name and the content to write of every file of
// a, in order: a binary file's Digest, else its bytes. It fails on a name
// that cannot be a header (or is given twice), and on content holding a
// line that isMarker reads as a header.
func (a *Archive) each(isMarker func(string) (string, bool), fn func(name string, data []byte) error) error {
	seen := map[string]bool{}
	for _, f := range a.Files {
		if err := checkName(f.Name, seen); err != nil {
			return err
		}
		data := f.Data
		if !IsText(data) {
			data = Digest(data)
		}
		if err := noMarker(f.Name, data, isMarker); err != nil {
			return err
		}
		if err := fn(f.Name, data); err != nil {
			return err
		}
	}
	return nil
}

// ParseTxtar reads a txtar archive as Txtar writes it. Digest lines are
// read as the files' content.
func ParseTxtar(data []byte) (*Archive, error) {
	a := &Archive{}
	seen := map[string]bool{}
	var cur *File
	var text []byte
	flush := func() {
		if cur == nil {
			a.Comment = string(text)
			return
		}
		if bytes.HasSuffix(text, []byte("\n"+noNewline+"\n")) {
			text = text[:len(text)-len(noNewline)-2]
		}
		cur.Data = text
		a.Files = append(a.Files, *cur)
	}
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		if name, ok := isTxtarMarker(string(line)); ok {
			flush()
			if err := checkName(name, seen); err != nil {
				return nil, err
			}
			cur, text = &File{Name: name}, []byte{}
		} else {
			text = append(text, data[:len(data)-len(rest)]...)
		}
		data = rest
	}
	flush()
	return a, nil
}

// isHeadMarker reports whether line is a header of the head(1) layout,
// and the name it gives.
func isHeadMarker(line string) (string, bool) {
	if !strings.HasPrefix(line, "==> ") || !strings.HasSuffix(line, " <==") || len(line) < 8 {
		return "", false
	}
	return line[4 : len(line)-4], true
}

// Head writes a in the layout head(1) prints for several files: a line
// "==> name <==" before each file and a newline after it. Binary files
// stand as their Digest. It fails if a has a comment, if a name cannot be
// a header, or if a file holds a line that reads as a header.
func (a *Archive) Head() ([]byte, error) {
	if a.Comment != "" {
		return nil, errors.New("golden: the head(1) layout has no place for a comment; name the file .txtar")
	}
	var b bytes.Buffer
	err := a.each(isHeadMarker, func(name string, data []byte) error {
		fmt.Fprintf(&b, "==> %s <==\n", name)
		b.Write(data)
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ParseHead reads files in the layout Head writes.
func ParseHead(data []byte) (*Archive, error) {
	a := &Archive{}
	seen := map[string]bool{}
	var cur *File
	var text []byte
	flush := func() error {
		if cur == nil {
			if len(text) > 0 {
				return errors.New("golden: text before the first ==> name <== line")
			}
			return nil
		}
		if !bytes.HasSuffix(text, []byte("\n")) {
			return fmt.Errorf("golden: %s: no newline after the file", cur.Name)
		}
		cur.Data = text[:len(text)-1]
		a.Files = append(a.Files, *cur)
		return nil
	}
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		if name, ok := isHeadMarker(string(line)); ok {
			if err := flush(); err != nil {
				return nil, err
			}
			if err := checkName(name, seen); err != nil {
				return nil, err
			}
			cur, text = &File{Name: name}, []byte{}
		} else {
			text = append(text, data[:len(data)-len(rest)]...)
		}
		data = rest
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return a, nil
}

// noMarker fails if a line of data reads as a header.
func noMarker(what string, data []byte, marker func(string) (string, bool)) error {
	for i, line := range strings.Split(string(data), "\n") {
		if _, ok := marker(line); ok {
			return fmt.Errorf("golden: %s: line %d, %q, would read as a file header", what, i+1, line)
		}
	}
	return nil
}
