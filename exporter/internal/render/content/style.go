package content

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"sync"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

// The chroma styles of highlighted code.
const (
	lightStyle = "github"
	darkStyle  = "github-dark"
)

// The website's theme toggle sets data-theme="light" or "dark" on <html>;
// without it the reader's system setting applies.
const (
	chosenDark  = `:root[data-theme="dark"] `
	systemDark  = `:root:not([data-theme="light"]) `
	themeToggle = "data-theme"
)

var styleCSS = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	b.WriteString("/* Code highlighting: chroma style \"" + lightStyle + "\", \"" + darkStyle + "\" when the reader prefers dark (unless " +
		themeToggle + "=\"light\") or chose it (" + themeToggle + "=\"dark\" on <html>). */\n")
	b.WriteString(chromaCSS(lightStyle, "", ""))
	b.WriteString("@media (prefers-color-scheme: dark) {\n")
	b.WriteString(chromaCSS(darkStyle, "  ", systemDark))
	b.WriteString("}\n")
	b.WriteString(chromaCSS(darkStyle, "", chosenDark))
	return b.Bytes()
})

// tokenRule matches the selector of a token class's rule in chroma's CSS.
var tokenRule = regexp.MustCompile(`\*/ \.chroma \.([a-z0-9]+) \{`)

// unstyled returns the token classes the light style colours and the dark
// one does not ("nb" in github-dark): without a rule of their own in the
// dark theme they would keep the light style's colour on the dark
// background (2.57:1 for .nb).
func unstyled() []string {
	dark := map[string]bool{}
	for _, m := range tokenRule.FindAllStringSubmatch(rawCSS(darkStyle), -1) {
		dark[m[1]] = true
	}
	var out []string
	for _, m := range tokenRule.FindAllStringSubmatch(rawCSS(lightStyle), -1) {
		if !dark[m[1]] && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// rawCSS is chroma's CSS of a style.
func rawCSS(name string) string {
	var b bytes.Buffer
	f := chromahtml.New(chromahtml.WithClasses(true))
	if err := f.WriteCSS(&b, styles.Get(name)); err != nil {
		// WriteCSS only fails when its writer does; a bytes.Buffer does not.
		panic(err)
	}
	return b.String()
}

// chromaCSS returns the rules of one chroma style, every selector under
// .chroma, preceded by scope (a selector and a space, or ""), each line
// indented by indent.
func chromaCSS(name, indent, scope string) string {
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimRight(rawCSS(name), "\n"), "\n") {
		// chroma puts the background on a ".bg" class of its own; ours is
		// the <pre class="chroma">.
		line = strings.Replace(line, "*/ .bg {", "*/ .chroma {", 1)
		if scope != "" {
			line = strings.Replace(line, "*/ .chroma", "*/ "+scope+".chroma", 1)
		}
		out.WriteString(indent + line + "\n")
	}
	if name == darkStyle {
		for _, c := range unstyled() {
			out.WriteString(indent + "/* Not in " + darkStyle + " */ " + scope + ".chroma ." + c + " { color: inherit; background-color: transparent }\n")
		}
	}
	return out.String()
}

// StyleCSS returns the CSS for highlighted code: chroma's "github" style by
// default and "github-dark" inside @media (prefers-color-scheme: dark)
// unless <html> has data-theme="light", and when it has data-theme="dark",
// every rule scoped under .chroma. The caller may modify the returned slice.
func StyleCSS() []byte {
	return bytes.Clone(styleCSS())
}
