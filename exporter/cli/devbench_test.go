package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkDevSaveToReload (issue 26, part 2) is what a publisher waits
// for in curex dev: the wall time from a template of the theme saved to
// the "reload" event an open page hears, dev's debounce and the rebuild of
// the whole sample's website (28 exports, from the cache) included; the
// browser's reload of the page comes on top. Each save changes the
// template, so every page renders again. Wall time moves with the
// machine's load: quote an idle machine's figure.
func BenchmarkDevSaveToReload(b *testing.B) {
	f := newDevFixtureOf(b, []string{"--formats", "html", "--progress", "none"})
	d := startDev(b, f.args(f.out, "--config", "")...)
	ev := d.events()
	styles := filepath.Join(f.theme, "styles.html")
	orig := read(b, styles)
	i := 0
	for b.Loop() {
		i++
		write(b, styles, strings.Replace(orig, `{{define "styles"}}`, fmt.Sprintf(`{{define "styles"}}<meta name="x-curex-bench" content="%d">`, i), 1))
		ev.want("reload")
	}
	if page := d.get("/algebra-1/base/en/index.html"); !strings.Contains(page, fmt.Sprintf(`content="%d"`, i)) {
		b.Errorf("the page served lacks the last save's bytes")
	}
}
