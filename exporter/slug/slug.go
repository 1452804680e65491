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

	"golang.org/x/text/unicode/norm"
)

// maxLen bounds a slug, well inside file-name limits.
const maxLen = 64

// fold maps the Latin letters that have no decomposition into a base
// letter and marks (æ, ø, ß, ł, ...) to ASCII; other accented letters
// ("é", Vietnamese "ế", "ơ") lose their marks (see letter).
var fold = map[rune]string{
	'æ': "ae", 'ø': "o", 'œ': "oe", 'ß': "ss", 'ð': "d", 'þ': "th", 'ł': "l", 'đ': "d",
	'ı': "i", 'ħ': "h", 'ŧ': "t", 'ŀ': "l", 'ĸ': "k", 'ŋ': "ng", 'ſ': "s",
}

// translit spells Cyrillic and Greek letters in ASCII, after the common
// English-language romanizations (BGN/PCGN for Cyrillic, ELOT 743 for
// Greek): "Математика 5 класс" → "matematika-5-klass".
var translit = map[rune]string{
	// Cyrillic: Russian, Ukrainian, Belarusian, Bulgarian, Serbian, Macedonian.
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "yo", 'ж': "zh", 'з': "z", 'и': "i",
	'й': "y", 'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s", 'т': "t",
	'у': "u", 'ф': "f", 'х': "kh", 'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "shch", 'ъ': "", 'ы': "y", 'ь': "",
	'э': "e", 'ю': "yu", 'я': "ya", 'є': "ye", 'і': "i", 'ї': "yi", 'ґ': "g", 'ў': "u", 'ђ': "dj", 'ј': "j",
	'љ': "lj", 'њ': "nj", 'ћ': "c", 'џ': "dz", 'ѓ': "gj", 'ќ': "kj", 'ѕ': "dz",
	// Greek (accented vowels lose their marks first).
	'α': "a", 'β': "v", 'γ': "g", 'δ': "d", 'ε': "e", 'ζ': "z", 'η': "i", 'θ': "th", 'ι': "i", 'κ': "k",
	'λ': "l", 'μ': "m", 'ν': "n", 'ξ': "x", 'ο': "o", 'π': "p", 'ρ': "r", 'σ': "s", 'ς': "s", 'τ': "t",
	'υ': "y", 'φ': "f", 'χ': "ch", 'ψ': "ps", 'ω': "o",
}

// greekDigraphs are the Greek letter pairs romanized as one sound.
var greekDigraphs = strings.NewReplacer("ου", "ou", "ού", "ou")

// letter spells the lower-case letter or digit r in ASCII: itself, its
// folding or transliteration, or the spelling of its base letter once its
// marks are taken off ("ế" → "e", "ά" → "a"). ok is false for a letter
// or digit of another script (Arabic, Hebrew, CJK, ...) and for anything
// that is not a letter or digit.
func letter(r rune) (string, bool) {
	switch {
	case r < unicode.MaxASCII:
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return string(r), true
		}
		return "", false
	case fold[r] != "":
		return fold[r], true
	}
	if t, ok := translit[r]; ok {
		return t, true
	}
	if d := []rune(norm.NFD.String(string(r))); len(d) > 1 && d[0] != r {
		for _, m := range d[1:] {
			if !unicode.Is(unicode.Mn, m) {
				return "", false
			}
		}
		return letter(d[0])
	}
	return "", false
}

// Make returns a readable slug of s ("Algebra 1 — Texas" → "algebra-1-texas"):
// Latin letters without their diacritics ("Tiếng Việt cơ bản" →
// "tieng-viet-co-ban"), Cyrillic and Greek transliterated ("Математика 5
// класс" → "matematika-5-klass"). It returns "" when s has no letter or
// digit it can spell, or when it drops letters of another script
// (Arabic, CJK, ...) and keeps no letter ("数学 5" is not "5"): callers
// then fall back to ID, which is stable and unique.
func Make(s string) string {
	var b strings.Builder
	dash, lost, kept := false, false, false
	for _, r := range greekDigraphs.Replace(strings.ToLower(norm.NFC.String(s))) {
		if b.Len() >= maxLen {
			break
		}
		switch t, ok := letter(r); {
		case ok:
			if t == "" {
				continue // a hard or soft sign: part of the word
			}
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteString(t)
			kept = kept || unicode.IsLetter(rune(t[0]))
		case r == '\'' || r == '’':
			// "Teacher's" → "teachers"
		case unicode.Is(unicode.Mn, r):
			// a combining mark NFC left alone: part of its letter
		default:
			lost = lost || unicode.IsLetter(r)
			dash = true
		}
	}
	if lost && !kept {
		return ""
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
