package exporter_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/setting"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
)

// TestIdentityInRenderKey: the publisher's identity shapes every page, so
// a run with the same identity carries the pages over, and a change to a
// setting or to the content of its logo renders them again.
func TestIdentityInRenderKey(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: four whole exports of the sample (make test runs it)")
	}
	t.Parallel()
	_, url := sampleServer(t, sandbox.Options{})
	logo := filepath.Join(t.TempDir(), "logo.svg")
	if err := os.WriteFile(logo, []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := exporter.Config{BaseURL: url, Token: token, Output: filepath.Join(t.TempDir(), "out"), CacheDir: t.TempDir(),
		Limits: ratelimit.Limits{}, Generator: "curex test", Formats: []string{"html"}, Revalidate: fresh.Policy{Mode: fresh.Always},
		Site: render.Identity{Title: "Riverbend", Logo: logo}}
	run := func(step string) *exporter.Summary {
		t.Helper()
		sum, err := exporter.Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		return sum
	}
	first := run("first")
	if same := run("same identity"); same.Written != 0 || same.Reused != first.Written {
		t.Errorf("same identity: %d rendered, %d reused; want 0 and %d", same.Written, same.Reused, first.Written)
	}
	cfg.Site.Title = "Riverbend Schools"
	if retitled := run("new title"); retitled.Written != first.Written {
		t.Errorf("new title: %d of %d exports rendered", retitled.Written, first.Written)
	}
	if err := os.WriteFile(logo, []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>`), 0o644); err != nil {
		t.Fatal(err)
	}
	if relogo := run("new logo"); relogo.Written != first.Written {
		t.Errorf("new logo: %d of %d exports rendered", relogo.Written, first.Written)
	}
}

// TestIdentityChecked: a run refuses an identity Check refuses, as a
// configuration error naming the setting, before any request.
func TestIdentityChecked(t *testing.T) {
	t.Parallel()
	_, err := exporter.Run(context.Background(), exporter.Config{BaseURL: "http://127.0.0.1:1", Token: token, AllowHTTP: true,
		Output: t.TempDir(), Site: render.Identity{Scripts: []string{"javascript:alert(1)"}}})
	var ce *exporter.ConfigError
	se, ok := setting.Of(err)
	if !errors.As(err, &ce) || !ok || se.Name != setting.SiteScripts {
		t.Fatalf("Run = %v, want a ConfigError naming %s", err, setting.SiteScripts)
	}
}
