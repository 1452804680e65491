package ratelimit

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)

func TestLogAllowSingleLimit(t *testing.T) {
	l := NewLog(Limits{{Count: 3, Window: time.Minute}})
	for i := range 3 {
		if ok, _ := l.Allow(t0.Add(time.Duration(i) * time.Second)); !ok {
			t.Fatalf("request %d refused", i)
		}
	}
	ok, wait := l.Allow(t0.Add(10 * time.Second))
	if ok || wait != 50*time.Second {
		t.Fatalf("4th request: ok=%v wait=%v, want refused with 50s", ok, wait)
	}
	// The first request leaves the window exactly one minute after it.
	if ok, _ := l.Allow(t0.Add(time.Minute)); !ok {
		t.Fatal("request at t0+1m refused")
	}
}

func TestLogNextTakesTheStrictestLimit(t *testing.T) {
	l := NewLog(Limits{{Count: 2, Window: time.Second}, {Count: 3, Window: time.Minute}})
	l.Add(t0)
	l.Add(t0.Add(100 * time.Millisecond))
	if got := l.Next(t0.Add(200 * time.Millisecond)); !got.Equal(t0.Add(time.Second)) {
		t.Fatalf("Next = %v, want t0+1s", got.Sub(t0))
	}
	l.Add(t0.Add(time.Second))
	if got := l.Next(t0.Add(time.Second)); !got.Equal(t0.Add(time.Minute)) {
		t.Fatalf("Next = %v, want t0+1m (hourly-style limit)", got.Sub(t0))
	}
}

func TestLogUsage(t *testing.T) {
	l := NewLog(Limits{{Count: 10, Window: time.Second}, {Count: 100, Window: time.Minute}})
	for i := range 5 {
		l.Add(t0.Add(time.Duration(i) * 300 * time.Millisecond))
	}
	got := l.Usage(t0.Add(1300 * time.Millisecond))
	// Window (0.3s, 1.3s] holds the requests at 0.6, 0.9 and 1.2 s.
	if got[0] != 3 || got[1] != 5 {
		t.Fatalf("Usage = %v, want [3 5]", got)
	}
}

func TestZeroLogAllowsEverything(t *testing.T) {
	var l Log
	for i := range 1000 {
		if ok, _ := l.Allow(t0.Add(time.Duration(i))); !ok {
			t.Fatal("zero Log refused a request")
		}
	}
	if len(l.times) != 0 {
		t.Fatal("zero Log kept entries")
	}
}

// TestLogNeverExceedsAnyWindow drives a log with random arrivals and checks
// the accepted requests against every limit, in every window, by brute force.
func TestLogNeverExceedsAnyWindow(t *testing.T) {
	limits := Limits{{Count: 5, Window: time.Second}, {Count: 12, Window: 5 * time.Second}}
	l := NewLog(limits)
	rng := rand.New(rand.NewPCG(1, 2))
	var accepted []time.Time
	now := t0
	for range 5000 {
		now = now.Add(time.Duration(rng.IntN(400)) * time.Millisecond)
		if ok, wait := l.Allow(now); ok {
			accepted = append(accepted, now)
		} else if wait <= 0 {
			t.Fatalf("refused with wait %v", wait)
		}
	}
	if len(accepted) < 100 {
		t.Fatalf("only %d requests accepted", len(accepted))
	}
	for _, lim := range limits {
		for i, start := range accepted {
			n := 0
			for _, a := range accepted[i:] {
				if a.Sub(start) < lim.Window {
					n++
				}
			}
			if n > lim.Count {
				t.Fatalf("%d requests within %v from %v, limit %v", n, lim.Window, start.Sub(t0), lim)
			}
		}
	}
	if len(l.times) > 12 {
		t.Fatalf("log keeps %d entries, more than the largest count", len(l.times))
	}
}

func ExampleLog() {
	l := NewLog(Limits{{Count: 2, Window: time.Minute}})
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3 {
		ok, wait := l.Allow(start.Add(time.Duration(i) * time.Second))
		fmt.Println(ok, wait)
	}
	// Output:
	// true 0s
	// true 0s
	// false 58s
}

func TestLogMove(t *testing.T) {
	l := NewLog(Limits{{Count: 3, Window: time.Second}})
	for i := range 3 {
		l.Add(t0.Add(time.Duration(i) * 100 * time.Millisecond))
	}
	// The first request's answer came at 250 ms: count it from there.
	if !l.Move(t0, t0.Add(250*time.Millisecond)) {
		t.Fatal("Move did not find the entry")
	}
	if l.Move(t0, t0.Add(time.Second)) {
		t.Fatal("Move found an entry that is no longer there")
	}
	if got := l.Next(t0.Add(300 * time.Millisecond)); !got.Equal(t0.Add(1100 * time.Millisecond)) {
		t.Fatalf("Next = %v, want the 100 ms entry to leave first (1.1 s)", got.Sub(t0))
	}
	for i := 1; i < len(l.times); i++ {
		if l.times[i].Before(l.times[i-1]) {
			t.Fatalf("log unsorted: %v", l.times)
		}
	}
}
