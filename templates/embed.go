// Package templates embeds the html/template files of the website. The
// website renderer (exporter/render/html) parses them; a theme folder on disk
// can redefine any of their blocks.
package templates

import "embed"

// FS holds every *.html template of this folder.
//
//go:embed *.html
var FS embed.FS

// Pages are the templates of one kind of page each (node.html is the
// node pages'), by name without .html; the other templates are shared by
// every page. A theme's template of the same name redefines blocks for
// that kind of page only.
func Pages() []string {
	return []string{"catalog", "curriculum", "toc", "node", "whatsnew", "404"}
}
