package imagecheck

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// errTrailing: bytes after the image's end (a PNG after IEND, a JPEG
// after EOI ...), where a polyglot hides HTML or script.
var errTrailing = errors.New("bytes after the end of the image")

// walk reads r, an image of the format name, from its start to the end
// its format defines, and requires that to be the end of r: PNG chunks
// to IEND, JPEG segments and entropy-coded data to EOI, GIF blocks to
// the trailer, the RIFF size of WebP. For a GIF it returns the pixels of
// all its frames (what decoding them all costs). It reads without
// holding more than bufio's buffer.
func walk(name string, r *bufio.Reader) (framePixels int64, err error) {
	switch name {
	case "png":
		err = walkPNG(r)
	case "jpeg":
		err = walkJPEG(r)
	case "gif":
		framePixels, err = walkGIF(r)
	case "webp":
		err = walkWebP(r)
	default:
		return 0, fmt.Errorf("no walker for %s", name)
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return 0, err
	}
	if _, err := r.ReadByte(); err != io.EOF {
		if err != nil {
			return 0, err
		}
		return 0, errTrailing
	}
	return framePixels, nil
}

// skip discards n bytes of r.
func skip(r *bufio.Reader, n int64) error {
	if n < 0 {
		return errors.New("negative length")
	}
	got, err := io.CopyN(io.Discard, r, n)
	if err == nil && got != n {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// readN reads n bytes of r.
func readN(r *bufio.Reader, n int) ([]byte, error) {
	b := make([]byte, n)
	_, err := io.ReadFull(r, b)
	return b, err
}

// walkPNG walks the signature and the chunks to IEND.
func walkPNG(r *bufio.Reader) error {
	sig, err := readN(r, 8)
	if err != nil {
		return err
	}
	if string(sig) != "\x89PNG\r\n\x1a\n" {
		return errors.New("no PNG signature")
	}
	for {
		head, err := readN(r, 8)
		if err != nil {
			return err
		}
		n := binary.BigEndian.Uint32(head[:4])
		if n > 1<<31-1 {
			return fmt.Errorf("chunk of %d bytes", n)
		}
		if err := skip(r, int64(n)+4); err != nil { // data and CRC
			return err
		}
		if string(head[4:8]) == "IEND" {
			return nil
		}
	}
}

// walkJPEG walks the markers, segments and entropy-coded data to EOI.
func walkJPEG(r *bufio.Reader) error {
	soi, err := readN(r, 2)
	if err != nil {
		return err
	}
	if soi[0] != 0xff || soi[1] != 0xd8 {
		return errors.New("no SOI marker")
	}
	marker, err := nextMarker(r)
	for err == nil {
		switch {
		case marker == 0xd9: // EOI
			return nil
		case marker == 0x01 || marker >= 0xd0 && marker <= 0xd7: // TEM, RSTn: no length
			marker, err = nextMarker(r)
			continue
		}
		l, lerr := readN(r, 2)
		if lerr != nil {
			return lerr
		}
		n := int64(binary.BigEndian.Uint16(l))
		if n < 2 {
			return fmt.Errorf("segment %#x of length %d", marker, n)
		}
		if serr := skip(r, n-2); serr != nil {
			return serr
		}
		if marker == 0xda { // SOS: entropy-coded data up to the next marker
			marker, err = scanEntropy(r)
		} else {
			marker, err = nextMarker(r)
		}
	}
	return err
}

// nextMarker reads a marker: 0xff, any fill 0xff bytes, then its code.
func nextMarker(r *bufio.Reader) (byte, error) {
	b, err := r.ReadByte()
	if err != nil {
		return 0, err
	}
	if b != 0xff {
		return 0, fmt.Errorf("byte %#x where a marker belongs", b)
	}
	for b == 0xff {
		if b, err = r.ReadByte(); err != nil {
			return 0, err
		}
	}
	return b, nil
}

// scanEntropy reads entropy-coded data to the next marker that is not a
// stuffed byte (0xff 0x00) or a restart marker, and returns its code,
// having read it.
func scanEntropy(r *bufio.Reader) (byte, error) {
	for {
		b, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		if b != 0xff {
			continue
		}
		for b == 0xff {
			if b, err = r.ReadByte(); err != nil {
				return 0, err
			}
		}
		if b == 0x00 || b >= 0xd0 && b <= 0xd7 {
			continue
		}
		return b, nil
	}
}

// walkGIF walks the header, the color tables and the blocks to the
// trailer, and returns the pixels of all the frames.
func walkGIF(r *bufio.Reader) (int64, error) {
	head, err := readN(r, 13)
	if err != nil {
		return 0, err
	}
	if string(head[:6]) != "GIF87a" && string(head[:6]) != "GIF89a" {
		return 0, errors.New("no GIF header")
	}
	if head[10]&0x80 != 0 {
		if err := skip(r, 3<<(head[10]&7+1)); err != nil {
			return 0, err
		}
	}
	var pixels int64
	for {
		b, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		switch b {
		case 0x3b: // trailer
			return pixels, nil
		case 0x21: // extension: a label, then sub-blocks
			if _, err := r.ReadByte(); err != nil {
				return 0, err
			}
		case 0x2c: // image descriptor, color table, LZW code size, sub-blocks
			d, err := readN(r, 9)
			if err != nil {
				return 0, err
			}
			pixels += int64(binary.LittleEndian.Uint16(d[4:6])) * int64(binary.LittleEndian.Uint16(d[6:8]))
			if d[8]&0x80 != 0 {
				if err := skip(r, 3<<(d[8]&7+1)); err != nil {
					return 0, err
				}
			}
			if _, err := r.ReadByte(); err != nil {
				return 0, err
			}
		default:
			return 0, fmt.Errorf("block %#x", b)
		}
		if err := skipSubBlocks(r); err != nil {
			return 0, err
		}
	}
}

// skipSubBlocks skips GIF data sub-blocks up to the empty one.
func skipSubBlocks(r *bufio.Reader) error {
	for {
		n, err := r.ReadByte()
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		if err := skip(r, int64(n)); err != nil {
			return err
		}
	}
}

// walkWebP checks that the RIFF size is the size of the file.
func walkWebP(r *bufio.Reader) error {
	head, err := readN(r, 12)
	if err != nil {
		return err
	}
	if string(head[:4]) != "RIFF" || string(head[8:12]) != "WEBP" {
		return errors.New("no RIFF WEBP header")
	}
	n := int64(binary.LittleEndian.Uint32(head[4:8]))
	if n < 4 {
		return fmt.Errorf("RIFF size %d", n)
	}
	return skip(r, n-4)
}
