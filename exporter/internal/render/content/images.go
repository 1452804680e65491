package content

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/curex/curex/exporter/internal/render/attrs"
	"github.com/curex/curex/exporter/internal/render/markup"
)

// Image is what an Images resolver knows of an image's URL.
type Image struct {
	// Path is the local copy, relative to the output root
	// (layout.ContentAsset); empty when the image failed.
	Path string
	// Width and Height are its size in pixels.
	Width, Height int
	// Failed is set when the image could not be kept: the page shows its
	// alt text as a link to the URL instead.
	Failed bool
}

// Images resolves the absolute URL of an image, as the content gives it,
// to its local copy. ok false leaves the image as it is: an <img> that
// loads it from its URL.
type Images func(url string) (img Image, ok bool)

// imagesAttr is the Document attribute through which the image renderer
// learns the resolver and the page of the call.
var imagesAttr = []byte("curex-images")

// pageImages is what WithImages adds to a Converter.
type pageImages struct {
	images Images
	// ups leads from the page to the output root ("../../").
	ups string
}

// WithImages returns a Converter that shows images through images, on the
// page at the path page (relative to the output root, forward slashes,
// such as "algebra-1/base/en/unit-1/index.html"): a local copy gets a
// src relative to the page, with its width and height; a failed image
// its alt text as a link to its URL. The two Renderers share everything
// else; r is unchanged.
func (r *Converter) WithImages(images Images, page string) *Converter {
	c := *r
	c.images = &pageImages{images: images, ups: strings.Repeat("../", strings.Count(page, "/"))}
	return &c
}

// imagesOf returns the resolver and page set on n's document, if any.
func imagesOf(n ast.Node) *pageImages {
	doc := n.OwnerDocument()
	if doc == nil {
		return nil
	}
	v, _ := doc.Attribute(imagesAttr)
	p, _ := v.(*pageImages)
	return p
}

// writeImage writes an image: local, failed or remote (see WithImages).
func writeImage(w util.BufWriter, n *ast.Image, dest []byte, alt string, kind urlKind) {
	var img Image
	ok := false
	if p := imagesOf(n); p != nil && kind == urlExternal {
		img, ok = p.images(string(dest))
		if ok && !img.Failed {
			img.Path = p.ups + img.Path
		}
	}
	if ok && img.Failed {
		writeHref(w, dest, kind)
		_, _ = w.WriteString(` class="image-failed">`)
		if alt == "" {
			_, _ = w.Write(util.EscapeHTML(dest))
		} else {
			_, _ = w.WriteString(escape(alt))
		}
		_, _ = w.WriteString(`</a>`)
		return
	}
	_, _ = w.WriteString(`<img src="`)
	if ok {
		_, _ = w.WriteString(escape(img.Path))
	} else {
		_, _ = w.Write(util.EscapeHTML(util.URLEscape(dest, false)))
	}
	if ok && img.Width > 0 && img.Height > 0 {
		_, _ = w.WriteString(`" width="` + strconv.Itoa(img.Width) + `" height="` + strconv.Itoa(img.Height))
	}
	_, _ = w.WriteString(`" alt="`)
	_, _ = w.WriteString(escape(alt))
	_ = w.WriteByte('"')
	writeTitle(w, n.Title)
	_, _ = w.WriteString(` loading="lazy">`)
}

// ImageURLs lists the absolute http and https URLs of the images in a
// node's attributes, as Node would render them (the same reading, the
// same Markdown), each once, in the order they appear.
func (r *Converter) ImageURLs(attributes map[string]json.RawMessage, nodeTitle string) []string {
	if !mayHoldImages(attributes) {
		return nil // no member holds an image: nothing to parse
	}
	return r.imageURLs(attributes, nodeTitle)
}

// imageURLs is ImageURLs without its test of the members' JSON text.
func (r *Converter) imageURLs(attributes map[string]json.RawMessage, nodeTitle string) []string {
	var out []string
	seen := map[string]bool{}
	markdown := func(src string) {
		if !strings.Contains(src, "](") && !strings.Contains(src, "]:") && !strings.Contains(src, "][") {
			return // no inline or reference image: skip the parse
		}
		source := []byte(defuse(markup.Text(src)))
		doc := r.md.Parser().Parse(text.NewReader(source))
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if img, ok := n.(*ast.Image); ok && entering {
				dest := string(resolveDest(img.Destination))
				if destKind([]byte(dest)) == urlExternal && !seen[dest] {
					seen[dest] = true
					out = append(out, dest)
				}
			}
			return ast.WalkContinue, nil
		})
	}
	var value func(v attrs.Value)
	value = func(v attrs.Value) {
		if v.Kind == attrs.Text {
			markdown(v.Text)
		}
		for _, it := range v.Items {
			value(it)
		}
		for _, f := range v.Fields {
			value(f.Value)
		}
		for _, t := range v.Terms {
			markdown(t.Term)
			markdown(t.Definition)
		}
	}
	for _, s := range r.order.Parse(attributes, nodeTitle) {
		value(s.Value)
	}
	return out
}

// mayHoldImages reports whether a member's JSON text holds what an image
// in Markdown needs ("](", "][" or, for a reference's definition, "]:")
// or a \u escape, which may spell it: ImageURLs' test before it parses a
// node's members, a superset of the test it makes of each text.
func mayHoldImages(attributes map[string]json.RawMessage) bool {
	for _, raw := range attributes {
		if mayHold(raw, "](", "][", "]:") {
			return true
		}
	}
	return false
}
