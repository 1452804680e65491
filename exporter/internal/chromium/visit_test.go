package chromium_test

import (
	"context"
	"errors"
	"image/color"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/curex/curex/exporter/internal/chromium"
)

const clickPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Visit</title>
<style>body{margin:0;background:#fff} body.done{background:#000}</style></head>
<body><button id="b" onclick="document.body.className='done'">Go</button></body></html>`

// TestVisit: steps run in the loaded page, in the viewport asked for, and
// Capture pictures what they did; fn's error is Visit's.
func TestVisit(t *testing.T) {
	b := browser(t)
	u := fileURL(page(t, clickPage))
	var png []byte
	err := b.Visit(ctxFor(t), u, chromium.ScreenshotOptions{Width: 300, Height: 200}, func(tab context.Context) error {
		if _, err := chromedp.Run(tab, chromedp.Click("#b")); err != nil {
			return err
		}
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.body.className === "done"`)); err != nil {
			return err
		}
		var err error
		png, err = chromium.Capture(tab, false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	img := decode(t, png)
	if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != 300 || h != 200 {
		t.Errorf("image is %d×%d, want 300×200", w, h)
	}
	if got := color.RGBAModel.Convert(img.At(290, 190)).(color.RGBA); got != (color.RGBA{0, 0, 0, 255}) {
		t.Errorf("background after the click = %v, want black", got)
	}
	stop := errors.New("stop")
	if err := b.Visit(ctxFor(t), u, chromium.ScreenshotOptions{}, func(context.Context) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("Visit = %v, want fn's error", err)
	}
}
