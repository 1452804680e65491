package progress_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/internal/progress"
)

// TestRecords: each line Records writes through a JSON logger is one
// record: the plan, the first tree's progress, each failure (terminal
// controls removed) and the last tree's progress; nothing else with Every
// far off.
func TestRecords(t *testing.T) {
	e := func(l string) model.Export {
		return model.Export{CurriculumSlug: "algebra-1", VariantSlug: "base", LocaleSlug: l}
	}
	var buf bytes.Buffer
	p := &progress.Records{Log: slog.New(slog.NewJSONHandler(&buf, nil)), Every: time.Hour}
	p.Planned(3, 7, pacer.NewLimiter(pacer.LimiterOptions{}))
	for _, r := range []fetch.Result{{Export: e("en")}, {Export: e("es"), Err: errors.New("bad\x1b[2Janswer")}, {Export: e("fr")}} {
		p.TreeDone(r, fetch.StatsSnapshot{Requests: 5})
	}
	var msgs []string
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("not a JSON record: %q: %v", sc.Text(), err)
		}
		msg := rec["msg"].(string)
		msgs = append(msgs, msg)
		switch msg {
		case "plan":
			if rec["trees"] != 3.0 || rec["requests"] != 7.0 {
				t.Errorf("plan record %v", rec)
			}
		case "tree failed":
			if rec["level"] != "WARN" || rec["export"] != "algebra-1/base/es" || rec["error"] != "badanswer" {
				t.Errorf("failure record %v", rec)
			}
		case "progress":
			if rec["trees"] != 3.0 || rec["requests"] != 5.0 {
				t.Errorf("progress record %v", rec)
			}
		}
	}
	if want := []string{"plan", "progress", "tree failed", "progress"}; !slices.Equal(msgs, want) {
		t.Errorf("records %q, want %q", msgs, want)
	}
}
