package changes

import "unicode/utf8"

// canonical reports whether raw is a string or a whole number that
// compact's encoding/json round trip would give back byte for byte, so
// that compact can sum it as it is: a node's members are mostly such
// strings, and decoding and encoding each of them cost most of a tree's
// snapshot (50 ms of the bench tree's 5,000 nodes, before any page).
// FuzzCanonical holds it to the round trip.
func canonical(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		return canonicalString(raw)
	}
	return canonicalInt(raw)
}

// canonicalInt: 0, or an optional minus and at most 15 digits without a
// leading zero (a float64 holds them exactly, and encoding/json writes
// such a float64 with the same digits).
func canonicalInt(b []byte) bool {
	if string(b) == "0" {
		return true
	}
	if b[0] == '-' {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 15 || b[0] == '0' {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// canonicalString: a string in valid UTF-8 whose every character
// encoding/json writes as it is, and whose every escape is one it writes
// the same way (\" \\ \n \r \t, and \u003c \u003e \u0026 for <, > and &,
// which it escapes).
func canonicalString(raw []byte) bool {
	if len(raw) < 2 || raw[len(raw)-1] != '"' {
		return false
	}
	body := raw[1 : len(raw)-1]
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			if i+1 == len(body) {
				return false
			}
			switch body[i+1] {
			case '"', '\\', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(body) {
					return false
				}
				switch string(body[i+2 : i+6]) {
				case "003c", "003e", "0026":
					i += 6
				default:
					return false
				}
			default:
				return false
			}
		case c < 0x20 || c == '"' || c == '<' || c == '>' || c == '&':
			return false
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
				return false
			}
			i += n
		}
	}
	return true
}
