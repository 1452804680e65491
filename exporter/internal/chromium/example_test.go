package chromium_test

import (
	"context"
	"errors"
	"log"
	"os"
	"time"

	"github.com/curex/curex/exporter/internal/chromium"
)

// Print a handbook to PDF with bookmarks, then take a dark-mode screenshot of
// a phone-sized page. One browser serves every document; each call has its
// own deadline.
func Example() {
	ctx := context.Background()
	b, err := chromium.Launch(ctx, chromium.Options{}) // no deadline: the browser lives until Close
	if errors.Is(err, chromium.ErrNoBrowser) {
		log.Fatal(err) // the message says: apt-get install chromium, or set CUREX_CHROMIUM
	}
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()

	doc, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	pdf, err := b.PDF(doc, "/srv/site/algebra-1/texas/es/handbook.html", chromium.PDFOptions{Paper: chromium.PaperA4, Outline: true})
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("handbook.pdf", pdf, 0o644); err != nil {
		log.Fatal(err)
	}

	png, err := b.Screenshot(doc, "file:///srv/site/index.html", chromium.ScreenshotOptions{
		Width: 390, Height: 844, Scale: 2, Mobile: true, Dark: true,
	})
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("catalog-phone-dark.png", png, 0o644); err != nil {
		log.Fatal(err)
	}
}
