package starter

// stylesBlock is the worked example: the default "styles" block with
// the theme's own style sheet linked after curex's (and before the
// publisher's accent and site_styles, which win over it).
const stylesBlock = `{{define "styles"}}<link rel="stylesheet" href="{{.Asset "site.css"}}">
<link rel="stylesheet" href="{{.Asset "icons.css"}}">
{{- if .Chroma}}
<link rel="stylesheet" href="{{.Asset "chroma.css"}}">{{end}}
{{- if .Math}}
<link rel="stylesheet" href="{{.Asset "math.css"}}">{{end}}
<link rel="stylesheet" href="{{.Asset "custom.css"}}">
{{- with .Brand.Style}}
<link rel="stylesheet" href="{{.}}">{{end}}
{{- range .Brand.Styles}}
<link rel="stylesheet" href="{{.}}">{{end}}{{end}}
`

// customCSS is the example's style sheet.
const customCSS = `/* The theme's own style sheet, linked on every page by styles.html
   (as assets/custom.<hash>.css: a change gets a new name). */
.site-footer {
  border-block-start: 4px solid var(--accent);
}
`

// readme explains the folder.
const readme = "# A curex theme\n\n" +
	"Written by `curex theme init`. Use it with `curex export --theme DIR` (or `theme: DIR`\n" +
	"in curex.yaml); `curex export` then renders every page with it.\n\n" +
	"## What curex reads here\n\n" +
	"- `*.html` at the top: each `{{define \"name\"}} … {{end}}` replaces that block of the\n" +
	"  default templates; blocks you do not define stay curex's.\n" +
	"- `assets/`: a file named like one of the default theme's (`site.css`, `site.js`,\n" +
	"  `icons/book.svg`, …) replaces it; any other file is added. Every one is written\n" +
	"  under a name with a content hash (`custom.3f2a9c1e.css`), which `{{.Asset \"custom.css\"}}`\n" +
	"  links, and under its own name too, so your CSS can refer to fonts and images by `url()`.\n" +
	"- `i18n/<locale>.json`: the words curex adds around the content, per locale\n" +
	"  (`{\"next\": \"Adelante\"}`).\n\n" +
	"Anything else, this README and `reference/` included, is never read.\n\n" +
	"## The example\n\n" +
	"`styles.html` redefines the `styles` block to link `assets/custom.css` after curex's\n" +
	"own style sheet; `custom.css` draws a line in the accent colour above the footer.\n" +
	"Change it, export again, and the pages link the new file.\n\n" +
	"## Reference\n\n" +
	"`reference/blocks/` holds every block of the default templates, one file each, and\n" +
	"`reference/assets/` the default theme's files. To change a block, copy its file to the\n" +
	"top of this folder and edit it; to change a default asset, copy it into `assets/`.\n" +
	"They are copies of this version of curex: a block you do not copy keeps up with curex.\n"
