// Package slug turns names and identifiers from the API, which are
// untrusted, into path segments that are readable, stable across runs,
// unique among siblings and safe: only a-z, 0-9 and "-", never empty, never
// "." or "..", never a separator or a control character, and never a name
// Windows reserves for a device ("con", "nul", "com1", ...; see Reserved),
// so an exported folder or archive extracts on Windows too.
package slug

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// maxLen bounds a slug, well inside file-name limits.
const maxLen = 64

// fold maps common accented Latin letters to ASCII.
var fold = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'ä': "a", 'å': "a", 'æ': "ae", 'ç': "c",
	'è': "e", 'é': "e", 'ê': "e", 'ë': "e", 'ì': "i", 'í': "i", 'î': "i", 'ï': "i",
	'ñ': "n", 'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ö': "o", 'ø': "o", 'œ': "oe",
	'ù': "u", 'ú': "u", 'û': "u", 'ü': "u", 'ý': "y", 'ÿ': "y", 'ß': "ss", 'ð': "d",
	'þ': "th", 'ł': "l", 'đ': "d", 'š': "s", 'ž': "z", 'č': "c", 'ć': "c", 'ř': "r",
	'ě': "e", 'ő': "o", 'ű': "u", 'ş': "s", 'ğ': "g", 'ı': "i", 'ą': "a", 'ę': "e",
	'ś': "s", 'ź': "z", 'ż': "z", 'ń': "n",
}

// Make returns a readable slug of s ("Algebra 1 — Texas" → "algebra-1-texas"),
// or "" when s has no letter or digit it can keep (for example a title in a
// non-Latin script); callers then fall back to ID.
func Make(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		case fold[r] != "":
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteString(fold[r])
		case r == '\'' || r == '’':
			// "Teacher's" → "teachers"
		default:
			dash = true
		}
		if b.Len() >= maxLen {
			break
		}
	}
	out := b.String()
	if len(out) > maxLen {
		out = out[:maxLen]
	}
	out = strings.Trim(out, "-")
	if Reserved(out) {
		// "con" → "con-1": no other name slugs to a reserved name with a
		// suffix, and Assign keeps siblings apart if one reads "Con 1".
		out += "-1"
	}
	return out
}

// reservedDevices are the names Windows keeps for devices, in lower case:
// a file or folder named by one, with or without an extension, cannot be
// created or extracted there.
var reservedDevices = map[string]bool{
	"con": true, "prn": true, "aux": true, "nul": true, "conin$": true, "conout$": true, "clock$": true,
	"com0": true, "com1": true, "com2": true, "com3": true, "com4": true,
	"com5": true, "com6": true, "com7": true, "com8": true, "com9": true,
	"com¹": true, "com²": true, "com³": true,
	"lpt0": true, "lpt1": true, "lpt2": true, "lpt3": true, "lpt4": true,
	"lpt5": true, "lpt6": true, "lpt7": true, "lpt8": true, "lpt9": true,
	"lpt¹": true, "lpt²": true, "lpt³": true,
}

// Reserved reports whether the path segment seg cannot be a file or folder
// name on Windows: a device name ("CON", "nul.md", "Com1.tar.gz", "lpt²",
// "aux .txt"), case-insensitively and whatever follows its first dot, or a
// name ending in a dot or a space, which Windows silently strips.
func Reserved(seg string) bool {
	if seg == "" {
		return false
	}
	if last := seg[len(seg)-1]; last == '.' || last == ' ' {
		return seg != "." && seg != ".."
	}
	base, _, _ := strings.Cut(seg, ".")
	return reservedDevices[strings.ToLower(strings.TrimRight(base, " "))]
}

// ID returns a slug of an identifier that is unique for distinct ids: the
// id itself when it is already a safe slug, else its readable part followed
// by a short hash of the exact id ("Unit 1" → "unit-1-6b3a55e0").
func ID(id string) string {
	if id != "" && Make(id) == id && !Reserved(id) {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	h := hex.EncodeToString(sum[:4])
	base := Make(id)
	if len(base) > maxLen-9 {
		base = strings.Trim(base[:maxLen-9], "-")
	}
	if base == "" {
		return "x-" + h
	}
	return base + "-" + h
}

// Item is one sibling to name: Key identifies it stably (an API id), Name
// is what its slug should read like.
type Item struct {
	Key, Name string
}

// Assign gives each item a slug unique among them and different from every
// reserved slug. Items are considered in Key order, so the result does not
// depend on the order the API listed them in: the item with the lowest key
// keeps the plain slug of its name, later ones with the same slug get the
// slug of their key appended, and an item whose name gives no slug gets
// the slug of its key.
func Assign(items []Item, reserved ...string) map[string]string {
	sorted := append([]Item(nil), items...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Key < sorted[j].Key })
	taken := map[string]bool{}
	for _, r := range reserved {
		taken[r] = true
	}
	out := make(map[string]string, len(items))
	for _, it := range sorted {
		s := Make(it.Name)
		if s == "" {
			s = ID(it.Key)
		}
		if taken[s] {
			s = join(s, ID(it.Key))
		}
		for n := 2; taken[s]; n++ { // only for pathological keys
			s = join(Make(it.Name), ID(it.Key+"#"+strconv.Itoa(n)))
		}
		taken[s] = true
		out[it.Key] = s
	}
	return out
}

// join appends suffix to s with a dash, shortening s to keep within maxLen.
func join(s, suffix string) string {
	if room := maxLen - 1 - len(suffix); len(s) > room {
		s = strings.Trim(s[:max(room, 0)], "-")
	}
	if s == "" {
		return suffix
	}
	return s + "-" + suffix
}
