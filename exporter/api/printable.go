package api

import "strings"

// maxPrintable bounds a name printed to a terminal, as the API's one-line
// strings are bounded (4 KiB).
const maxPrintable = 4096

// Printable returns s, a name or message from the API, made safe to print
// to a terminal, the same way error messages from the API are cleaned:
// escape sequences (CSI "ESC [ … final", OSC "ESC ] … BEL or ESC \", and
// two-byte ESC sequences) are dropped whole; other C0 and C1 controls,
// bidirectional embeddings, overrides, isolates and marks (U+202A–U+202E,
// U+2066–U+2069, U+200E, U+200F, U+061C), other format characters and runs
// of white space become one space; invalid UTF-8 becomes U+FFFD; and the
// result is cut to about 4 KiB with "…". A name cleaned this way can
// neither move the cursor, retitle the window, nor reorder the text
// printed after it.
func Printable(s string) string {
	if strings.ContainsAny(s, "\x1b\u009b\u009d") {
		s = dropEscapes(s)
	}
	return sanitize(s, maxPrintable)
}

// dropEscapes removes ANSI escape sequences from s: CSI (ESC [ or U+009B,
// parameter bytes, one final byte in 0x40–0x7E), OSC, DCS, SOS, PM and APC
// strings (ESC ] P X ^ _ or U+009D, up to BEL or ESC \), and two-byte
// ESC sequences. A sequence cut short at the end of s is dropped too.
func dropEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		csi, osc := false, false
		switch {
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[':
			csi, i = true, i+2
		case strings.HasPrefix(s[i:], "\u009b"):
			csi, i = true, i+len("\u009b")
		case s[i] == 0x1b && i+1 < len(s) && strings.IndexByte("]PX^_", s[i+1]) >= 0:
			osc, i = true, i+2
		case strings.HasPrefix(s[i:], "\u009d"):
			osc, i = true, i+len("\u009d")
		case s[i] == 0x1b:
			i += 2 // ESC and the byte after it
			continue
		default:
			b.WriteByte(s[i])
			i++
			continue
		}
		switch {
		case csi:
			for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
				i++ // parameter and intermediate bytes
			}
			if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
				i++ // the final byte
			}
		case osc:
			for i < len(s) && s[i] != 0x07 && !(s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\') {
				i++
			}
			if i < len(s) && s[i] == 0x1b {
				i++
			}
			if i < len(s) {
				i++
			}
		}
	}
	return b.String()
}
