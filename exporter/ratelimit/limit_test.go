package ratelimit

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Limits
		err  string
	}{
		{in: "60/1m,1000/1h", want: Limits{{60, time.Minute}, {1000, time.Hour}}},
		{in: " 20/1s , 120/6s ", want: Limits{{20, time.Second}, {120, 6 * time.Second}}},
		{in: "5/m", want: Limits{{5, time.Minute}}},
		{in: "100/90s", want: Limits{{100, 90 * time.Second}}},
		{in: "", want: Limits{}},
		{in: "none", want: Limits{}},
		{in: "60", err: "want COUNT/WINDOW"},
		{in: "0/1m", err: "count must be"},
		{in: "-1/1m", err: "count must be"},
		{in: "x/1m", err: "count must be"},
		{in: "60/forever", err: "not a duration"},
		{in: "60/0s", err: "between 1ms and 31 days"},
		{in: "60/1m,", err: "want COUNT/WINDOW"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Parse(%q) error = %v, want one containing %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if got.String() != tt.want.String() || len(got) != len(tt.want) {
				t.Fatalf("Parse(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestLimitsStringRoundTrip(t *testing.T) {
	for _, s := range []string{"60/1m,1000/1h", "20/1s,120/6s", "7/1.5s"} {
		ls, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := ls.String(); got != s {
			t.Errorf("Parse(%q).String() = %q", s, got)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"60/1m,1000/1h", "1/s", "none", "", "5/1h30m", "9999999999/1m", "1/1ns"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ls, err := Parse(s)
		if err != nil {
			return
		}
		for _, l := range ls {
			if l.Count < 1 || l.Count > maxCount || l.Window < time.Millisecond {
				t.Fatalf("Parse(%q) accepted %v", s, l)
			}
		}
		again, err := Parse(ls.String())
		if err != nil || again.String() != ls.String() {
			t.Fatalf("round trip of %q: %q, %v", s, again, err)
		}
	})
}
