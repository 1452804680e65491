package model

// TranslationProgress is the share of t's nodes shown in t's own locale,
// in percent, rounded down (100 means every node): the translation
// progress of this variant, which a curriculum's locale figures (about the
// base curriculum) do not give. In the primary locale (InPrimaryLocale),
// or when the tree names none, every node counts as translated. ok is false for an empty
// tree. Filter t first (PublishedOnly) to count what a reader sees.
func (t *Tree) TranslationProgress() (percent int, ok bool) {
	primary := t.InPrimaryLocale() || t.PrimaryLocale == ""
	nodes, translated := 0, 0
	t.Walk(func(n *Node) bool {
		nodes++
		if primary || n.Translation.IsTranslated {
			translated++
		}
		return true
	})
	if nodes == 0 {
		return 0, false
	}
	return translated * 100 / nodes, true
}
