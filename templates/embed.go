// Package templates embeds the html/template files of the website. The
// website renderer (exporter/render/html) parses them; a theme folder on disk
// can redefine any of their blocks.
package templates

import "embed"

// FS holds every *.html template of this folder.
//
//go:embed *.html
var FS embed.FS
