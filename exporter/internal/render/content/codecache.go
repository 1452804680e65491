package content

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/curex/curex/exporter/internal/diskcache"
)

// Highlighting a code block is most of what rendering a page of code
// costs (chroma's regular expressions), and its result depends on the
// block, its language and the code that highlights it alone. With a code
// cache (WithCodeCache) a Converter keeps chroma's markup of every block
// it highlights under a key of those, and the next format, the next page
// or the next run that shows the same block reads it back: the same
// bytes, as the key covers everything they depend on.

// highlightVersion changes when curex's highlighting changes what it
// writes for a block: its lexers (highlighter), the formatter's options
// (New), which blocks are highlighted or how.
const highlightVersion = "curex-highlight 1"

// highlightModules are the versions of the modules whose code decides
// chroma's markup, as go.mod requires them
// (TestHighlightVersionFollowsGoMod keeps them so): a new chroma gives new
// keys, and the entries of the old one are pruned when unused.
const highlightModules = "github.com/alecthomas/chroma/v2 v2.27.0\ngithub.com/dlclark/regexp2/v2 v2.5.2"

// WithCodeCache makes the Converter keep the markup of the code blocks it
// highlights in c and read it back from there (see ValidHighlight), which
// it may share with other Converters: formats, pages and runs that show
// the same block highlight it once. c must be safe for concurrent use; a
// Put that fails costs only a highlighting next time.
func WithCodeCache(c diskcache.Cache) Option {
	return func(r *Converter) {
		if c != nil {
			r.code = c
			r.codeSum = highlightSum()
		}
	}
}

// highlightSum is the part of every key that is not the block's: the
// version of curex's highlighting, chroma's, the style and the bounds.
func highlightSum() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n", highlightVersion, highlightModules, lightStyle)
	// The bounds that decide whether a block is highlighted at all: a
	// block shown plain under new bounds must not be read back highlighted.
	fmt.Fprintf(h, "size=%d line=%d matches=%d+%d\n", maxHighlight, maxHighlightLine, maxMatches(0), maxMatches(1)-maxMatches(0))
	return hex.EncodeToString(h.Sum(nil))
}

// highlightKey is the key of code in language lang; sum is highlightSum's.
func highlightKey(sum, lang string, code []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%d:%s\n%d:", sum, len(lang), lang, len(code))
	h.Write(code)
	return hex.EncodeToString(h.Sum(nil))
}

// highlight returns chroma's markup of code in language lang (the inside
// of the block's <code> element), nil when the block is shown plain (no
// lexer knows lang, or the lexer loops on it). The code cache's copy when
// it holds a valid one; else chroma's, which the cache then keeps.
func (r *Converter) highlight(lang string, code []byte) ([]byte, error) {
	lexer := r.hl.lexer(lang)
	if lexer == nil {
		return nil, nil
	}
	var key string
	if r.code != nil {
		key = highlightKey(r.codeSum, lang, code)
		// The store checks what it reads; a store of another kind may
		// not, and markup that is not chroma's never reaches a page.
		if out, ok := r.code.Get(key); ok && ValidHighlight(out) {
			return out, nil
		}
	}
	tokens, err := r.hl.tokenise(chroma.Coalesce(lexer), string(code))
	switch {
	case errors.Is(err, errLoop):
		// A lexer that loops on this block (the same on any machine):
		// the block is shown plain.
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%s code block: %w", lang, err)
	}
	var out bytes.Buffer
	if err := r.chroma.Format(&out, styles.Get(lightStyle), chroma.Literator(tokens...)); err != nil {
		return nil, nil
	}
	if r.code != nil {
		_ = r.code.Put(key, out.Bytes()) // a miss next time is all a failure costs
	}
	return out.Bytes(), nil
}

// ValidHighlight reports whether b is markup as curex's highlighting
// writes it, and nothing else: text with &, <, >, ' and " escaped (as
// &amp; &lt; &gt; &#39; &#34;), in properly nested <span class="...">
// elements whose classes are letters, digits, spaces, '-' and '_', all
// valid UTF-8. It is the check of a code cache's entries: an entry
// planted in the cache folder can change a block's text, never add an
// element, an attribute or a script to a page.
func ValidHighlight(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	const open, end = `<span class="`, `</span>`
	depth := 0
	for i := 0; i < len(b); {
		switch b[i] {
		case '<':
			switch {
			case bytes.HasPrefix(b[i:], []byte(end)):
				if depth--; depth < 0 {
					return false
				}
				i += len(end)
			case bytes.HasPrefix(b[i:], []byte(open)):
				j := i + len(open)
				for j < len(b) && classByte(b[j]) {
					j++
				}
				if !bytes.HasPrefix(b[j:], []byte(`">`)) {
					return false
				}
				depth++
				i = j + 2
			default:
				return false
			}
		case '&':
			n := entityLen(b[i:])
			if n == 0 {
				return false
			}
			i += n
		case '>', '"', '\'':
			return false
		default:
			i++
		}
	}
	return depth == 0
}

// classByte reports whether c may be in a class attribute of
// highlighted code.
func classByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || c == '-' || c == '_'
}

// entityLen is the length of the character reference b starts with, one
// of those chroma writes; 0 for any other.
func entityLen(b []byte) int {
	for _, e := range []string{"&amp;", "&lt;", "&gt;", "&#39;", "&#34;"} {
		if bytes.HasPrefix(b, []byte(e)) {
			return len(e)
		}
	}
	return 0
}
