package html

import (
	"bytes"
	"errors"
	"html/template"
	"strings"
)

// A node page's markup is mostly its own, but a few blocks of the
// default templates read nothing of a node page that the other node pages
// of its tree do not share (their language, their depth in the output,
// the tree's search box, the publisher's identity), or little more:
// base.html runs them through Page.Render, which on the node pages of a
// tree runs each once per key and reuses the output. html/template costs
// about a microsecond a printed value (each passes through its escapers
// by reflection); the search form alone prints thirty.

// themeFile prefixes the names under which a theme's template files are
// parsed (loadTemplates), so that a block can be told to be the theme's.
const themeFile = "theme/"

// sharedKey reports whether the default block name is the same on every
// node page of a tree that has the same key: what the block reads of the
// page beyond what those pages share. TestSharedBlocksAsRendered renders
// every node page with and without the reuse and compares the bytes.
func sharedKey(name string, p *Page) (key string, ok bool) {
	switch name {
	case "search", "footer":
		return name, true
	case "styles":
		return name + bit(p.Chroma) + bit(p.Math), true
	case "scripts":
		return name + bit(p.Search != nil), true
	}
	return "", false
}

func bit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// blocks keeps the output of the shared blocks (sharedKey) for the node
// pages of one tree that one worker renders (so without a lock).
type blocks map[string]template.HTML

// Render returns the output of the block name run with p as its data, as
// {{template name .}} would write it. On the node pages of a tree, a
// block of the default templates that is the same on each of them
// (search, footer, styles, scripts) is run once and its output reused; a
// block the theme redefines is run on every page, as any other.
func (p *Page) Render(name string) (template.HTML, error) {
	if p.tmpl == nil {
		return "", errors.New("Render: the page is not being rendered")
	}
	key, shared := "", false
	if p.blocks != nil {
		if key, shared = sharedKey(name, p); shared {
			if h, ok := p.blocks[key]; ok {
				return h, nil
			}
		}
	}
	var buf bytes.Buffer
	if err := p.tmpl.ExecuteTemplate(&buf, name, p); err != nil {
		return "", err
	}
	h := template.HTML(buf.String()) // output of html/template
	if shared && !themeDefines(p.tmpl, name) {
		p.blocks[key] = h
	}
	return h, nil
}

// themeDefines reports whether the block name of t comes from a theme's
// file, not from the default templates.
func themeDefines(t *template.Template, name string) bool {
	b := t.Lookup(name)
	return b != nil && b.Tree != nil && strings.HasPrefix(b.Tree.ParseName, themeFile)
}
