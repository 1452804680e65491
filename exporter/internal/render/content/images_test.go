package content_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/content"
)

func TestImages(t *testing.T) {
	images := func(url string) (content.Image, bool) {
		switch url {
		case "https://img.example/ok.png":
			return content.Image{Path: "assets/content/ab12.png", Width: 640, Height: 480}, true
		case "https://img.example/broken.png":
			return content.Image{Failed: true}, true
		}
		return content.Image{}, false
	}
	r := content.New()
	for _, tc := range []struct {
		name, page, src, want string
	}{
		{"local, node page", "c/v/l/unit-1/index.html", `![A map of "rivers" & lakes](https://img.example/ok.png "Map")`,
			`<p><img src="../../../../assets/content/ab12.png" width="640" height="480" alt="A map of “rivers” &amp; lakes" title="Map" loading="lazy"></p>`},
		{"local, handbook", "c/v/l/handbook.html", `![Map](https://img.example/ok.png)`,
			`<p><img src="../../../assets/content/ab12.png" width="640" height="480" alt="Map" loading="lazy"></p>`},
		{"failed keeps alt and a link", "c/v/l/x/index.html", `![The water cycle](https://img.example/broken.png)`,
			`<p><a href="https://img.example/broken.png" rel="noopener noreferrer nofollow" class="image-failed">The water cycle</a></p>`},
		{"failed without alt shows the URL", "c/v/l/x/index.html", `![](https://img.example/broken.png)`,
			`<p><a href="https://img.example/broken.png" rel="noopener noreferrer nofollow" class="image-failed">https://img.example/broken.png</a></p>`},
		{"unknown stays remote", "c/v/l/x/index.html", `![x](https://other.example/i.png)`,
			`<p><img src="https://other.example/i.png" alt="x" loading="lazy"></p>`},
		{"relative dropped", "c/v/l/x/index.html", `![x](pics/i.png)`, `<p>x</p>`},
		{"parent path dropped", "c/v/l/handbook.html", `![x](../../../../private.png)`, `<p>x</p>`},
		{"absolute path dropped", "c/v/l/handbook.html", `![x](/abs/path/private.png)`, `<p>x</p>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.WithImages(images, tc.page).Markdown(tc.src, "p-")
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(string(got)) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	// The Converter WithImages came from is unchanged.
	got, _ := r.Markdown(`![Map](https://img.example/ok.png)`, "")
	if !strings.Contains(string(got), `src="https://img.example/ok.png"`) {
		t.Errorf("the original renderer changed: %s", got)
	}
}

func TestImageURLs(t *testing.T) {
	a := map[string]json.RawMessage{
		"description": json.RawMessage(`"![a](https://x.example/1.png) and ![b][ref] ![c](rel.png) ![d](javascript:x)\n\n[ref]: https://x.example/2.png"`),
		"materials":   json.RawMessage(`["![e](https://x.example/3.png)", "![a again](https://x.example/1.png)"]`),
		"vocabulary":  json.RawMessage(`[{"term": "Delta", "definition": "![f](https://x.example/4.png)"}]`),
		"resources":   json.RawMessage(`[{"title": "Map", "note": "![g](HTTPS://x.example/5.png)"}]`),
		"title":       json.RawMessage(`"ignored"`),
	}
	got := content.New().ImageURLs(a, "ignored")
	want := []string{"https://x.example/1.png", "https://x.example/2.png", "https://x.example/3.png", "https://x.example/4.png", "HTTPS://x.example/5.png"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// An image spelled with a JSON escape, alone in its node.
	escaped := map[string]json.RawMessage{"description": json.RawMessage(`"![h]\u0028https://x.example/6.png)"`)}
	if got := content.New().ImageURLs(escaped, ""); !slices.Equal(got, []string{"https://x.example/6.png"}) {
		t.Errorf("ImageURLs of an escaped image = %q", got)
	}
	// Members with no image's brackets: no parse, no URL.
	none := map[string]json.RawMessage{"description": json.RawMessage(`"Text [a link] and (parentheses), $x$"`), "minutes": json.RawMessage(`20`)}
	if got := content.New().ImageURLs(none, ""); got != nil {
		t.Errorf("ImageURLs of members without images = %q", got)
	}
}
