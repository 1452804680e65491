// Package themes embeds the default theme of the website: CSS, a little
// vanilla JavaScript and SVG icons for node types. A theme folder on disk
// replaces these files one by one.
package themes

import "embed"

// FS holds the default theme under "default/".
//
//go:embed default
var FS embed.FS
