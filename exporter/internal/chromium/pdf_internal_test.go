package chromium

import (
	"testing"
	"time"
)

func TestRenumberIDs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"no ids", "no ids"},
		{"/ID (node00000202) /ID (node00000203) /Limits [(node00000202) (node00000264)] /ID (node00000264)",
			"/ID (node00000001) /ID (node00000002) /Limits [(node00000001) (node00000003)] /ID (node00000003)"},
		{"(node9) (node10) (node7)", "(node9) (node10) (node7)"},
		{"(node19) (node10) (node17) (node19)", "(node03) (node01) (node02) (node03)"},
	} {
		b := []byte(tc.in)
		renumberIDs(b)
		if string(b) != tc.want {
			t.Errorf("renumberIDs(%q) = %q, want %q", tc.in, b, tc.want)
		}
	}
}

func TestSetDates(t *testing.T) {
	in := "<</CreationDate (D:20261122043759+00'00')\n/ModDate (D:20261122043759+00'00')>> /Other (D:20261122043759+00'00')"
	b := []byte(in)
	setDates(b, time.Date(2026, 2, 1, 0, 0, 0, 0, time.FixedZone("x", 3600)))
	want := "<</CreationDate (D:20260131230000+00'00')\n/ModDate (D:20260131230000+00'00')>> /Other (D:20261122043759+00'00')"
	if string(b) != want {
		t.Errorf("got %q", b)
	}
}
