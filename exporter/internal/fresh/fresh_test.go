package fresh

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/setting"
)

var t0 = time.Date(2026, 3, 1, 2, 0, 0, 0, time.UTC)

func export(c, v, l string) model.Export {
	return model.Export{CurriculumID: c, Variant: v, Locale: l}
}

func openT(t *testing.T, dir string) *Store {
	t.Helper()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestStoreSurvivesAKill(t *testing.T) {
	dir := t.TempDir()
	st := openT(t, dir)
	a, b := export("1", "", "en"), export("1", "Texas", "es")
	if err := st.Put(RecordOf(a, "sa", `"ea"`, t0)); err != nil {
		t.Fatal(err)
	}
	if err := st.Commit(t0, nil); err != nil {
		t.Fatal(err)
	}
	// The next run records b, then is killed: no Commit, no Close.
	if err := st.Put(RecordOf(b, "sb", `"eb"`, t0.Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	// ... and the kill cut its last journal line short.
	j, err := os.OpenFile(filepath.Join(dir, journalName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	j.WriteString(`{"curriculum":"1","variant":"Hou`)
	j.Close()

	again := openT(t, dir)
	if got, ok := again.Get(a); !ok || got.ETag != `"ea"` || got.Signal != "sa" {
		t.Errorf("a = %+v, %v; want the committed record", got, ok)
	}
	if got, ok := again.Get(b); !ok || got.ETag != `"eb"` || !got.Validated.Equal(t0.Add(time.Hour)) {
		t.Errorf("b = %+v, %v; want the journaled record", got, ok)
	}
	if again.Len() != 2 {
		t.Errorf("Len = %d, want 2 (the cut line is no record)", again.Len())
	}
	if p := again.Problems(); len(p) != 1 || !strings.Contains(p[0], "1 unreadable line") {
		t.Errorf("Problems = %q, want one naming the cut line", p)
	}
	if !again.LastRun().Equal(t0) {
		t.Errorf("LastRun = %v, want %v", again.LastRun(), t0)
	}
	// Committing folds the journal into the snapshot.
	if err := again.Commit(t0.Add(24*time.Hour), nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, journalName)); err != nil || fi.Size() != 0 {
		t.Errorf("journal after Commit: %v, %v; want empty", fi, err)
	}
	third := openT(t, dir)
	if third.Len() != 2 || len(third.Problems()) != 0 {
		t.Errorf("after Commit: %d records, problems %q", third.Len(), third.Problems())
	}
}

func TestStoreSetsADamagedSnapshotAside(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, snapshotName), []byte(`{"version":1,"trees":[`), 0o600); err != nil {
		t.Fatal(err)
	}
	st := openT(t, dir)
	if st.Len() != 0 || len(st.Problems()) != 1 || !strings.Contains(st.Problems()[0], "set aside") {
		t.Fatalf("Len %d, Problems %q; want an empty state and the file named", st.Len(), st.Problems())
	}
	if _, err := os.Stat(filepath.Join(dir, snapshotName+".damaged")); err != nil {
		t.Errorf("the damaged snapshot is not kept: %v", err)
	}
}

func TestCommitKeeps(t *testing.T) {
	st := openT(t, t.TempDir())
	st.Put(RecordOf(export("1", "", "en"), "s", "e", t0))
	st.Put(RecordOf(export("2", "", "en"), "s", "e", t0))
	if err := st.Commit(t0, func(c, _, _ string) bool { return c == "1" }); err != nil {
		t.Fatal(err)
	}
	if _, ok := st.Get(export("2", "", "en")); ok || st.Len() != 1 {
		t.Errorf("a record keep refused is still there (%d records)", st.Len())
	}
}

func TestParsePolicy(t *testing.T) {
	for _, tc := range []struct {
		revalidate, within string
		want               Policy
		err                string
	}{
		{"", "", Policy{Rolling, 7 * 24 * time.Hour}, ""},
		{"rolling", "14d", Policy{Rolling, 14 * 24 * time.Hour}, ""},
		{"Always", "", Policy{Always, DefaultWindow}, ""},
		{"never", "36h", Policy{Never, 36 * time.Hour}, ""},
		{"rolling", "1.5d", Policy{Rolling, 36 * time.Hour}, ""},
		{"rolling", "2d12h", Policy{Rolling, 60 * time.Hour}, ""},
		{"sometimes", "", Policy{}, `revalidate: "sometimes": want rolling, always or never`},
		{"", "soon", Policy{}, `revalidate_within: "soon" is not a duration`},
		{"", "-3d", Policy{}, "is not a duration"},
		{"", "10m", Policy{}, `revalidate_within: "10m": want at least 1h`},
		{"", "0d", Policy{}, "not a positive duration"},
	} {
		got, err := ParsePolicy(tc.revalidate, tc.within)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParsePolicy(%q, %q) error = %v, want %q", tc.revalidate, tc.within, err, tc.err)
			}
			if se, ok := setting.Of(err); !ok || (se.Name != setting.Revalidate && se.Name != setting.RevalidateWithin) {
				t.Errorf("ParsePolicy(%q, %q) error %v names no revalidation setting", tc.revalidate, tc.within, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParsePolicy(%q, %q) = %+v, %v; want %+v", tc.revalidate, tc.within, got, err, tc.want)
		}
	}
}

// night is a store holding n trees validated at t0 with signal "s", last
// run at t0.
func night(t *testing.T, n int) (*Store, []Tree) {
	t.Helper()
	st := openT(t, t.TempDir())
	var trees []Tree
	for i := range n {
		e := export(fmt.Sprint(i), "", "en")
		trees = append(trees, Tree{Export: e, Signal: "s"})
		st.Put(RecordOf(e, "s", "e", t0.Add(time.Duration(i)*time.Second)))
	}
	if err := st.Commit(t0, nil); err != nil {
		t.Fatal(err)
	}
	return st, trees
}

func reasons(items []Item) string {
	var b strings.Builder
	for _, it := range items {
		fmt.Fprintf(&b, "%s:%s ", it.Export.CurriculumID, it.Reason)
	}
	return strings.TrimSpace(b.String())
}

func TestDecideOrder(t *testing.T) {
	st, trees := night(t, 10)
	trees[3].Signal = "changed"
	trees[7].Signal = "changed"
	trees = append(trees, Tree{Export: export("new", "", "en"), Signal: "s"})
	lost := export("5", "", "en") // the cache lost its body
	cached := func(e model.Export, etag string) bool { return e != lost && etag == "e" }
	s := Decide(trees, st, cached, t0.Add(24*time.Hour), DefaultPolicy())
	// 7 unchanged, a seventh of the window elapsed: floor(7/7) = 1 due,
	// the oldest (0).
	if got, want := reasons(s.Fetch), "5:new new:new 3:changed 7:changed 0:due"; got != want {
		t.Errorf("Fetch = %s\nwant    %s", got, want)
	}
	if got, want := reasons(s.Skip), "1:unchanged 2:unchanged 4:unchanged 6:unchanged 8:unchanged 9:unchanged"; got != want {
		t.Errorf("Skip = %s\nwant   %s", got, want)
	}
	if s.Count(New) != 2 || s.Count(Changed) != 2 || s.Count(Due) != 1 || s.Count(Unchanged) != 6 {
		t.Errorf("counts %d %d %d %d", s.Count(New), s.Count(Changed), s.Count(Due), s.Count(Unchanged))
	}
}

func TestDecideModes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		policy  Policy
		elapsed time.Duration
		due     int
	}{
		{"rolling, a night of seven", DefaultPolicy(), 24 * time.Hour, 14},     // floor(100/7)
		{"rolling, two nights", DefaultPolicy(), 48 * time.Hour, 28},           // floor(200/7)
		{"rolling, past the window", DefaultPolicy(), 8 * 24 * time.Hour, 100}, // all overdue
		{"rolling, an hour", Policy{Rolling, 24 * time.Hour}, time.Hour, 4},    // floor(100/24)
		{"rolling, back to back", DefaultPolicy(), time.Second, 0},
		{"rolling, six nights", DefaultPolicy(), 6 * 24 * time.Hour, 100}, // the next would pass the window
		{"always", Policy{Mode: Always}, time.Minute, 100},
		{"never", Policy{Mode: Never}, 30 * 24 * time.Hour, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, trees := night(t, 100)
			s := Decide(trees, st, nil, t0.Add(tc.elapsed), tc.policy)
			if got := s.Count(Due); got != tc.due {
				t.Errorf("due = %d, want %d", got, tc.due)
			}
			if len(s.Fetch) != tc.due || len(s.Skip) != 100-tc.due {
				t.Errorf("fetch %d, skip %d", len(s.Fetch), len(s.Skip))
			}
		})
	}
}

func TestDecideWithoutState(t *testing.T) {
	trees := []Tree{{Export: export("1", "", "en")}, {Export: export("2", "", "en")}}
	s := Decide(trees, nil, nil, t0, DefaultPolicy())
	if reasons(s.Fetch) != "1:new 2:new" || len(s.Skip) != 0 {
		t.Errorf("Fetch %s, Skip %d; want everything new", reasons(s.Fetch), len(s.Skip))
	}
}

// TestRollingCoversTheWindow runs nightly decisions over a window: every
// tree is revalidated within it, and no night revalidates more than its
// share.
func TestRollingCoversTheWindow(t *testing.T) {
	const n = 1000
	st, trees := night(t, n)
	seen := map[model.Key]bool{}
	now := t0
	for range 7 {
		now = now.Add(24 * time.Hour)
		s := Decide(trees, st, nil, now, DefaultPolicy())
		if got := len(s.Fetch); got > n/7+7 {
			t.Errorf("night %s revalidates %d, more than a seventh", now.Format("Jan 2"), got)
		}
		for _, it := range s.Fetch {
			seen[it.Export.Key()] = true
			st.Put(RecordOf(it.Export, it.Signal, "e", now))
		}
		if err := st.Commit(now, nil); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) != n {
		t.Errorf("after 7 nights %d of %d trees were revalidated", len(seen), n)
	}
}

func TestSignal(t *testing.T) {
	upd := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	cp := fetch.CurriculumPlan{
		Curriculum:    api.Curriculum{ID: "101", Name: "Algebra 1"},
		PrimaryLocale: "en",
		Variants: []api.Variant{
			{ID: "102", Name: "Texas", ParentID: "101"},
			{ID: "103", Name: "Houston ISD", ParentID: "102"},
			{ID: "104", Name: "California", ParentID: "101"},
		},
		Locales: []api.Locale{{Code: "en", IsPrimary: true, TranslationProgress: 100, PublishedProgress: 100}, {Code: "es", TranslationProgress: 80, PublishedProgress: 70}},
		Updated: map[string]time.Time{"101": upd, "102": upd, "103": upd, "104": upd},
	}
	houston := model.Export{CurriculumID: "101", Variant: "Houston ISD", VariantID: "103", Locale: "es"}
	base := Signal(&cp, houston)
	if got := chain(&cp, "103"); strings.Join(got, ",") != "101,102,103" {
		t.Errorf("chain = %v", got)
	}
	if Signal(&cp, houston) != base {
		t.Error("the same signals give another sum")
	}
	for name, edit := range map[string]func(c *fetch.CurriculumPlan){
		"base edited":        func(c *fetch.CurriculumPlan) { c.Updated["101"] = upd.Add(time.Second) },
		"parent edited":      func(c *fetch.CurriculumPlan) { c.Updated["102"] = upd.Add(time.Second) },
		"variant edited":     func(c *fetch.CurriculumPlan) { c.Updated["103"] = upd.Add(time.Second) },
		"translated":         func(c *fetch.CurriculumPlan) { c.Locales[1].TranslationProgress++ },
		"published":          func(c *fetch.CurriculumPlan) { c.Locales[1].PublishedProgress++ },
		"updated_at dropped": func(c *fetch.CurriculumPlan) { delete(c.Updated, "103") },
	} {
		c := clonePlan(cp)
		edit(&c)
		if Signal(&c, houston) == base {
			t.Errorf("%s: the signal did not change", name)
		}
	}
	// What does not shape the tree does not move its signal.
	for name, edit := range map[string]func(c *fetch.CurriculumPlan){
		"a sibling variant edited": func(c *fetch.CurriculumPlan) { c.Updated["104"] = upd.Add(time.Hour) },
		"another locale":           func(c *fetch.CurriculumPlan) { c.Locales[0].TranslationProgress = 99 },
	} {
		c := clonePlan(cp)
		edit(&c)
		if Signal(&c, houston) != base {
			t.Errorf("%s: the signal changed", name)
		}
	}
}

func TestChainStopsOnACycle(t *testing.T) {
	cp := fetch.CurriculumPlan{Curriculum: api.Curriculum{ID: "1"}, Variants: []api.Variant{{ID: "a", ParentID: "b"}, {ID: "b", ParentID: "a"}}}
	if got := chain(&cp, "a"); len(got) > 4 || got[0] != "1" {
		t.Errorf("chain = %v", got)
	}
}

// TestDecideAfterAKilledFirstRun: records but no completed run (the first
// run was killed): nothing is due but what is overdue, so the next run
// repeats no request of the killed one.
func TestDecideAfterAKilledFirstRun(t *testing.T) {
	st := openT(t, t.TempDir())
	var trees []Tree
	for i := range 10 {
		e := export(fmt.Sprint(i), "", "en")
		trees = append(trees, Tree{Export: e, Signal: "s"})
		at := t0
		if i == 9 {
			at = t0.Add(-8 * 24 * time.Hour) // overdue
		}
		st.Put(RecordOf(e, "s", "e", at))
	}
	s := Decide(trees, st, nil, t0.Add(time.Hour), DefaultPolicy())
	if got := reasons(s.Fetch); got != "9:due" {
		t.Errorf("Fetch = %s, want only the overdue tree", got)
	}
}

// FuzzParseDays: --deadline and --revalidate-within come from the command
// line and curex.yaml; any text gives a positive duration or an error.
func FuzzParseDays(f *testing.F) {
	for _, s := range []string{"7d", "1.5d", "2d12h", "36h", "90m", "d", "-1d", "1e308d", "0.0000001d", "NaNd", "Infd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDays(s)
		if err == nil && d <= 0 {
			t.Fatalf("ParseDays(%q) = %v, want a positive duration or an error", s, d)
		}
	})
}

// clonePlan copies what TestSignal's edits change.
func clonePlan(cp fetch.CurriculumPlan) fetch.CurriculumPlan {
	c := cp
	c.Updated = maps.Clone(cp.Updated)
	c.Locales = slices.Clone(cp.Locales)
	return c
}
