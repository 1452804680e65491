package localfile

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"
)

// svgNS is the SVG namespace.
const svgNS = "http://www.w3.org/2000/svg"

// svgElements are the SVG elements of the safe subset: shapes, text,
// paint servers, clipping, masking and filters. Left out: script,
// foreignObject, a, image, iframe, animation (animate, set, ...), which
// run code, embed other documents or load other files.
var svgElements = map[string]bool{
	"svg": true, "g": true, "defs": true, "symbol": true, "use": true, "title": true, "desc": true, "metadata": true,
	"path": true, "rect": true, "circle": true, "ellipse": true, "line": true, "polyline": true, "polygon": true,
	"text": true, "tspan": true, "textPath": true, "marker": true, "style": true, "switch": true,
	"linearGradient": true, "radialGradient": true, "stop": true, "pattern": true, "clipPath": true, "mask": true,
	"filter": true, "feBlend": true, "feColorMatrix": true, "feComponentTransfer": true, "feComposite": true,
	"feDropShadow": true, "feFlood": true, "feFuncA": true, "feFuncB": true, "feFuncG": true, "feFuncR": true,
	"feGaussianBlur": true, "feMerge": true, "feMergeNode": true, "feMorphology": true, "feOffset": true,
}

// editorNS are the namespaces of editors' own elements and attributes
// (Inkscape, Sodipodi) and of metadata (RDF, Dublin Core, Creative
// Commons): inert in a browser.
var editorNS = map[string]bool{
	"http://www.inkscape.org/namespaces/inkscape":        true,
	"http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd": true,
	"http://www.w3.org/1999/02/22-rdf-syntax-ns#":        true,
	"http://purl.org/dc/elements/1.1/":                   true,
	"http://creativecommons.org/ns#":                     true,
	"http://web.resource.org/cc/":                        true,
	"http://www.w3.org/XML/1998/namespace":               true,
	"http://www.w3.org/2000/xmlns/":                      true,
	"http://ns.adobe.com/AdobeIllustrator/10.0/":         true,
	"http://ns.adobe.com/AdobeSVGViewerExtensions/3.0/":  true,
	"http://www.bohemiancoding.com/sketch/ns":            true,
	"http://ns.adobe.com/Extensibility/1.0/":             true,
	"http://ns.adobe.com/Graphs/1.0/":                    true,
	"http://ns.adobe.com/SaveForWeb/1.0/":                true,
	"http://ns.adobe.com/Variables/1.0/":                 true,
	"http://ns.adobe.com/ImageReplacement/1.0/":          true,
	"http://ns.adobe.com/GenericCustomNamespace/1.0/":    true,
	"http://ns.adobe.com/XPath/1.0/":                     true,
	"http://www.w3.org/1999/xlink":                       true,
}

// cssURL finds url(...) in a style, with what it points to.
var cssURL = regexp.MustCompile(`(?i)url\(\s*['"]?\s*([^'")\s]*)`)

// maxSVGDepth bounds the nesting of an SVG's elements.
const maxSVGDepth = 256

// CheckSVG accepts an SVG document only if it keeps to a safe subset, so
// it can be published as it is: UTF-8, an <svg> root in the SVG
// namespace, the elements of svgElements (and inert editors' elements),
// no event handler attribute (on...), no reference outside the document
// (href and url() only to a fragment, "#id"), no @import, no DOCTYPE or
// entity, no processing instruction but the XML declaration. Anything
// else is refused, with what was found, wrapping ErrContent; curex does
// not rewrite the file.
func CheckSVG(data []byte) error {
	if err := checkSVG(data); err != nil {
		return fmt.Errorf("%w: an SVG curex publishes keeps to a safe subset: %v", ErrContent, err)
	}
	return nil
}

func checkSVG(data []byte) error {
	if !utf8.Valid(data) {
		return errors.New("not UTF-8")
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var stack []xml.Name
	var style strings.Builder
	rooted := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("not well-formed XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.ProcInst:
			if t.Target != "xml" {
				return fmt.Errorf("processing instruction <?%s?>", t.Target)
			}
		case xml.Directive:
			return errors.New("a DOCTYPE or other declaration (<!...>): entities are refused")
		case xml.StartElement:
			if len(stack) == 0 {
				if rooted {
					return errors.New("more than one root element")
				}
				if t.Name.Space != svgNS || t.Name.Local != "svg" {
					return fmt.Errorf("the root element is <%s>, not <svg> in the SVG namespace", t.Name.Local)
				}
				rooted = true
			}
			if inStyle(stack) {
				return errors.New("an element inside <style>")
			}
			if len(stack) >= maxSVGDepth {
				return fmt.Errorf("elements nested more than %d deep", maxSVGDepth)
			}
			if err := checkSVGElement(t, inMetadata(stack)); err != nil {
				return err
			}
			stack = append(stack, t.Name)
		case xml.EndElement:
			if inStyle(stack) {
				// The style sheet is the element's text as a browser joins
				// it (comments and CDATA boundaries dropped), so it is
				// checked whole.
				if err := checkCSS(style.String()); err != nil {
					return fmt.Errorf("<style>: %v", err)
				}
				style.Reset()
			}
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			if len(stack) == 0 {
				if len(bytes.TrimSpace(t)) > 0 {
					return errors.New("text outside the root element")
				}
				continue
			}
			if inStyle(stack) {
				style.Write(t)
			}
		}
	}
	if !rooted {
		return errors.New("no <svg> element")
	}
	return nil
}

// inStyle tells whether the innermost open element is <style>.
func inStyle(stack []xml.Name) bool {
	if len(stack) == 0 {
		return false
	}
	top := stack[len(stack)-1]
	return top.Space == svgNS && top.Local == "style"
}

// inMetadata tells whether the innermost open elements include
// <metadata>, where editors keep RDF.
func inMetadata(stack []xml.Name) bool {
	for _, n := range stack {
		if n.Space == svgNS && n.Local == "metadata" {
			return true
		}
	}
	return false
}

// checkSVGElement checks one element and its attributes.
func checkSVGElement(t xml.StartElement, metadata bool) error {
	switch {
	case t.Name.Space == svgNS:
		if !svgElements[t.Name.Local] {
			return fmt.Errorf("element <%s>", t.Name.Local)
		}
	case editorNS[t.Name.Space] && t.Name.Space != "http://www.w3.org/1999/xlink":
	case metadata && t.Name.Space != "" && !strings.Contains(t.Name.Space, "xhtml"):
	default:
		return fmt.Errorf("element <%s> in namespace %q", t.Name.Local, t.Name.Space)
	}
	for _, a := range t.Attr {
		if err := checkSVGAttr(a); err != nil {
			return fmt.Errorf("<%s %s=...>: %v", t.Name.Local, a.Name.Local, err)
		}
	}
	return nil
}

// checkSVGAttr refuses event handlers and references out of the
// document.
func checkSVGAttr(a xml.Attr) error {
	local := strings.ToLower(a.Name.Local)
	if a.Name.Space == "xmlns" || a.Name.Space == "" && local == "xmlns" {
		return nil // a namespace declaration
	}
	if a.Name.Space != "" && !editorNS[a.Name.Space] && a.Name.Space != svgNS {
		return fmt.Errorf("an attribute in namespace %q", a.Name.Space)
	}
	switch {
	case strings.HasPrefix(local, "on"):
		return errors.New("an event handler")
	case local == "href" || local == "src" || local == "base":
		if !strings.HasPrefix(strings.TrimSpace(a.Value), "#") {
			return errors.New("a reference outside the document (only #fragments)")
		}
	case local == "style":
		return checkCSS(a.Value)
	}
	if strings.Contains(strings.ToLower(a.Value), "javascript:") {
		return errors.New("a javascript: URL")
	}
	return checkURLs(a.Value)
}

// cssRefused are what a style in an SVG may not hold: ways to load
// another file or run code, and escapes that would hide them.
var cssRefused = []string{"@import", "@font-face", "image-set", "image(", "expression(", "javascript:", "behavior", "-moz-binding", `\`}

// checkCSS refuses a style that could load another file or run code.
func checkCSS(s string) error {
	low := strings.ToLower(s)
	for _, r := range cssRefused {
		if strings.Contains(low, r) {
			return fmt.Errorf("%q in a style", r)
		}
	}
	return checkURLs(s)
}

// checkURLs refuses url() to anything but a fragment.
func checkURLs(s string) error {
	for _, m := range cssURL.FindAllStringSubmatch(s, -1) {
		if !strings.HasPrefix(m[1], "#") {
			return fmt.Errorf("url(%s): a reference outside the document (only #fragments)", m[1])
		}
	}
	return nil
}
