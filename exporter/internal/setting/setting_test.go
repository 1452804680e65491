package setting_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/curex/curex/exporter/internal/setting"
)

func TestErrorNamesTheSetting(t *testing.T) {
	reason := errors.New("want a4 or letter")
	err := fmt.Errorf("export: %w", &setting.Error{Name: setting.Paper, Err: reason})
	se, ok := setting.Of(err)
	if !ok || se.Name != setting.Paper {
		t.Fatalf("Of(%v) = %v, %v", err, se, ok)
	}
	if !errors.Is(err, reason) {
		t.Error("the reason does not unwrap")
	}
	if got, want := err.Error(), "export: paper: want a4 or letter"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, ok := setting.Of(errors.New("other")); ok {
		t.Error("Of found a setting in an error naming none")
	}
}
