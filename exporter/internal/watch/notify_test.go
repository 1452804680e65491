package watch

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNotifierSeesRealChanges writes real files: a template, a file in a
// folder created after the watch began, and the configuration file
// replaced by a rename as editors save. It waits on the events, not on
// time.
func TestNotifierSeesRealChanges(t *testing.T) {
	theme, cfgDir := t.TempDir(), t.TempDir()
	cfg := filepath.Join(cfgDir, "curex.yaml")
	if err := os.WriteFile(cfg, []byte("formats: html\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n, err := Notify(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	tg := Targets{ThemeDir: theme, ConfigFile: cfg}
	if err := n.Watch(tg); err != nil {
		t.Fatal(err)
	}
	// waitFor reads events until one for p arrives.
	waitFor := func(p string) {
		t.Helper()
		for {
			select {
			case got := <-n.Events():
				if got == p {
					return
				}
			case err := <-n.Errors():
				t.Fatal(err)
			}
		}
	}
	node := filepath.Join(theme, "node.html")
	if err := os.WriteFile(node, []byte(`{{define "x"}}{{end}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(node)
	assets := filepath.Join(theme, "assets")
	if err := os.Mkdir(assets, 0o755); err != nil {
		t.Fatal(err)
	}
	waitFor(assets) // the folder is watched once its creation is seen
	css := filepath.Join(assets, "custom.css")
	if err := os.WriteFile(css, []byte("body{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(css)
	tmp := filepath.Join(cfgDir, ".curex.yaml.tmp")
	if err := os.WriteFile(tmp, []byte("formats: json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, cfg); err != nil {
		t.Fatal(err)
	}
	waitFor(cfg)
	if k, ok := tg.Classify(cfg); !ok || k != Config {
		t.Errorf("the configuration's event classifies as %v, %v", k, ok)
	}
}
