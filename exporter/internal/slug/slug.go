// Package slug turns names and identifiers from the API, which are
// untrusted, into path segments that are readable, stable across runs,
// unique among siblings and safe on every file system.
//
// A slug keeps the letters of every script, lower-cased where the script
// has case: Latin loses its diacritics ("Tiếng Việt cơ bản" →
// "tieng-viet-co-ban", "Straße" → "strasse", "Łódź" → "lodz"), and so does
// Greek ("Μαθηματικά" → "μαθηματικα"); Cyrillic, Arabic, Hebrew, Indic
// scripts and CJK keep theirs ("Математика 5 класс" → "математика-5-класс",
// "数学" → "数学"), since a transliteration is a guess per language and the
// reader of a Russian site reads Russian. Everything else becomes one "-".
//
// A slug is NFC-normalized (macOS and Linux then agree on its bytes), holds
// only letters, digits, combining marks that follow a letter, and single
// dashes between them; it is never empty (Make aside), never "." or "..",
// never a separator or a control character, at most 64 bytes (cut at a
// character boundary), and never a name Windows reserves for a device
// ("con", "nul", "com1", ...; see Reserved), so an exported folder or
// archive extracts on Windows too. In a URL a non-ASCII slug is
// percent-encoded (html/template does it in attributes).
package slug

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// maxLen bounds a slug in bytes, well inside file-name limits (255 bytes
// on most file systems) and short enough for deep paths on Windows.
const maxLen = 64

// fold maps the Latin letters that Unicode does not decompose into a base
// letter and a mark (so stripping marks leaves them) to ASCII. Letters
// that do decompose (é, ế, ơ, ç, š, ...) need no entry.
var fold = map[rune]string{
	'æ': "ae", 'œ': "oe", 'ø': "o", 'ß': "ss", 'ð': "d", 'þ': "th", 'ł': "l",
	'đ': "d", 'ı': "i", 'ħ': "h", 'ŧ': "t", 'ŀ': "l", 'ƒ': "f", 'ĸ': "k",
	'ŋ': "ng", 'ɨ': "i", 'ʉ': "u", 'ɓ': "b", 'ɗ': "d", 'ƴ': "y", 'ǝ': "e",
	'ɛ': "e", 'ɔ': "o",
}

// foldsMarks tells whether the combining marks on a letter of r's script
// are dropped: Latin and Greek accents are, by convention of their slugs;
// elsewhere a mark can be part of the letter (Cyrillic й, Devanagari
// vowel signs, Japanese dakuten) and is kept.
func foldsMarks(r rune) bool {
	return unicode.Is(unicode.Latin, r) || unicode.Is(unicode.Greek, r)
}

// Make returns a readable slug of s ("Algebra 1 — Texas" →
// "algebra-1-texas", "Математика 5 класс" → "математика-5-класс"), or ""
// when s has no letter or digit; callers then fall back to ID.
func Make(s string) string {
	var b strings.Builder
	dash, folding := false, false
	for _, r := range norm.NFD.String(strings.ToLower(norm.NFKC.String(s))) {
		switch {
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Me, r):
			if b.Len() == 0 || dash || folding {
				continue // a mark on nothing, on a separator, or an accent to fold
			}
			b.WriteRune(r)
		case fold[r] != "":
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash, folding = false, true
			b.WriteString(fold[r])
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash, folding = false, foldsMarks(r)
			b.WriteRune(r)
		case r == '\'' || r == '’' || r == 'ʼ':
			// "Teacher's" → "teachers"
		default:
			dash = true
		}
		if b.Len() > 4*maxLen {
			break // enough to cut from
		}
	}
	out := cut(norm.NFC.String(b.String()), maxLen)
	if Reserved(out) {
		// "con" → "con-1": no other name slugs to a reserved name with a
		// suffix, and Assign keeps siblings apart if one reads "Con 1".
		out += "-1"
	}
	return out
}

// cut shortens the slug s to at most n bytes, at a character boundary: not
// inside a UTF-8 sequence, not before a combining mark (which would lose
// its letter's shape), and without a dash at either end.
func cut(s string, n int) string {
	if len(s) > n {
		i := n
		for i > 0 && (!utf8.RuneStart(s[i]) || isMark(s[i:])) {
			i--
		}
		s = s[:i]
	}
	return strings.Trim(s, "-")
}

// isMark tells whether s begins with a combining mark.
func isMark(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me)
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
	base := cut(Make(id), maxLen-9)
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
	s = cut(s, max(maxLen-1-len(suffix), 0))
	if s == "" {
		return suffix
	}
	return s + "-" + suffix
}
