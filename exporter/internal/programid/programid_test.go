package programid

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// note builds a .note.go.buildid section: name size, description size,
// type, the name padded to 4 bytes, the description.
func note(order binary.ByteOrder, name string, typ uint32, desc string) []byte {
	var b bytes.Buffer
	for _, v := range []uint32{uint32(len(name)), uint32(len(desc)), typ} {
		_ = binary.Write(&b, order, v)
	}
	b.WriteString(name)
	for b.Len()%4 != 0 {
		b.WriteByte(0)
	}
	b.WriteString(desc)
	return b.Bytes()
}

func TestNoteBuildID(t *testing.T) {
	const id = "YGWkSiBfCBBorWMpjU9l/PtKdbc0Asfdwe9ORmLmB/As5BP94eqNcZUpUtYVJD/HyxBJUdAF2jfUsRKf1cS"
	for _, tc := range []struct {
		name  string
		data  []byte
		order binary.ByteOrder
		want  string
	}{
		{"little endian", note(binary.LittleEndian, "Go\x00\x00", 4, id), binary.LittleEndian, id},
		{"big endian", note(binary.BigEndian, "Go\x00\x00", 4, id), binary.BigEndian, id},
		{"the wrong byte order", note(binary.BigEndian, "Go\x00\x00", 4, id), binary.LittleEndian, ""},
		{"another type", note(binary.LittleEndian, "Go\x00\x00", 3, id), binary.LittleEndian, ""},
		{"another name", note(binary.LittleEndian, "GNU\x00", 4, id), binary.LittleEndian, ""},
		{"an empty ID (-buildid=)", note(binary.LittleEndian, "Go\x00\x00", 4, ""), binary.LittleEndian, ""},
		{"one part", note(binary.LittleEndian, "Go\x00\x00", 4, "YGWkSiBfCBBorWMpjU9l"), binary.LittleEndian, ""},
		{"no content hash", note(binary.LittleEndian, "Go\x00\x00", 4, "YGWkSiBfCBBorWMpjU9l/"), binary.LittleEndian, ""},
		{"cut short", note(binary.LittleEndian, "Go\x00\x00", 4, id)[:40], binary.LittleEndian, ""},
		{"no header", []byte{4, 0, 0}, binary.LittleEndian, ""},
		{"no name", note(binary.LittleEndian, "Go\x00\x00", 4, id)[:14], binary.LittleEndian, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := noteBuildID(tc.data, tc.order)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("noteBuildID = %q, %v; want %q", got, ok, tc.want)
			}
		})
	}
}

// TestOfTheTestBinary: go test writes a build ID into the binaries it
// links, so on Linux the test binary is named by it.
func TestOfTheTestBinary(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the build ID is read from ELF files")
	}
	id, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(id), "go-buildid:") || strings.Count(string(id), "/") < 1 {
		t.Errorf("Self() = %q, want the Go build ID", id)
	}
}

// TestOfAnotherFile: a file that is not ELF is named by its SHA-256, and
// a missing one is an error that names it.
func TestOfAnotherFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "curex.exe")
	body := []byte("MZ\x90\x00 not an ELF file")
	if err := os.WriteFile(p, body, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := Of(p)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	if want := append([]byte("sha256:"), sum[:]...); !bytes.Equal(got, want) {
		t.Errorf("Of = %q, want %q", got, want)
	}
	if _, err := Of(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("Of(missing) error = %v, want one naming the file", err)
	}
}
