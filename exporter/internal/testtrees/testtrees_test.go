package testtrees

import "testing"

func TestSample(t *testing.T) {
	s := Sample(t)
	if len(s.Trees) < 10 {
		t.Fatalf("%d trees, want the whole sample organization", len(s.Trees))
	}
	tr := s.Find(t, "algebra-1/houston-isd/ar")
	if got := len(tr.VariantChain); got != 3 {
		t.Fatalf("Houston ISD chain %v, want 3 levels", tr.VariantChain)
	}
	if tr.Count() == 0 || tr.Nodes[0].Segment == "" {
		t.Fatal("tree without nodes or segments")
	}
}

func TestSynthetic(t *testing.T) {
	s := Synthetic(t, "curricula=1,variants=0,locales=1,nodes=50")
	if len(s.Trees) != 1 || s.Trees[0].Count() != 50 {
		t.Fatalf("got %d trees", len(s.Trees))
	}
}
