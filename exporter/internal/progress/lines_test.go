package progress_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/internal/progress"
	"github.com/curex/curex/exporter/internal/setting"
)

// TestLines: with Every far off, the plan line, the first tree's line,
// each failed tree (its error spelled by Describe when set, terminal
// controls removed) with a progress line, and the last tree's line are
// printed; nothing else.
func TestLines(t *testing.T) {
	e := func(l string) model.Export {
		return model.Export{CurriculumSlug: "algebra-1", VariantSlug: "base", LocaleSlug: l}
	}
	tooBig := setting.Errorf(setting.MaxTreeNodes, "the tree has more than 3 nodes")
	flag := func(err error) string {
		return strings.Replace(err.Error(), setting.MaxTreeNodes, "--max-tree-nodes", 1)
	}
	tests := []struct {
		name      string
		describe  func(error) string
		fromCache bool
		results   []fetch.Result
		want      []string // the lines, each by a prefix
	}{
		{name: "no failure",
			results: []fetch.Result{{Export: e("en")}, {Export: e("es")}, {Export: e("fr")}},
			want:    []string{"plan: 3 trees, 7 requests", "1/3 trees", "3/3 trees"}},
		{name: "a failure as the library says it",
			results: []fetch.Result{{Export: e("en"), Err: tooBig}, {Export: e("es")}},
			want:    []string{"plan: 2 trees", "failed: algebra-1/base/en: max_tree_nodes: the tree has more than 3 nodes", "1/2 trees", "2/2 trees"}},
		{name: "a failure as the user gave the setting", describe: flag,
			results: []fetch.Result{{Export: e("en"), Err: tooBig}, {Export: e("es")}},
			want:    []string{"plan: 2 trees", "failed: algebra-1/base/en: --max-tree-nodes: the tree has more than 3 nodes", "1/2 trees", "2/2 trees"}},
		{name: "terminal controls removed", describe: flag,
			results: []fetch.Result{{Export: e("en"), Err: errors.New("bad\x1b[2Janswer")}},
			want:    []string{"plan: 1 trees", "failed: algebra-1/base/en: badanswer", "1/1 trees"}},
		{name: "a build speaks of the cache", fromCache: true,
			results: []fetch.Result{{Export: e("en")}, {Export: e("es")}},
			want:    []string{"plan: 2 trees, read from the cache (no API request)", "1/2 trees read from the cache · ", "2/2 trees read from the cache · "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			p := &progress.Lines{W: &buf, Every: time.Hour, Describe: tc.describe, FromCache: tc.fromCache}
			p.Planned(len(tc.results), 7, pacer.NewLimiter(pacer.LimiterOptions{}))
			for _, r := range tc.results {
				p.TreeDone(r, fetch.StatsSnapshot{})
			}
			got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if len(got) != len(tc.want) {
				t.Fatalf("%d lines, want %d:\n%s", len(got), len(tc.want), buf.String())
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("line %d: %q, want it to start with %q", i+1, got[i], w)
				}
			}
		})
	}
}
