package chrome_test

import (
	"context"
	"errors"
	"log"
	"os"
	"time"

	"github.com/curex/curex/exporter/chrome"
)

// Print a handbook to PDF with bookmarks, then take a dark-mode screenshot of
// a phone-sized page. One browser serves every document; each call has its
// own deadline.
func Example() {
	ctx := context.Background()
	b, err := chrome.Launch(ctx, chrome.Options{}) // no deadline: the browser lives until Close
	if errors.Is(err, chrome.ErrNoBrowser) {
		log.Fatal(err) // the message says: apt-get install chromium, or set CUREX_CHROMIUM
	}
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()

	doc, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	pdf, err := b.PDF(doc, "/srv/site/algebra-1/texas/es/handbook.html", chrome.PDFOptions{Paper: chrome.PaperA4, Outline: true})
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("handbook.pdf", pdf, 0o644); err != nil {
		log.Fatal(err)
	}

	png, err := b.Screenshot(doc, "file:///srv/site/index.html", chrome.ScreenshotOptions{
		Width: 390, Height: 844, Scale: 2, Mobile: true, Dark: true,
	})
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("catalog-phone-dark.png", png, 0o644); err != nil {
		log.Fatal(err)
	}
}
