package html

import (
	"bytes"
	"errors"
	"html/template"
	"strings"
	tparse "text/template/parse"
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
	case "header":
		// The switchers link the page's own node in the other languages
		// and variants: the header is shared where there is none to link
		// (the page's language alone, one variant).
		for _, l := range p.Languages {
			if !l.Current {
				return "", false
			}
		}
		return name, len(p.Variants) <= 1
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
// (search, footer, styles, scripts, and the header where there is no
// language or variant to switch to) is run once and its output reused; a
// block the theme redefines, or that runs one the theme redefines, is run
// on every page, as any other.
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
	if shared && !p.themed[name] {
		p.blocks[key] = h
	}
	return h, nil
}

// themedBlocks returns the names of t's templates whose run reaches a
// definition from a theme's file: the template itself, or one it runs
// with {{template}} or .Render, at any depth. It reads the templates as
// parsed, before html/template rewrites them (New calls it).
func themedBlocks(t *template.Template) map[string]bool {
	themed := map[string]bool{}
	done := map[string]bool{}
	var reaches func(name string) bool
	reaches = func(name string) bool {
		if done[name] {
			return themed[name]
		}
		done[name] = true // a template that runs itself adds nothing
		b := t.Lookup(name)
		if b == nil || b.Tree == nil {
			return false
		}
		if strings.HasPrefix(b.Tree.ParseName, themeFile) {
			themed[name] = true
			return true
		}
		for _, called := range calls(b.Tree.Root) {
			if reaches(called) {
				themed[name] = true
				return true
			}
		}
		return false
	}
	for _, b := range t.Templates() {
		reaches(b.Name())
	}
	return themed
}

// calls lists the templates node runs: {{template "NAME"}} and
// .Render "NAME".
func calls(node tparse.Node) []string {
	var out []string
	var walk func(n tparse.Node)
	walk = func(n tparse.Node) {
		switch n := n.(type) {
		case *tparse.ListNode:
			if n != nil {
				for _, c := range n.Nodes {
					walk(c)
				}
			}
		case *tparse.ActionNode:
			walk(n.Pipe)
		case *tparse.PipeNode:
			if n != nil {
				for _, c := range n.Cmds {
					walk(c)
				}
			}
		case *tparse.CommandNode:
			if len(n.Args) == 2 && isRender(n.Args[0]) {
				if s, ok := n.Args[1].(*tparse.StringNode); ok {
					out = append(out, s.Text)
				}
			}
			for _, a := range n.Args {
				walk(a)
			}
		case *tparse.TemplateNode:
			out = append(out, n.Name)
			walk(n.Pipe)
		case *tparse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *tparse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *tparse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		}
	}
	walk(node)
	return out
}

// isRender reports whether n names the method Render (.Render, $.Render).
func isRender(n tparse.Node) bool {
	var ident []string
	switch n := n.(type) {
	case *tparse.FieldNode:
		ident = n.Ident
	case *tparse.VariableNode:
		ident = n.Ident
	}
	return len(ident) > 0 && ident[len(ident)-1] == "Render"
}
