package cli

import (
	"path/filepath"
	"testing"
)

// TestThemeWordUnknownKeyRefused: a theme's i18n/<locale>.json with a
// word curex does not have is a usage error before the run, naming the
// setting, the file and the key; nothing is written.
func TestThemeWordUnknownKeyRefused(t *testing.T) {
	url := sandboxURL(t)
	dir := repo(t, map[string]string{"theme/i18n/es.json": `{"siguiente": "Adelante"}`})
	out := filepath.Join(dir, "site")
	code, stdout, stderr := exportIn(t, url, out, "--theme", "theme")
	refused(t, out, code, stdout, stderr, `--theme: i18n/es\.json: "siguiente": no such word`)
}
