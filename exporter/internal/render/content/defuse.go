package content

import "strings"

// goldmark's parser takes time quadratic in some measures of a line: the
// nesting depth of block quotes, lists and footnote definitions it opens
// (a line of 500,000 "> " takes minutes), and the number of link openers
// on it (each "](" scans ahead to the end of the link destination, which
// for a line with no whitespace is the end of the line), and
// the number of link reference definitions at the start of a paragraph. defuse
// rewrites the rare lines that go past generous limits, so that any 1 MB
// string renders in well under a second, and leaves every other line
// alone.
const (
	// maxMarkers is how many block quote, list and footnote markers one
	// line may open; the next one is backslash-escaped and reads as text.
	maxMarkers = 32
	// maxIndent is how many columns of whitespace a line's container
	// prefix keeps in all; the rest of its whitespace is cut.
	maxIndent = 128
	// maxDestination is how far goldmark may have to scan for the end of
	// a link destination after "](": to the next whitespace, or to the
	// next '>' after "](<". When the scan would be longer, the ']' is
	// backslash-escaped, which renders the same except inside code spans,
	// where the backslash shows. Real destinations are far shorter.
	maxDestination = 2048
	// maxRefRun is how many lines in a row, with no blank line between,
	// may start with '[' (goldmark removes each link reference definition
	// from the start of a paragraph by copying the rest); later ones start
	// with an escaped '['.
	maxRefRun = 512
)

// defuse returns src with every line held to the limits above. src comes
// back unchanged, without a copy, when no line needs it.
func defuse(src string) string {
	d := &defuser{src: src}
	fence := "" // the opening fence while inside column-0 fenced code

	for i := 0; i < len(src); {
		end := i
		for end < len(src) && src[end] != '\n' && src[end] != '\r' {
			end++
		}
		line := src[i:end]
		switch {
		case fence != "":
			if t := strings.TrimRight(line, " \t"); strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
		case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
			n := 3
			for n < len(line) && line[n] == line[0] {
				n++
			}
			if line[0] == '~' || !strings.Contains(line[n:], "`") {
				fence = line[:n]
			}
		default:
			d.line(i, end)
		}
		i = end + 1
	}
	if d.out == nil {
		return src
	}
	return string(append(d.out, src[d.done:]...))
}

// defuser rewrites the lines of src that go past the limits.
type defuser struct {
	src    string
	out    []byte // nil until a line needs a change
	done   int    // src[:done] is accounted for in out
	refRun int    // lines in a row starting with '['
}

// escape inserts a backslash before src[at].
func (d *defuser) escape(at int) {
	d.out = append(d.out, d.src[d.done:at]...)
	d.out = append(d.out, '\\')
	d.done = at
}

// drop leaves src[from:to] out.
func (d *defuser) drop(from, to int) {
	d.out = append(d.out, d.src[d.done:from]...)
	d.done = to
}

// line applies the limits to the line src[i:end].
func (d *defuser) line(i, end int) {
	j := d.prefix(i, end)
	src := d.src
	switch {
	case strings.TrimLeft(src[j:end], " \t") == "":
		d.refRun = 0
	case src[j] == '[':
		if d.refRun++; d.refRun > maxRefRun {
			d.escape(j)
		}
	}
	d.destinations(i, j, end)
}

// prefix holds the container prefix of the line src[i:end] (indentation,
// block quote, list and footnote markers) to maxIndent columns and
// maxMarkers markers, and returns where the prefix ends.
func (d *defuser) prefix(i, end int) int {
	src := d.src
	markers, col := 0, 0
	j := i
	for j < end {
		c := src[j]
		switch {
		case c == ' ' || c == '\t':
			w := 1
			if c == '\t' {
				w = 4 - col%4
			}
			if col+w > maxIndent {
				// Drop the rest of this whitespace run.
				k := j
				for k < end && (src[k] == ' ' || src[k] == '\t') {
					k++
				}
				d.drop(j, k)
				j = k
				continue
			}
			col += w
			j++
		case c == '>' || (c == '-' || c == '+' || c == '*') && endsMarker(src, j+1, end):
			if markers++; markers > maxMarkers {
				d.escape(j)
				return j
			}
			j++
		case c >= '0' && c <= '9':
			k := j
			for k < end && src[k] >= '0' && src[k] <= '9' {
				k++
			}
			if k == end || src[k] != '.' && src[k] != ')' || !endsMarker(src, k+1, end) {
				return j
			}
			if markers++; markers > maxMarkers {
				d.escape(k)
				return j
			}
			j = k + 1
		case c == '[' && j+1 < end && src[j+1] == '^':
			k := strings.IndexByte(src[j:end], ']')
			if k < 0 || j+k+1 >= end || src[j+k+1] != ':' || !endsMarker(src, j+k+2, end) {
				return j
			}
			if markers++; markers > maxMarkers {
				d.escape(j)
				return j
			}
			j += k + 2
		default:
			return j
		}
	}
	return j
}

// destinations holds the scans for link destinations on the line
// src[i:end], from j on, to maxDestination. nextWS and nextGT only move
// forward, so this is linear in the length of the line.
func (d *defuser) destinations(i, j, end int) {
	src := d.src
	nextWS, nextGT := j, j
	for k := j; k+1 < end; k++ {
		if src[k] != ']' || src[k+1] != '(' || escaped(src, i, k) {
			continue
		}
		var scan int
		if k+2 < end && src[k+2] == '<' {
			for nextGT = max(nextGT, k+3); nextGT < end && src[nextGT] != '>'; nextGT++ {
			}
			scan = nextGT - k
		} else {
			for nextWS = max(nextWS, k+2); nextWS < end && src[nextWS] != ' ' && src[nextWS] != '\t'; nextWS++ {
			}
			scan = nextWS - k
		}
		if scan > maxDestination {
			d.escape(k)
		}
	}
}

// endsMarker reports whether a marker ending before src[i] is complete:
// followed by whitespace or the end of the line at end.
func endsMarker(src string, i, end int) bool {
	return i >= end || src[i] == ' ' || src[i] == '\t'
}

// escaped reports whether src[k] is backslash-escaped: preceded, within
// the line starting at i, by an odd number of backslashes.
func escaped(src string, i, k int) bool {
	n := 0
	for k--; k >= i && src[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}
