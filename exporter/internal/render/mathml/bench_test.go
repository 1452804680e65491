package mathml

import (
	"context"
	"strconv"
	"testing"
)

// quadratic is a typical display equation.
const quadratic = `x = \frac{-b \pm \sqrt{b^2-4ac}}{2a}`

// BenchmarkLoad measures making an interpreter and loading Temml into it
// (the program compiled once, as a Converter does).
func BenchmarkLoad(b *testing.B) {
	c := New(Options{})
	if _, err := c.compile(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.newEngine(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConvertCold converts expressions never seen before (the cache
// misses every time) on a warm interpreter.
func BenchmarkConvertCold(b *testing.B) {
	c := New(Options{Runtimes: 1, CacheBytes: -1})
	ctx := context.Background()
	i := 0
	for b.Loop() {
		i++
		if _, err := c.Convert(ctx, quadratic+"+"+strconv.Itoa(i), true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConvertCached converts an expression the cache holds.
func BenchmarkConvertCached(b *testing.B) {
	c := New(Options{Runtimes: 1})
	ctx := context.Background()
	if _, err := c.Convert(ctx, quadratic, true); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := c.Convert(ctx, quadratic, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompile measures compiling Temml's 168 KB of JavaScript,
// which a Converter does once.
func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		if _, err := New(Options{}).compile(); err != nil {
			b.Fatal(err)
		}
	}
}
