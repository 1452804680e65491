package imagecheck

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/gif"
	_ "image/jpeg" // JPEG images
	_ "image/png"  // PNG images
	"io"

	_ "golang.org/x/image/webp" // WebP images
)

// Kind is a type of image curex keeps.
type Kind struct {
	// Name is image.DecodeConfig's name of the format ("png").
	Name string
	// Ext is the file extension, without a dot ("png").
	Ext string
	// MediaType is its media type ("image/png").
	MediaType string
}

// Why bytes were refused as an image.
var (
	// ErrNotImage: bytes that are no PNG, JPEG, GIF or WebP image, or
	// one over MaxPixels or MaxSide, or with bytes after its end.
	ErrNotImage = errors.New("not an image curex accepts (PNG, JPEG, GIF, WebP)")
	// ErrSVG: an SVG document, refused since it can carry script.
	ErrSVG = errors.New("SVG refused: it can carry script")
)

// kinds are the formats curex keeps, by image.DecodeConfig's name.
var kinds = map[string]Kind{
	"png":  {"png", "png", "image/png"},
	"jpeg": {"jpeg", "jpg", "image/jpeg"},
	"gif":  {"gif", "gif", "image/gif"},
	"webp": {"webp", "webp", "image/webp"},
}

// The pixel caps of an image: one a phone can open. iOS Safari refuses
// to draw a canvas, and downsamples or drops a decoded image, of more
// than 16,777,216 pixels (4096 × 4096: 64 MiB decoded at 4 bytes a
// pixel); no lesson's picture needs more, and a larger claim is a
// decompression bomb for whoever decodes it next (10000 × 10000 is
// about 400 MB decoded in a browser).
const (
	// MaxPixels bounds width × height.
	MaxPixels = 16 << 20
	// MaxSide bounds the width and the height.
	MaxSide = 8192
)

// Check is Inspect over data, for images in memory.
func Check(data []byte) (Kind, int, int, error) {
	return Inspect(bytes.NewReader(data))
}

// Inspect decides what r holds by its bytes alone: a PNG, JPEG, GIF or
// WebP image with its width and height. It is the one gate of every
// raster image curex keeps or publishes: content images (exporter/assets)
// and the images a setting names (exporter/localfile). Its header is read
// first (image.DecodeConfig), so an image over MaxPixels or MaxSide is
// refused before it is decoded;
// then the file is walked to its format's end (PNG: IEND, JPEG: EOI,
// GIF: its trailer, WebP: the RIFF size), which must be the end of r;
// then it is decoded whole. Anything else is refused with ErrNotImage,
// an SVG document with ErrSVG. r is read from its start.
func Inspect(r io.ReadSeeker) (Kind, int, int, error) {
	k, w, h, err := Header(r)
	if err != nil {
		return Kind{}, 0, 0, err
	}
	name := k.Name
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return Kind{}, 0, 0, fmt.Errorf("read image: %w", err)
	}
	framePixels, err := walk(name, bufio.NewReader(r))
	if err != nil {
		return Kind{}, 0, 0, fmt.Errorf("%w: %s: %v", ErrNotImage, name, err)
	}
	if framePixels > MaxPixels {
		return Kind{}, 0, 0, fmt.Errorf("%w: gif: frames of %d pixels in all, more than %d", ErrNotImage, framePixels, MaxPixels)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return Kind{}, 0, 0, fmt.Errorf("read image: %w", err)
	}
	if name == "gif" {
		_, err = gif.DecodeAll(bufio.NewReader(r)) // every frame, to the trailer
	} else {
		_, _, err = image.Decode(bufio.NewReader(r))
	}
	if err != nil {
		return Kind{}, 0, 0, fmt.Errorf("%w: %s does not decode: %v", ErrNotImage, name, err)
	}
	return k, w, h, nil
}

// Header reads the header of the image r holds from its start: its
// kind and size, within MaxPixels and MaxSide. It neither walks nor
// decodes the rest: that is Inspect's, for bytes not checked before.
func Header(r io.ReadSeeker) (Kind, int, int, error) {
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return Kind{}, 0, 0, fmt.Errorf("read image: %w", err)
	}
	cfg, name, err := image.DecodeConfig(bufio.NewReader(r))
	if err != nil {
		if _, serr := r.Seek(0, io.SeekStart); serr == nil && looksLikeSVG(r) {
			return Kind{}, 0, 0, ErrSVG
		}
		return Kind{}, 0, 0, fmt.Errorf("%w: %v", ErrNotImage, err)
	}
	k, ok := kinds[name]
	if !ok {
		return Kind{}, 0, 0, fmt.Errorf("%w: %s", ErrNotImage, name)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxSide || cfg.Height > MaxSide || int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return Kind{}, 0, 0, fmt.Errorf("%w: %d×%d pixels, more than %d a side or %d in all", ErrNotImage, cfg.Width, cfg.Height, MaxSide, MaxPixels)
	}
	return k, cfg.Width, cfg.Height, nil
}

// looksLikeSVG reports whether r starts, after white space, a byte
// order mark, an XML declaration or comments, with an <svg element, or
// names SVG's namespace early on: what a browser would show as SVG.
func looksLikeSVG(r io.Reader) bool {
	head := make([]byte, 4096)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false
	}
	head = bytes.TrimPrefix(head[:n], []byte("\xef\xbb\xbf"))
	lower := bytes.ToLower(bytes.TrimSpace(head))
	return bytes.Contains(lower, []byte("<svg")) || bytes.Contains(lower, []byte("http://www.w3.org/2000/svg"))
}

// ByExt returns the Kind whose file extension is ext (without a dot:
// "png", "jpg"), and whether there is one.
func ByExt(ext string) (Kind, bool) {
	for _, k := range kinds {
		if k.Ext == ext {
			return k, true
		}
	}
	return Kind{}, false
}
