package assets

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif"  // GIF images
	_ "image/jpeg" // JPEG images
	_ "image/png"  // PNG images

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

// kinds are the formats curex keeps, by image.DecodeConfig's name.
var kinds = map[string]Kind{
	"png":  {"png", "png", "image/png"},
	"jpeg": {"jpeg", "jpg", "image/jpeg"},
	"gif":  {"gif", "gif", "image/gif"},
	"webp": {"webp", "webp", "image/webp"},
}

// maxPixels bounds the width times height an image may claim: a picture
// in a lesson is far smaller, and a claim far larger is a decompression
// bomb for whoever decodes it next.
const maxPixels = 100 << 20

// Check decides what data is by its bytes alone: a PNG, JPEG, GIF or WebP
// image whose header image.DecodeConfig reads, with its width and height.
// Anything else is refused with ErrNotImage, an SVG document with ErrSVG.
// Only the header is decoded; data is never kept.
func Check(data []byte) (Kind, int, int, error) {
	cfg, name, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		if looksLikeSVG(data) {
			return Kind{}, 0, 0, ErrSVG
		}
		return Kind{}, 0, 0, fmt.Errorf("%w: %v", ErrNotImage, err)
	}
	k, ok := kinds[name]
	if !ok {
		return Kind{}, 0, 0, fmt.Errorf("%w: %s", ErrNotImage, name)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > maxPixels {
		return Kind{}, 0, 0, fmt.Errorf("%w: %d×%d pixels", ErrNotImage, cfg.Width, cfg.Height)
	}
	return k, cfg.Width, cfg.Height, nil
}

// looksLikeSVG reports whether data starts, after white space, a byte
// order mark, an XML declaration or comments, with an <svg element, or
// names SVG's namespace early on: what a browser would show as SVG.
func looksLikeSVG(data []byte) bool {
	head := data[:min(len(data), 4096)]
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	lower := bytes.ToLower(bytes.TrimSpace(head))
	return bytes.Contains(lower, []byte("<svg")) || bytes.Contains(lower, []byte("http://www.w3.org/2000/svg"))
}
