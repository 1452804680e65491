package localfile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/curex/curex/exporter/internal/imagecheck"
)

// Caps of each kind of file, in bytes.
const (
	// MaxImage bounds a logo, favicon or social card image.
	MaxImage = 2 << 20
	// MaxToken bounds a token file: a bigger file is not a token file.
	MaxToken = 4 << 10
	// MaxThemeFile bounds each file of a theme folder (a font is the
	// biggest a theme usually has).
	MaxThemeFile = 8 << 20
)

// Kind is what a file a setting names must be.
type Kind int

// The kinds of file a setting names.
const (
	// Image is a picture: PNG, JPEG, GIF, WebP, AVIF, ICO or a safe SVG,
	// by its extension.
	Image Kind = iota + 1
	// Token is a token file; api parses what it holds.
	Token
	// ThemeFile is a file of a theme folder: text (HTML, CSS, JS, JSON)
	// in UTF-8, an image as for Image, or a font (WOFF, WOFF2, TTF, OTF).
	ThemeFile
)

// String names the kind in errors ("an image").
func (k Kind) String() string {
	switch k {
	case Image:
		return "an image"
	case Token:
		return "a token file"
	case ThemeFile:
		return "a theme file"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Max is the kind's cap in bytes.
func (k Kind) Max() int64 {
	switch k {
	case Image:
		return MaxImage
	case Token:
		return MaxToken
	}
	return MaxThemeFile
}

// ImageExts are the extensions of an Image.
var imageExts = []string{".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".svg", ".ico"}

// ImageExts returns the extensions an Image may have.
func ImageExts() []string { return slices.Clone(imageExts) }

// textExts are the theme's text files, which must be UTF-8.
var textExts = []string{".html", ".css", ".js", ".mjs", ".json", ".webmanifest", ".txt", ".map", ".xml"}

// fontMagic are the first bytes of a font by extension.
var fontMagic = map[string][]string{
	".woff":  {"wOFF"},
	".woff2": {"wOF2"},
	".ttf":   {"\x00\x01\x00\x00", "true"},
	".otf":   {"OTTO", "\x00\x01\x00\x00"},
}

// Check tells whether data is what a file of kind k called name must
// hold; the error wraps ErrContent.
func (k Kind) Check(name string, data []byte) error {
	ext := strings.ToLower(filepath.Ext(name))
	switch k {
	case Token:
		return nil
	case Image:
		return checkImage(ext, data)
	}
	switch {
	case slices.Contains(textExts, ext):
		if !utf8.Valid(data) {
			return fmt.Errorf("%w: a %s file must be UTF-8 text", ErrContent, ext)
		}
		return nil
	case slices.Contains(imageExts, ext):
		return checkImage(ext, data)
	case fontMagic[ext] != nil:
		for _, m := range fontMagic[ext] {
			if bytes.HasPrefix(data, []byte(m)) {
				return nil
			}
		}
		return fmt.Errorf("%w: not a %s font (its first bytes are not the format's)", ErrContent, ext)
	}
	return fmt.Errorf("%w: a theme holds only %s files", ErrContent, strings.Join(themeExts(), ", "))
}

func themeExts() []string {
	out := slices.Concat(textExts, imageExts)
	for e := range fontMagic {
		out = append(out, e)
	}
	slices.Sort(out)
	return out
}

// checkImage checks an image against its extension. A PNG, JPEG, GIF or
// WebP image passes imagecheck.Inspect, the check of every raster image
// curex publishes (content images too): it must be of the kind its name
// says, decode whole, end where its format ends and stay within
// imagecheck.MaxPixels and imagecheck.MaxSide.
func checkImage(ext string, data []byte) error {
	var want string
	switch ext {
	case ".png", ".gif", ".webp":
		want = strings.TrimPrefix(ext, ".")
	case ".jpg", ".jpeg":
		want = "jpg"
	case ".avif":
		return checkAVIF(data)
	case ".ico":
		return checkICO(data)
	case ".svg":
		return CheckSVG(data)
	default:
		return fmt.Errorf("%w: want an image (%s)", ErrContent, strings.Join(imageExts, ", "))
	}
	k, _, _, err := imagecheck.Check(data)
	if err != nil {
		return fmt.Errorf("%w: not a %s image: %v", ErrContent, strings.TrimPrefix(ext, "."), err)
	}
	if k.Ext != want {
		return fmt.Errorf("%w: named %s, holds a %s image", ErrContent, strings.TrimPrefix(ext, "."), k.Name)
	}
	return nil
}

// checkAVIF checks the ISO-BMFF "ftyp" box of an AVIF file.
func checkAVIF(data []byte) error {
	if len(data) < 12 || string(data[4:8]) != "ftyp" {
		return fmt.Errorf("%w: not an AVIF image (no ftyp box)", ErrContent)
	}
	size := int(binary.BigEndian.Uint32(data))
	if size < 16 || size > len(data) || size > 4096 {
		return fmt.Errorf("%w: not an AVIF image (bad ftyp box)", ErrContent)
	}
	for i := 8; i+4 <= size; i += 4 {
		if i == 12 {
			continue // the minor version
		}
		if b := string(data[i : i+4]); b == "avif" || b == "avis" {
			return nil
		}
	}
	return fmt.Errorf("%w: not an AVIF image (no avif brand)", ErrContent)
}

// checkICO checks an ICO file's header and directory.
func checkICO(data []byte) error {
	if len(data) < 6 || !bytes.Equal(data[:4], []byte{0, 0, 1, 0}) {
		return fmt.Errorf("%w: not an ICO image (bad header)", ErrContent)
	}
	n := int(binary.LittleEndian.Uint16(data[4:]))
	if n == 0 || len(data) < 6+16*n {
		return fmt.Errorf("%w: not an ICO image (bad directory)", ErrContent)
	}
	for i := range n {
		e := data[6+16*i:]
		size, off := binary.LittleEndian.Uint32(e[8:]), binary.LittleEndian.Uint32(e[12:])
		if size == 0 || uint64(off)+uint64(size) > uint64(len(data)) {
			return fmt.Errorf("%w: not an ICO image (image %d lies outside the file)", ErrContent, i+1)
		}
	}
	return nil
}
