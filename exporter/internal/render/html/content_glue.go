package html

import (
	"context"
	"encoding/json"
	"html/template"

	"github.com/curex/curex/exporter/internal/render/content"
	"github.com/curex/curex/exporter/internal/render/i18n"
)

// contentRenderer renders node attributes with the content package.
type contentRenderer struct {
	r      *content.Converter
	images content.Images
}

func newContentRenderer(r *content.Converter, images content.Images) (*contentRenderer, error) {
	return &contentRenderer{r: r, images: images}, nil
}

// node renders a node's attributes, on the page at path page, with labels
// in the language of m, its formulas converted under ctx.
func (c *contentRenderer) node(ctx context.Context, attrs map[string]json.RawMessage, title string, m i18n.Messages, idPrefix, page string) (template.HTML, error) {
	r := c.r.WithContext(ctx)
	if c.images != nil {
		r = r.WithImages(c.images, page)
	}
	return r.Node(attrs, title, m, idPrefix)
}

// plainText is the text of a Markdown string, n runes at most.
func plainText(src string, n int) string { return content.PlainText(src, n) }

// chromaCSS is the style sheet of highlighted code.
func chromaCSS() []byte { return content.StyleCSS() }
