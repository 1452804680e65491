package chromium

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// Paper sizes for [PDFOptions.Paper].
const (
	PaperA4     = "a4"
	PaperLetter = "letter"
)

// DefaultFooter is the footer of a PDF when [PDFOptions.FooterTemplate] is
// empty: the page number and the page count ("3 / 12"), centered, in a
// small grey font.
const DefaultFooter = `<div style="width:100%;font:8px sans-serif;color:#555;text-align:center;"><span class="pageNumber"></span> / <span class="totalPages"></span></div>`

// PDFOptions configures [Browser.PDF]. The zero value prints on A4 with the
// default footer.
type PDFOptions struct {
	// Paper is PaperA4 (the default, also for "") or PaperLetter. It is a
	// fallback: a document's own @page size and margins win.
	Paper string
	// HeaderTemplate and FooterTemplate are Chromium's header and footer
	// templates: HTML in which elements of the classes pageNumber,
	// totalPages, title, url and date receive those values. They must set
	// their own font size and print in the page margin. An empty header
	// prints nothing; an empty footer prints DefaultFooter.
	HeaderTemplate, FooterTemplate string
	// NoHeaderFooter prints neither header nor footer, for a document that
	// numbers its pages itself (CSS @page margin boxes).
	NoHeaderFooter bool
	// Outline adds PDF bookmarks from the document's headings, and makes a
	// tagged PDF.
	Outline bool
	// Date, when not zero, replaces the creation and modification dates
	// Chromium writes (its clock), so the same document prints to the same
	// bytes: pass the date of the content.
	Date time.Time
	// Access is what the document may load while it prints (see Access):
	// with no Dirs, the folder of the HTML file and nothing else.
	Access Access
}

// PDF loads the HTML file at htmlPath, waits for its load event and its web
// fonts, and prints it with its backgrounds. It returns the PDF's bytes.
// While it loads, the document reads what o.Access allows and nothing
// else: by default the files of its own folder, and no network.
func (b *Browser) PDF(ctx context.Context, htmlPath string, o PDFOptions) ([]byte, error) {
	opts, err := o.printOptions()
	if err != nil {
		return nil, fmt.Errorf("pdf %s: %w", htmlPath, err)
	}
	if _, err := os.Stat(htmlPath); err != nil {
		return nil, fmt.Errorf("pdf: %w", err)
	}
	u, err := fileURL(htmlPath)
	if err != nil {
		return nil, fmt.Errorf("pdf %s: %w", htmlPath, err)
	}
	access := o.Access
	if len(access.Dirs) == 0 {
		access.Dirs = []string{filepath.Dir(htmlPath)}
	}
	var pdf []byte
	err = b.inTab(ctx, "pdf", htmlPath, access, func(tab context.Context) error {
		if err := load(tab, u); err != nil {
			return err
		}
		pdf, err = chromedp.Run(tab, chromedp.PrintToPDF(opts...))
		return err
	})
	if err == nil {
		renumberIDs(pdf)
		if !o.Date.IsZero() {
			setDates(pdf, o.Date)
		}
	}
	return pdf, err
}

// structID matches the ids Chromium gives the structure elements of a
// tagged PDF: the DOM node ids of the page, "(node00000202)".
var structID = regexp.MustCompile(`\(node(\d+)\)`)

// renumberIDs rewrites, in place, the structure element ids of a tagged
// PDF to 1, 2, 3, ... in the order of their values. Chromium takes them
// from DOM node ids, which depend on timing (the same page gets other
// numbers under load), so without this the same document would print to
// other bytes. Ranks keep the order, so the ID tree stays sorted, and keep
// the width (Chromium pads them to eight digits), so byte offsets stay
// right; ids of mixed widths are left alone.
func renumberIDs(pdf []byte) {
	locs := structID.FindAllSubmatchIndex(pdf, -1)
	if len(locs) == 0 {
		return
	}
	seen := map[string]bool{}
	var values []string
	for _, l := range locs {
		v := string(pdf[l[2]:l[3]])
		if len(v) != l[3]-l[2] || len(v) != locs[0][3]-locs[0][2] {
			return // ids of several widths: not Chromium's form, leave them
		}
		if !seen[v] {
			seen[v] = true
			values = append(values, v)
		}
	}
	slices.Sort(values) // one width: the order of the values
	rank := make(map[string]string, len(values))
	for i, v := range values {
		n := strconv.Itoa(i + 1)
		if len(n) > len(v) {
			return // cannot keep the width: leave the file as it is
		}
		rank[v] = strings.Repeat("0", len(v)-len(n)) + n
	}
	for _, l := range locs {
		copy(pdf[l[2]:l[3]], rank[string(pdf[l[2]:l[3]])])
	}
}

// pdfDate matches the dates of a PDF's information dictionary as Chromium
// writes them: D:YYYYMMDDHHmmSS+00'00'.
var pdfDate = regexp.MustCompile(`/(?:CreationDate|ModDate) \(D:\d{14}[+-]\d\d'\d\d'\)`)

// setDates overwrites, in place, the information dictionary's dates with
// d in UTC. The replacement has the same length, so the byte offsets of the
// cross-reference table stay right; a date of another form is left alone.
func setDates(pdf []byte, d time.Time) {
	stamp := "D:" + d.UTC().Format("20060102150405") + "+00'00'"
	for _, loc := range pdfDate.FindAllIndex(pdf, 4) {
		m := pdf[loc[0]:loc[1]]
		open := bytes.IndexByte(m, '(')
		if len(m)-open-2 == len(stamp) {
			copy(m[open+1:], stamp)
		}
	}
}

// printOptions maps o to chromedp's options.
func (o PDFOptions) printOptions() ([]chromedp.PDFOption, error) {
	var paper chromedp.PaperSize
	switch strings.ToLower(o.Paper) {
	case "", PaperA4:
		paper = chromedp.PaperA4
	case PaperLetter:
		paper = chromedp.PaperLetter
	default:
		return nil, fmt.Errorf("unknown paper %q (want %s or %s)", o.Paper, PaperA4, PaperLetter)
	}
	opts := []chromedp.PDFOption{
		chromedp.PDFPaper(paper),
		chromedp.PDFPrintBackground(),
		chromedp.PDFPreferCSSPageSize(),
	}
	if !o.NoHeaderFooter {
		header, footer := o.HeaderTemplate, o.FooterTemplate
		if header == "" {
			header = "<span></span>" // else Chromium prints the date and title
		}
		if footer == "" {
			footer = DefaultFooter
		}
		opts = append(opts, chromedp.PDFHeaderTemplate(header), chromedp.PDFFooterTemplate(footer))
	}
	if o.Outline {
		opts = append(opts, chromedp.PDFOutlineAndTagged())
	}
	return opts, nil
}

// load navigates the tab to u, which waits for the load event, then waits
// until the document's fonts are ready.
func load(tab context.Context, u string) error {
	if err := chromedp.Do(tab, chromedp.Navigate(u)); err != nil {
		return err
	}
	_, err := chromedp.Run(tab, chromedp.Evaluate[bool](`document.fonts.ready.then(() => true)`, chromedp.EvalAwaitPromise))
	if err != nil {
		return fmt.Errorf("waiting for fonts: %w", err)
	}
	return nil
}
