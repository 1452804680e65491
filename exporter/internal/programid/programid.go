// Package programid names the program that runs: a value that changes
// whenever it is built differently (its templates, theme and renderers
// are built in), for the render keys of incremental exports.
//
// A Go executable for Linux carries its build ID in an ELF note, whose
// last part is the hash cmd/go takes of the linked binary (go build and
// go test write it; a binary linked with an empty -buildid has none).
// Reading it costs a few small reads, where hashing the executable
// itself (45 MB) took about 55 ms of CPU a run. Without that note
// (another format, a build ID cleared), the SHA-256 of the file is read
// instead.
package programid

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strings"
)

// Self returns the identity of the running program (Of its executable),
// or nil when it cannot say where its executable is.
func Self() ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil
	}
	return Of(exe)
}

// Of returns the identity of the executable at path: "go-buildid:" and
// its Go build ID when it is an ELF file with one, else "sha256:" and
// the SHA-256 of its bytes.
func Of(path string) ([]byte, error) {
	if id, ok := elfBuildID(path); ok {
		return []byte("go-buildid:" + id), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("program: %w", err) // names path
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, fmt.Errorf("program: %w", err) // names path
	}
	return append([]byte("sha256:"), h.Sum(nil)...), nil
}

// elfBuildID returns the Go build ID of the ELF file at path, if it has
// one in its .note.go.buildid section.
func elfBuildID(path string) (string, bool) {
	f, err := elf.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return "", false
	}
	data, err := s.Data()
	if err != nil {
		return "", false
	}
	return noteBuildID(data, f.ByteOrder)
}

// goBuildIDNote is the type of the ELF note the Go linker writes the
// build ID in, under the name "Go".
const goBuildIDNote = 4

// noteBuildID reads the build ID from the contents of a
// .note.go.buildid section: one note (name size, description size,
// type, then the name and the description, each padded to 4 bytes) of
// type 4 named "Go", whose description is the ID. It takes only a
// complete ID: parts joined by slashes, the last (the hash of the
// binary's content) not empty.
func noteBuildID(data []byte, order binary.ByteOrder) (string, bool) {
	if len(data) < 12 {
		return "", false
	}
	namesz, descsz, typ := order.Uint32(data[0:4]), order.Uint32(data[4:8]), order.Uint32(data[8:12])
	if typ != goBuildIDNote || namesz != 4 {
		return "", false
	}
	rest := data[12:]
	if len(rest) < 4 || !bytes.Equal(rest[:4], []byte("Go\x00\x00")) {
		return "", false
	}
	rest = rest[4:]
	if uint64(descsz) > uint64(len(rest)) {
		return "", false
	}
	id := string(rest[:descsz])
	i := strings.LastIndexByte(id, '/')
	if i <= 0 || i == len(id)-1 {
		return "", false
	}
	return id, true
}
