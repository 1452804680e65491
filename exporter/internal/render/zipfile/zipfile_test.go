package zipfile

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
	"time"
)

// build makes an archive of a stored "mimetype" (when stored) and two
// deflated files.
func build(t *testing.T, modified time.Time, prefix string, stored bool) []byte {
	t.Helper()
	w := New(modified, prefix)
	if stored {
		if err := w.Stored("mimetype", []byte("application/epub+zip")); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []struct{ name, data string }{
		{"index.md", "# Title\n"},
		{"unit-1/lesson-1.md", "Some text, some text, some text, some text.\n"},
	} {
		if err := w.Add(f.name, []byte(f.data)); err != nil {
			t.Fatal(err)
		}
	}
	data, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func read(t *testing.T, data []byte) []*zip.File {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return zr.File
}

// TestSameBytes builds the same archive twice and wants the same bytes,
// and another time in another zone the same bytes too.
func TestSameBytes(t *testing.T) {
	at := time.Date(2026, 2, 24, 19, 20, 1, 0, time.UTC)
	for _, stored := range []bool{false, true} {
		a := build(t, at, "top/", stored)
		b := build(t, at, "top/", stored)
		c := build(t, at.In(time.FixedZone("X", -7*3600)).Add(999*time.Millisecond), "top/", stored)
		if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
			t.Errorf("stored=%v: two builds differ", stored)
		}
	}
}

// TestEntries checks names, order, method, mode and time of every entry.
func TestEntries(t *testing.T) {
	at := time.Date(2026, 2, 24, 19, 20, 1, 0, time.UTC)
	files := read(t, build(t, at, "top/", false))
	want := []string{"top/index.md", "top/unit-1/lesson-1.md"}
	if len(files) != len(want) {
		t.Fatalf("%d entries, want %d", len(files), len(want))
	}
	for i, f := range files {
		if f.Name != want[i] || f.Method != zip.Deflate || f.Mode() != 0o644 || !f.Modified.Equal(at) {
			t.Errorf("entry %d: %q method %d mode %v modified %v", i, f.Name, f.Method, f.Mode(), f.Modified)
		}
	}
}

// TestTime clamps times to what zip can record.
func TestTime(t *testing.T) {
	for _, tc := range []struct{ in, want time.Time }{
		{time.Time{}, time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)},
		{time.Date(1979, 12, 31, 23, 0, 0, 0, time.UTC), time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)},
		{time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2106, 1, 1, 0, 0, 0, 0, time.UTC)},
		{time.Date(2026, 2, 24, 19, 20, 1, 999, time.FixedZone("CET", 3600)), time.Date(2026, 2, 24, 18, 20, 1, 0, time.UTC)},
	} {
		if got := Time(tc.in); !got.Equal(tc.want) || got.Location() != time.UTC {
			t.Errorf("Time(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestStored checks the first entry as OCF wants "mimetype": at offset
// 0, stored, no extra field, no data descriptor, its data at offset 38.
func TestStored(t *testing.T) {
	at := time.Date(2026, 2, 24, 19, 20, 2, 0, time.UTC)
	data := build(t, at, "", true)
	if string(data[30:38]) != "mimetype" || string(data[38:58]) != "application/epub+zip" {
		t.Fatalf("archive starts %q", data[:58])
	}
	if flags := binary.LittleEndian.Uint16(data[6:]); flags&0x8 != 0 {
		t.Errorf("local header flags %#x: a data descriptor", flags)
	}
	if method := binary.LittleEndian.Uint16(data[8:]); method != zip.Store {
		t.Errorf("method %d", method)
	}
	if extra := binary.LittleEndian.Uint16(data[28:]); extra != 0 {
		t.Errorf("extra field of %d bytes", extra)
	}
	files := read(t, data)
	f := files[0]
	if f.Name != "mimetype" || f.Method != zip.Store || len(f.Extra) != 0 || f.Mode() != 0o644 || !f.Modified.Equal(at) {
		t.Errorf("stored entry: %q method %d extra %d mode %v modified %v", f.Name, f.Method, len(f.Extra), f.Mode(), f.Modified)
	}
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc) // checks the CRC
	rc.Close()
	if err != nil || string(got) != "application/epub+zip" {
		t.Errorf("stored entry reads %q, %v", got, err)
	}
}

// TestStoredFirst refuses a stored entry after another.
func TestStoredFirst(t *testing.T) {
	w := New(time.Time{}, "")
	if err := w.Add("a.txt", []byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := w.Stored("mimetype", nil); !errors.Is(err, ErrStoredNotFirst) {
		t.Errorf("Stored after Add: %v", err)
	}
}

// TestUnsafeNames refuses names that would escape or break a folder.
func TestUnsafeNames(t *testing.T) {
	for _, name := range []string{
		"", "/etc/passwd", "../x", "a/../../x", "a/./b", `a\b`, "a//b", "CON", "pages/nul.html", "a\x00b", "a\nb",
	} {
		w := New(time.Time{}, "")
		if err := w.Add(name, nil); err == nil {
			t.Errorf("Add(%q) accepted", name)
		}
		if err := w.Stored(name, nil); err == nil {
			t.Errorf("Stored(%q) accepted", name)
		}
	}
	for _, name := range []string{"a.txt", "unit-1/lesson.html", "images/ab12.png"} {
		if err := CheckName(name); err != nil {
			t.Errorf("CheckName(%q): %v", name, err)
		}
	}
}
