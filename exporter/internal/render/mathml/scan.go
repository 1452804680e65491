package mathml

import (
	"slices"
	"strings"
)

// Delim is how an expression was delimited in Markdown.
type Delim int

// The delimiters authors use.
const (
	Dollar       Delim = iota // $...$, inline
	DoubleDollar              // $$...$$, display
	Paren                     // \(...\), inline
	Bracket                   // \[...\], display
	Fence                     // ```math fenced block, display
)

// Display reports whether d delimits display math.
func (d Delim) Display() bool { return d == DoubleDollar || d == Bracket || d == Fence }

// Inline reads an expression at the start of s, which holds the rest of a
// line of Markdown (from a '$' or a '\\' that is not itself escaped). It
// returns the expression's TeX, the bytes the whole span takes, and its
// delimiter; n is 0 when s does not start an expression, and then the
// '$' or '\\' is text. To read many expressions of one line, use a Line.
//
// An inline expression never spans lines. The rules for '$' are
// Pandoc's, so that a dollar in prose stays prose ("$5 and $10"): the
// opening '$' has a non-space character right after it, the closing '$'
// a non-space character right before it, is not escaped, and is not
// followed by a digit. "$$" opens display math closed by the next "$$".
// "\(" and "\[" are closed by the next "\)" and "\]".
func Inline(s string) (tex string, n int, d Delim) { return NewLine(s).At(0) }

// Line finds the expressions of one line in time linear in its length,
// however many delimiters it holds: the closers are found once.
type Line struct {
	s string
	// dollar, double, paren and bracket are the positions of the
	// closers, ascending: a '$' that may close (not escaped, a non-space
	// before it, no digit after it), "$$" (its first '$' not escaped),
	// "\)" and "\]".
	dollar, double, paren, bracket []int
}

// NewLine prepares s, up to its first line ending, for At.
func NewLine(s string) *Line {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	l := &Line{s: s}
	backslashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		escaped := backslashes%2 == 1
		switch {
		case c == '$':
			if !escaped && i > 0 && !isSpace(s[i-1]) && !(i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9') {
				l.dollar = append(l.dollar, i)
			}
			if !escaped && i+1 < len(s) && s[i+1] == '$' {
				l.double = append(l.double, i)
			}
		case c == ')' && i > 0 && s[i-1] == '\\':
			l.paren = append(l.paren, i-1)
		case c == ']' && i > 0 && s[i-1] == '\\':
			l.bracket = append(l.bracket, i-1)
		}
		if c == '\\' {
			backslashes++
		} else {
			backslashes = 0
		}
	}
	return l
}

// next returns the first position in ps at or after from, or -1.
func next(ps []int, from int) int {
	i, _ := slices.BinarySearch(ps, from)
	if i == len(ps) {
		return -1
	}
	return ps[i]
}

// Len is the length of the line.
func (l *Line) Len() int { return len(l.s) }

// At reads an expression starting at l's byte j, as Inline does.
func (l *Line) At(j int) (tex string, n int, d Delim) {
	s := l.s
	if j >= len(s) {
		return "", 0, 0
	}
	rest := s[j:]
	switch {
	case strings.HasPrefix(rest, "$$"):
		end := next(l.double, j+2)
		if end < 0 || strings.TrimSpace(s[j+2:end]) == "" {
			return "", 0, 0
		}
		return s[j+2 : end], end + 2 - j, DoubleDollar
	case strings.HasPrefix(rest, "$"):
		if len(rest) < 2 || isSpace(rest[1]) {
			return "", 0, 0
		}
		// A closer preceded by an odd run of backslashes that starts
		// right after the opener is escaped from the opener's view too:
		// the runs are the same.
		end := next(l.dollar, j+2)
		if end < 0 {
			return "", 0, 0
		}
		return s[j+1 : end], end + 1 - j, Dollar
	case strings.HasPrefix(rest, `\(`):
		return l.closed(j, l.paren, Paren)
	case strings.HasPrefix(rest, `\[`):
		return l.closed(j, l.bracket, Bracket)
	}
	return "", 0, 0
}

// closed reads from the opener at j to the next closer in ps.
func (l *Line) closed(j int, ps []int, d Delim) (string, int, Delim) {
	end := next(ps, j+2)
	if end < 0 || strings.TrimSpace(l.s[j+2:end]) == "" {
		return "", 0, 0
	}
	return l.s[j+2 : end], end + 2 - j, d
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// BlockOpen reports whether line (without its line ending, indented by at
// most three spaces) opens a display block: "$$" or "\[" alone on the
// line, or a whole block on one line ("$$ x $$"). It returns the opener
// and, for a block on one line, its TeX and one set.
//
// A line is a block on one line only when the expression its opener
// starts, read as Inline reads it, ends at the end of the line: so
// "$$a$$ b $$c$$" is a paragraph of two display expressions and the text
// between them, as Pandoc, KaTeX's auto-render and MathJax read it, not
// one expression "a$$ b $$c".
func BlockOpen(line string) (opener, tex string, one bool, ok bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return "", "", false, false
	}
	t = strings.TrimRight(t, " \t")
	for _, o := range []string{"$$", `\[`} {
		if !strings.HasPrefix(t, o) {
			continue
		}
		rest := t[len(o):]
		if tex, n, d := Inline(t); n == len(t) && d.Display() {
			return o, tex, true, true
		}
		if strings.TrimSpace(rest) != "" {
			// "$$a$$ b" is inline math in a paragraph; "$$5 off" is
			// prose: a block opens on a line of its own.
			return "", "", false, false
		}
		return o, "", false, true
	}
	return "", "", false, false
}

// BlockCloser returns the closer of a display block opened by opener.
func BlockCloser(opener string) string {
	if opener == `\[` {
		return `\]`
	}
	return "$$"
}

// BlockClose reports whether line closes a display block with closer: it
// ends with it. tex is what comes before the closer on the line.
func BlockClose(line, closer string) (tex string, ok bool) {
	t := strings.TrimRight(line, " \t")
	if !strings.HasSuffix(t, closer) {
		return "", false
	}
	return t[:len(t)-len(closer)], true
}

// BlockEnds reports whether a display block whose opening line is
// followed by rest closes with closer before a blank line or the end: TeX
// allows no blank line in display math, so a "$$" or "\[" line with no
// closer before one is text, and the paragraphs, lists and images after it
// stay what they are. Scan and the website's parser both ask it.
func BlockEnds(rest, closer string) bool {
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			return false
		}
		if _, ok := BlockClose(line, closer); ok {
			return true
		}
		rest = after
	}
	return false
}

// Span is one expression found by Scan.
type Span struct {
	// Start and End delimit the whole span in the source, delimiters
	// (or fence lines) included.
	Start, End int
	// TeX is the expression.
	TeX   string
	Delim Delim
	// Block is set for an expression that is a block of its own (a "$$"
	// or "\[" block, a math fence), not part of a paragraph.
	Block bool
}

// Scan finds the expressions of a Markdown string as the website reads
// them: in paragraphs ($...$, $$...$$, \(...\), \[...\]), as blocks ("$$"
// and "\[" lines, ```math fences), never in code spans, fenced or
// indented code, and not where the delimiter is backslash-escaped.
func Scan(src string) []Span {
	var spans []Span
	fence := ""     // the open fence of a code block
	mathFence := -1 // start of an open ```math fence
	blockOpen := -1 // start of an open $$ or \[ block
	closer := ""
	texStart := 0
	blank := true // the previous line was blank (or the start)
	inCode := false
	for i := 0; i < len(src); {
		end := strings.IndexByte(src[i:], '\n')
		next := len(src)
		if end < 0 {
			end = len(src)
		} else {
			end += i
			next = end + 1
		}
		line := strings.TrimSuffix(src[i:end], "\r")
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		switch {
		case blockOpen >= 0:
			if tex, ok := BlockClose(line, closer); ok {
				spans = append(spans, Span{Start: blockOpen, End: end, TeX: src[texStart:i] + tex, Delim: delimOf(closer), Block: true})
				blockOpen = -1
			}
		case fence != "":
			if t := strings.TrimRight(trimmed, " \t"); indent <= 3 && strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				if mathFence >= 0 {
					spans = append(spans, Span{Start: mathFence, End: end, TeX: src[texStart:i], Delim: Fence, Block: true})
					mathFence = -1
				}
				fence = ""
			}
		case indent >= 4 && (blank || inCode) && strings.TrimSpace(line) != "":
			inCode = true
		case indent <= 3 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			n := 3
			for n < len(trimmed) && trimmed[n] == trimmed[0] {
				n++
			}
			info := strings.TrimSpace(trimmed[n:])
			if trimmed[0] == '`' && strings.Contains(info, "`") {
				spans = paragraph(spans, src, i, end)
				break
			}
			fence = trimmed[:n]
			if FenceIsMath(info) {
				mathFence, texStart = i, next
			}
		default:
			inCode = inCode && strings.TrimSpace(line) == ""
			if op, tex, one, ok := BlockOpen(line); ok && (one || BlockEnds(src[next:], BlockCloser(op))) {
				if one {
					spans = append(spans, Span{Start: i, End: end, TeX: tex, Delim: delimOf(op), Block: true})
				} else {
					blockOpen, closer = i, BlockCloser(op)
					texStart = i + strings.Index(line, op) + len(op)
				}
				break
			}
			spans = paragraph(spans, src, i, end)
		}
		blank = strings.TrimSpace(line) == ""
		i = next
	}
	return spans
}

// FenceIsMath reports whether a fenced block whose info string is info
// holds display math: its language (LanguageName of the first word) is
// "math". It is the one reading of a fence for Scan and for the
// renderers' goldmark parser (render/content), so "```Math!" and
// "~~~ {math}" are math in every format.
func FenceIsMath(info string) bool {
	word, _, _ := strings.Cut(strings.TrimSpace(info), " ")
	return LanguageName(word) == "math"
}

// LanguageName is the safe token of a fenced block's language as written
// (the first word of its info string): lower case, letters, digits and
// "+#-_." only, at most 32 bytes.
func LanguageName(word string) string {
	var b strings.Builder
	for i := 0; i < len(word) && b.Len() < 32; i++ {
		c := word[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '#' || c == '-' || c == '_' || c == '.' {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func delimOf(closer string) Delim {
	if closer == `\]` || closer == `\[` {
		return Bracket
	}
	return DoubleDollar
}

// paragraph appends the inline expressions of the line src[i:end],
// skipping code spans and escaped delimiters.
func paragraph(spans []Span, src string, i, end int) []Span {
	var line *Line // made at the first delimiter
	at := func(j int) (string, int, Delim) {
		if line == nil {
			line = NewLine(src[i:end])
		}
		return line.At(j - i)
	}
	for j := i; j < end; j++ {
		switch src[j] {
		case '`':
			n := 1
			for j+n < end && src[j+n] == '`' {
				n++
			}
			run := src[j : j+n]
			k := j + n
			for {
				m := strings.Index(src[k:end], run)
				if m < 0 {
					k = -1
					break
				}
				k += m
				if k+n < end && src[k+n] == '`' { // a longer run
					for k < end && src[k] == '`' {
						k++
					}
					continue
				}
				break
			}
			if k < 0 {
				j += n - 1
			} else {
				j = k + n - 1
			}
		case '\\':
			if tex, n, d := at(j); n > 0 {
				spans = append(spans, Span{Start: j, End: j + n, TeX: tex, Delim: d})
				j += n - 1
				continue
			}
			j++ // an escaped character
		case '$':
			if tex, n, d := at(j); n > 0 {
				spans = append(spans, Span{Start: j, End: j + n, TeX: tex, Delim: d})
				j += n - 1
			} else if strings.HasPrefix(src[j:end], "$$") {
				j++
			}
		}
	}
	return spans
}
