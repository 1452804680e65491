package epub

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/curex/curex/exporter/internal/render/mathstyle"
	"github.com/curex/curex/exporter/internal/render/zipfile"
)

// containerXML points reading systems at the package document.
const containerXML = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles>
<rootfile full-path="` + PackagePath + `" media-type="application/oebps-package+xml"/>
</rootfiles>
</container>
`

// identifierNamespace is the namespace of the books' name-based UUIDs:
// RFC 9562's namespace for URLs, the names being urn:curex:epub: URNs.
var identifierNamespace = [16]byte{0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}

// Identifier returns the dc:identifier of the book of a curriculum's
// variant in a locale: "urn:uuid:" and a version 5 UUID of the name
// "urn:curex:epub:" followed by the three ids, each length-prefixed, so
// that the same book always has the same identifier and no two books
// share one.
func Identifier(curriculumID, variantID, locale string) string {
	var name strings.Builder
	name.WriteString("urn:curex:epub:")
	for _, s := range []string{curriculumID, variantID, locale} {
		name.WriteString(strconv.Itoa(len(s)) + ":" + s)
	}
	h := sha1.New()
	h.Write(identifierNamespace[:])
	h.Write([]byte(name.String()))
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50 // version 5
	u[8] = u[8]&0x3f | 0x80 // RFC 9562 variant
	x := hex.EncodeToString(u[:])
	return "urn:uuid:" + x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}

// packageDocument returns package.opf: the metadata, the manifest of
// every file and the spine in reading order.
func (b *book) packageDocument() []byte {
	var d strings.Builder
	d.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	d.WriteString(`<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" xml:lang="` + b.lang + `"`)
	if b.rtl {
		d.WriteString(` dir="rtl"`)
	}
	d.WriteString(">\n" + `<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">` + "\n")
	variant := b.t.VariantID
	if variant == "" {
		variant = b.t.Variant
	}
	d.WriteString(`<dc:identifier id="uid">` + esc(Identifier(b.t.CurriculumID, variant, b.t.Locale)) + "</dc:identifier>\n")
	d.WriteString("<dc:title>" + esc(b.title) + "</dc:title>\n")
	d.WriteString("<dc:language>" + b.lang + "</dc:language>\n")
	modified := b.modified.Format("2006-01-02T15:04:05Z")
	d.WriteString("<dc:date>" + modified + "</dc:date>\n")
	d.WriteString(`<meta property="dcterms:modified">` + modified + "</meta>\n")
	for _, m := range b.accessibility() {
		d.WriteString(`<meta property="` + m[0] + `"`)
		if m[0] == "schema:accessibilitySummary" {
			d.WriteString(` xml:lang="en"`)
		}
		d.WriteString(">" + esc(m[1]) + "</meta>\n")
	}
	d.WriteString("</metadata>\n<manifest>\n")
	item := func(id, href, mediaType, props string) {
		d.WriteString(`<item id="` + id + `" href="` + href + `" media-type="` + mediaType + `"`)
		if props != "" {
			d.WriteString(` properties="` + props + `"`)
		}
		d.WriteString("/>\n")
	}
	item("nav", navName, "application/xhtml+xml", "nav")
	item("title", titleName, "application/xhtml+xml", "")
	item("css", styleName, "text/css", "")
	if b.math {
		item("mathfont", fontName, mathstyle.FontType, "")
	}
	for _, p := range b.units {
		props := ""
		if p.math {
			props = "mathml"
		}
		item(p.id, p.name, "application/xhtml+xml", props)
	}
	for _, img := range b.images {
		item(img.id, img.name, img.mediaType, "")
	}
	d.WriteString("</manifest>\n<spine")
	if b.rtl {
		d.WriteString(` page-progression-direction="rtl"`)
	}
	d.WriteString(">\n" + `<itemref idref="title"/>` + "\n" + `<itemref idref="nav"/>` + "\n")
	for _, p := range b.units {
		d.WriteString(`<itemref idref="` + p.id + `"/>` + "\n")
	}
	d.WriteString("</spine>\n</package>\n")
	return []byte(d.String())
}

// accessibility is the schema.org accessibility metadata, as property
// and value, true to what the book holds.
func (b *book) accessibility() [][2]string {
	images := b.imgCount > 0
	allAlt := b.altCount == b.imgCount
	m := [][2]string{{"schema:accessMode", "textual"}}
	if images {
		m = append(m, [2]string{"schema:accessMode", "visual"})
	}
	if allAlt {
		m = append(m, [2]string{"schema:accessModeSufficient", "textual"})
	}
	if images {
		m = append(m, [2]string{"schema:accessModeSufficient", "textual,visual"})
	}
	for _, f := range []string{"structuralNavigation", "tableOfContents", "readingOrder", "displayTransformability"} {
		m = append(m, [2]string{"schema:accessibilityFeature", f})
	}
	if b.math {
		m = append(m, [2]string{"schema:accessibilityFeature", "MathML"})
	}
	if images && allAlt {
		m = append(m, [2]string{"schema:accessibilityFeature", "alternativeText"})
	}
	m = append(m, [2]string{"schema:accessibilityHazard", "none"})
	m = append(m, [2]string{"schema:accessibilitySummary", b.summary()})
	if b.conforms() {
		m = append(m, [2]string{"dcterms:conformsTo", ConformsTo})
	}
	return m
}

// ConformsTo is the dcterms:conformsTo of a book that conforms to EPUB
// Accessibility 1.1 at WCAG 2.1 level AA.
const ConformsTo = "EPUB Accessibility 1.1 - WCAG 2.1 Level AA"

// conforms reports whether the book may claim ConformsTo. The writer's
// own markup meets it (DAISY Ace finds no violation in the sample books:
// tools_test.go's TestAce); what comes from the API can break it by what
// no markup can make up for: an image without a text alternative, a link
// with no text.
func (b *book) conforms() bool { return b.altCount == b.imgCount && b.blankLinks == 0 }

// summary is the accessibility summary, in English (its xml:lang says so).
func (b *book) summary() string {
	s := []string{"Reflowable text in reading order, with a table of contents and headings that follow the curriculum's structure."}
	if b.math {
		s = append(s, "Mathematics is written in MathML.")
	}
	switch {
	case b.imgCount == 0:
		s = append(s, "The book has no images.")
	case b.altCount == b.imgCount:
		s = append(s, "Every image has a text alternative.")
	default:
		s = append(s, "Some images have no text alternative, so the book does not claim to meet WCAG 2.1 AA.")
	}
	if b.blankLinks > 0 {
		s = append(s, "Some links have no text, so the book does not claim to meet WCAG 2.1 AA.")
	}
	if b.conforms() {
		s = append(s, "The book meets EPUB Accessibility 1.1 at WCAG 2.1 level AA.")
	}
	return strings.Join(s, " ")
}

// zip returns the container: mimetype first and stored, then the
// container file, the package document, the navigation, the title page,
// the style sheet, the parts in reading order and the images in order of
// first use.
func (b *book) zip() ([]byte, error) {
	z := zipfile.New(b.modified, "")
	if err := z.Stored("mimetype", []byte(MediaType)); err != nil {
		return nil, err
	}
	files := []struct {
		name string
		data []byte
	}{
		{"META-INF/container.xml", []byte(containerXML)},
		{PackagePath, b.packageDocument()},
		{root + navName, b.nav()},
		{root + titleName, b.titlePage()},
		{root + styleName, bookCSS(b.math)},
	}
	if b.math {
		files = append(files, struct {
			name string
			data []byte
		}{root + fontName, mathstyle.Font()})
	}
	for _, p := range b.units {
		files = append(files, struct {
			name string
			data []byte
		}{root + p.name, p.body})
	}
	for _, img := range b.images {
		files = append(files, struct {
			name string
			data []byte
		}{root + img.name, img.data})
	}
	for _, f := range files {
		if err := z.Add(f.name, f.data); err != nil {
			return nil, err
		}
	}
	return z.Close()
}
