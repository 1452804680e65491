package model

import "strings"

// The facts below are what a node says about itself, read the same way by
// every format: formats lay them out and never decide them again.

// Label is the node's numbering as readers see it ("Unit 1", "Lección 3"):
// the API's type_display as served, unless it is empty or white space
// alone, else the type's display name and the ordinal label joined by a
// space, trimmed. It is "" when the node has none of them.
func (n *Node) Label() string {
	if strings.TrimSpace(n.TypeDisplay) != "" {
		return n.TypeDisplay
	}
	return strings.TrimSpace(n.NodeType.DisplayName + " " + n.OrdinalLabel)
}

// InPrimaryLocale reports whether the export is in its curriculum's
// primary locale, the language the content is written in (compared as
// SameLocale does: "pt_BR" is "pt-BR").
func (e Export) InPrimaryLocale() bool { return SameLocale(e.Locale, e.PrimaryLocale) }

// FallbackLocale is the locale node n's text is shown in when that is not
// the export's own: "" when the export is in its primary locale or the
// node is translated (the API's is_translated; translation_status values
// are not listed by the specification and are not read); else the node's
// source locale, when it names one other than the export's, and otherwise
// the primary locale ("" when the export names none).
func (e Export) FallbackLocale(n *Node) string {
	if n.Translation.IsTranslated || e.InPrimaryLocale() {
		return ""
	}
	if src := n.Translation.SourceLocale; src != "" && !SameLocale(src, e.Locale) {
		return src
	}
	return e.PrimaryLocale
}
