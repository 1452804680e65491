package model

import "testing"

func TestTranslationProgress(t *testing.T) {
	node := func(id string, translated bool, children ...*Node) *Node {
		n := &Node{ID: id, Children: children}
		n.Translation.IsTranslated = translated
		return n
	}
	tests := []struct {
		name            string
		locale, primary string
		nodes           []*Node
		want            int
		wantOK          bool
	}{
		{name: "empty tree", locale: "es", primary: "en", wantOK: false},
		{name: "primary locale counts every node", locale: "en", primary: "en", nodes: []*Node{node("a", false)}, want: 100, wantOK: true},
		{name: "primary locale spelled pt_BR", locale: "pt-BR", primary: "pt_BR", nodes: []*Node{node("a", false)}, want: 100, wantOK: true},
		{name: "no primary named counts every node", locale: "es", nodes: []*Node{node("a", false)}, want: 100, wantOK: true},
		{name: "children count, rounded down", locale: "es", primary: "en",
			nodes: []*Node{node("a", true, node("b", false), node("c", false))}, want: 33, wantOK: true},
		{name: "all translated", locale: "es", primary: "en", nodes: []*Node{node("a", true), node("b", true)}, want: 100, wantOK: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := &Tree{Export: Export{Locale: tc.locale, PrimaryLocale: tc.primary}, Nodes: tc.nodes}
			got, ok := tr.TranslationProgress()
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("TranslationProgress() = %d, %v; want %d, %v", got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

// TestTranslationProgressPrimarySpelledOtherwise: a tree in its primary
// locale, spelled "pt_BR" on one side and "pt-BR" on the other, is wholly
// in its own language, as the handbook's fallback notices already held
// (issue 24, section 2: the locale rule was spelled 7 ways).
func TestTranslationProgressPrimarySpelledOtherwise(t *testing.T) {
	for _, primary := range []string{"pt_BR", "PT-br"} {
		tr := &Tree{Export: Export{Locale: "pt-BR", PrimaryLocale: primary}, Nodes: []*Node{{ID: "a"}}}
		if got, _ := tr.TranslationProgress(); got != 100 {
			t.Errorf("primary %q: TranslationProgress() = %d, want 100", primary, got)
		}
	}
}
