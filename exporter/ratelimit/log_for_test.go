package ratelimit

import (
	"testing"
	"time"
)

// TestLogNextFor asks one log under lowered and stretched limits.
func TestLogNextFor(t *testing.T) {
	l := NewLog(Limits{{Count: 4, Window: time.Minute}, {Count: 10, Window: time.Hour}})
	for i := range 4 {
		l.Add(t0.Add(time.Duration(i) * time.Second))
	}
	now := t0.Add(10 * time.Second)
	tests := []struct {
		name string
		ls   Limits
		want time.Duration // from t0
	}{
		{"own limits", l.Limits(), time.Minute},
		{"lowered count", Limits{{Count: 2, Window: time.Minute}}, time.Minute + 2*time.Second},
		{"count 1", Limits{{Count: 1, Window: time.Minute}}, time.Minute + 3*time.Second},
		{"count 0 counts as 1", Limits{{Count: 0, Window: time.Minute}}, time.Minute + 3*time.Second},
		{"room left", Limits{{Count: 5, Window: time.Minute}}, 10 * time.Second},
		{"stretched window", Limits{{Count: 4, Window: 61 * time.Second}}, 61 * time.Second},
		{"no limits", nil, 10 * time.Second},
		{"strictest wins", Limits{{Count: 4, Window: 30 * time.Second}, {Count: 3, Window: time.Minute}}, time.Minute + time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := l.NextFor(now, tt.ls).Sub(t0); got != tt.want {
				t.Errorf("NextFor = t0+%v, want t0+%v", got, tt.want)
			}
		})
	}
	if got := l.Next(now).Sub(t0); got != time.Minute {
		t.Errorf("Next = t0+%v", got)
	}
}

func TestLogUsageFor(t *testing.T) {
	l := NewLog(Limits{{Count: 100, Window: time.Minute}})
	for i := range 10 {
		l.Add(t0.Add(time.Duration(i) * 5 * time.Second)) // 0, 5, ..., 45 s
	}
	tests := []struct {
		at     time.Duration
		window time.Duration
		want   int
	}{
		{45 * time.Second, time.Minute, 10},
		{45 * time.Second, 10 * time.Second, 2}, // (35, 45]: 40, 45
		{45 * time.Second, 11 * time.Second, 3}, // (34, 45]: 35, 40, 45
		{20 * time.Second, 10 * time.Second, 2}, // (10, 20]: 15, 20 (later ones not counted)
		{time.Minute, time.Minute, 9},           // (0, 60]: the one at 0 has left
		{2 * time.Minute, time.Minute, 0},
	}
	for _, tt := range tests {
		got := l.UsageFor(t0.Add(tt.at), Limits{{Count: 1, Window: tt.window}})
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("UsageFor(t0+%v, %v) = %v, want %d", tt.at, tt.window, got, tt.want)
		}
	}
	if got := l.Usage(t0.Add(45 * time.Second)); got[0] != 10 {
		t.Errorf("Usage = %v", got)
	}
}

func TestLogClone(t *testing.T) {
	l := NewLog(Limits{{Count: 2, Window: time.Minute}})
	l.Add(t0)
	c := l.Clone()
	c.Add(t0.Add(time.Second))
	if got := l.Usage(t0.Add(time.Second))[0]; got != 1 {
		t.Errorf("original holds %d after adding to the clone", got)
	}
	if got := c.Next(t0.Add(time.Second)); !got.Equal(t0.Add(time.Minute)) {
		t.Errorf("clone Next = %v", got.Sub(t0))
	}
	c.limits[0].Count = 99
	if l.limits[0].Count != 2 {
		t.Error("clone shares its limits")
	}
}

// TestLogPruneStaysBounded adds many requests under a large count: the log
// keeps no more than the largest count and its memory stays bounded.
func TestLogPruneStaysBounded(t *testing.T) {
	l := NewLog(Limits{{Count: 1000, Window: time.Hour}, {Count: 60, Window: time.Minute}})
	now := t0
	for i := range 20_000 {
		now = now.Add(time.Duration(i%7) * time.Second)
		l.Add(now)
		if len(l.times) > 1000 {
			t.Fatalf("log keeps %d entries", len(l.times))
		}
	}
	if cap(l.times) > 4*1000 {
		t.Errorf("log holds an array of %d for at most 1000 entries", cap(l.times))
	}
	// Old entries go by time too.
	l.Add(now.Add(2 * time.Hour))
	if len(l.times) != 1 {
		t.Errorf("after two quiet hours the log keeps %d entries", len(l.times))
	}
}

// BenchmarkLogAdd measures an Add under the API's limits, where the hour
// window keeps 1000 entries.
func BenchmarkLogAdd(b *testing.B) {
	l := NewLog(Default())
	now := t0
	for b.Loop() {
		now = now.Add(3600 * time.Millisecond)
		l.Add(now)
		_ = l.Next(now)
	}
}
