package handbook

import (
	"time"

	"github.com/curex/curex/exporter/model"
	"github.com/curex/curex/exporter/render/i18n"
)

// The handbook's readings of a tree, for the formats that show the same
// content in another container (the EPUB book), so that each is spelled
// once.

// Label is a node's numbering ("Unit 1"): the API's type_display, else its
// type's display name and ordinal label, as on the website.
func Label(n *model.Node) string { return label(n) }

// Clean makes an API string fit for HTML and XML text: invalid UTF-8 is
// replaced, control characters other than tab and newline and Unicode
// noncharacters become spaces.
func Clean(s string) string { return clean(s) }

// AttributeLabels names the attributes the catalogs have a label for in
// the language of m ("" for the others, which the content package
// humanizes), for content.Renderer.NodeLevel.
func AttributeLabels(m i18n.Messages) func(string) string { return labels(m) }

// FormatDate writes the date d in the language of m, as the handbook's
// cover does.
func FormatDate(d time.Time, m i18n.Messages) string { return formatDate(d, m) }
