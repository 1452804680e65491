package mathml

import "strings"

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
// '$' or '\\' is text.
//
// An inline expression never spans lines. The rules for '$' are
// Pandoc's, so that a dollar in prose stays prose ("$5 and $10"): the
// opening '$' has a non-space character right after it, the closing '$'
// a non-space character right before it, is not escaped, and is not
// followed by a digit. "$$" opens display math closed by the next "$$".
// "\(" and "\[" are closed by the next "\)" and "\]".
func Inline(s string) (tex string, n int, d Delim) {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	switch {
	case strings.HasPrefix(s, "$$"):
		end := strings.Index(s[2:], "$$")
		if end <= 0 || strings.TrimSpace(s[2:2+end]) == "" {
			return "", 0, 0
		}
		return s[2 : 2+end], end + 4, DoubleDollar
	case strings.HasPrefix(s, "$"):
		if len(s) < 2 || isSpace(s[1]) || s[1] == '$' {
			return "", 0, 0
		}
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++ // \$ and \\ are the expression's
			case '$':
				if !isSpace(s[i-1]) && !(i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9') {
					return s[1:i], i + 1, Dollar
				}
			}
		}
	case strings.HasPrefix(s, `\(`):
		return closed(s, `\)`, Paren)
	case strings.HasPrefix(s, `\[`):
		return closed(s, `\]`, Bracket)
	}
	return "", 0, 0
}

// closed reads the line s up to closer.
func closed(line, closer string, d Delim) (string, int, Delim) {
	end := strings.Index(line[2:], closer)
	if end < 0 || strings.TrimSpace(line[2:2+end]) == "" {
		return "", 0, 0
	}
	return line[2 : 2+end], end + 4, d
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// BlockOpen reports whether line (without its line ending, indented by at
// most three spaces) opens a display block: "$$" or "\[" at its start. It
// returns the opener and, when the block closes on the same line ("$$ x
// $$"), the TeX and true.
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
		c := BlockCloser(o)
		rest := t[len(o):]
		if strings.HasSuffix(rest, c) && len(rest) >= len(c) {
			return o, rest[:len(rest)-len(c)], true, true
		}
		if strings.Contains(rest, c) {
			return "", "", false, false // "$$a$$ b": inline, in a paragraph
		}
		return o, rest, false, true
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
			if f, _, _ := strings.Cut(info, " "); strings.EqualFold(f, "math") {
				mathFence, texStart = i, next
			}
		default:
			inCode = inCode && strings.TrimSpace(line) == ""
			if op, tex, one, ok := BlockOpen(line); ok {
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

func delimOf(closer string) Delim {
	if closer == `\]` || closer == `\[` {
		return Bracket
	}
	return DoubleDollar
}

// paragraph appends the inline expressions of the line src[i:end],
// skipping code spans and escaped delimiters.
func paragraph(spans []Span, src string, i, end int) []Span {
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
			if tex, n, d := Inline(src[j:end]); n > 0 {
				spans = append(spans, Span{Start: j, End: j + n, TeX: tex, Delim: d})
				j += n - 1
				continue
			}
			j++ // an escaped character
		case '$':
			if tex, n, d := Inline(src[j:end]); n > 0 {
				spans = append(spans, Span{Start: j, End: j + n, TeX: tex, Delim: d})
				j += n - 1
			} else if strings.HasPrefix(src[j:end], "$$") {
				j++
			}
		}
	}
	return spans
}
