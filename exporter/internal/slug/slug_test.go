package slug

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

func TestMake(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Algebra 1", "algebra-1"},
		{"Algebra 1 — Texas", "algebra-1-texas"},
		{"Houston ISD", "houston-isd"},
		{"Teacher's Guide", "teachers-guide"},
		{"Introducción a la programación", "introduccion-a-la-programacion"},
		{"  --Hello__World!!  ", "hello-world"},
		{"../../etc/passwd", "etc-passwd"},
		{"a/b\\c", "a-b-c"},
		{"", ""},
		{"..", ""},
		{"line\nbreak\x00nul", "line-break-nul"},
		{"\u202eevil\u202c", "evil"},
		{strings.Repeat("abc ", 40), strings.TrimRight(strings.Repeat("abc-", 16), "-")},
		// Latin: diacritics folded, letters without a decomposition mapped.
		{"Tiếng Việt cơ bản", "tieng-viet-co-ban"},
		{"Đường đi", "duong-di"},
		{"Straße", "strasse"},
		{"Ærø og Øst", "aero-og-ost"},
		{"Łódź", "lodz"},
		{"Þingvellir", "thingvellir"},
		{"İstanbul ve Işık", "istanbul-ve-isik"},
		{"Čeština Škola Ťava", "cestina-skola-tava"},
		{"Yorùbá Ẹ̀kọ́", "yoruba-eko"},
		{"Ǆemal", "dzemal"},
		{"ﬁne Ｆｕｌｌ", "fine-full"},
		{"Cafe\u0301 de\u0301ja\u0300", "cafe-deja"}, // decomposed input
		// Other scripts keep their letters, lower-cased where they have case.
		{"Математика 5 класс", "математика-5-класс"},
		{"Йогурт и ёж", "йогурт-и-ёж"},
		{"Українська мова", "українська-мова"},
		{"Μαθηματικά Γυμνασίου", "μαθηματικα-γυμνασιου"},
		{"الرياضيات للصف الخامس", "الرياضيات-للصف-الخامس"},
		{"العربية", "العربية"},
		{"עברית", "עברית"},
		{"数学 五年级", "数学-五年级"},
		{"日本語", "日本語"},
		{"がっこう", "がっこう"},
		{"한국어 수학", "한국어-수학"},
		{"गणित कक्षा ५", "गणित-कक्षा-५"},
		{"ไทย คณิตศาสตร์", "ไทย-คณิตศาสตร์"},
		{"Ελληνικά & English", "ελληνικα-english"},
		// Cut at 64 bytes at a character boundary, never inside a letter.
		{strings.Repeat("я", 40), strings.Repeat("я", 32)},
		{strings.Repeat("数", 30), strings.Repeat("数", 21)},
		{strings.Repeat("कि", 20), strings.Repeat("कि", 10)},
		// Reserved names on Windows.
		{"CON", "con-1"},
		{"Com1", "com1-1"},
		{"com²", "com2-1"},
	}
	for _, tt := range tests {
		if got := Make(tt.in); got != tt.want {
			t.Errorf("Make(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := Make(tt.in); got != "" && !safe(got) {
			t.Errorf("Make(%q) = %q is not safe", tt.in, got)
		}
	}
}

func TestID(t *testing.T) {
	tests := []struct{ in, want string }{
		{"alg-u1-l2", "alg-u1-l2"},
		{"101", "101"},
		{"curriculum_201", "curriculum-201-" + ID("curriculum_201")[len("curriculum-201-"):]},
	}
	for _, tt := range tests {
		if got := ID(tt.in); got != tt.want {
			t.Errorf("ID(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Distinct ids never share a slug, even when their readable parts do.
	seen := map[string]string{}
	for _, id := range []string{"Unit 1", "unit-1", "unit_1", "UNIT 1", "", "..", "/", "日本", "日本語", "a/b", "a-b"} {
		s := ID(id)
		if prev, dup := seen[s]; dup {
			t.Errorf("ID(%q) = ID(%q) = %q", id, prev, s)
		}
		seen[s] = id
		if !safe(s) {
			t.Errorf("ID(%q) = %q is not safe", id, s)
		}
	}
}

func TestAssign(t *testing.T) {
	items := []Item{
		{Key: "113", Name: "California"},
		{Key: "111", Name: "Texas"},
		{Key: "120", Name: "texas"},
		{Key: "130", Name: "Base"},
		{Key: "140", Name: "日本"},
		{Key: "150", Name: "★"},
	}
	got := Assign(items, "base")
	want := map[string]string{"111": "texas", "113": "california", "120": "texas-120", "130": "base-130", "140": "日本", "150": "150"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("slug of %s = %q, want %q", k, got[k], v)
		}
	}
	// The API's order does not matter.
	rev := []Item{items[5], items[4], items[3], items[2], items[1], items[0]}
	again := Assign(rev, "base")
	for k := range want {
		if again[k] != got[k] {
			t.Errorf("order changed slug of %s: %q vs %q", k, again[k], got[k])
		}
	}
}

// TestWindowsReservedNames checks that no device name Windows reserves
// comes out of Make, ID or Assign, whatever its case or extension, and
// that siblings stay apart.
func TestWindowsReservedNames(t *testing.T) {
	names := []string{"con", "CON", "Con.md", "nul", "NUL.txt", "aux", "prn", "com1", "COM9", "com0", "lpt1", "LPT9",
		"conin$", "CONOUT$", "com¹", "lpt³", "aux.tar.gz", "nul ", "con."}
	for _, n := range names {
		if s := Make(n); Reserved(s) {
			t.Errorf("Make(%q) = %q, reserved on Windows", n, s)
		}
		if s := ID(n); Reserved(s) {
			t.Errorf("ID(%q) = %q, reserved on Windows", n, s)
		}
	}
	items := []Item{{Key: "con", Name: "CON"}, {Key: "nul", Name: "nul"}, {Key: "x1", Name: "Con 1"}, {Key: "x2", Name: "com1"}, {Key: "x3", Name: "Com1 1"}}
	got := Assign(items)
	seen := map[string]string{}
	for k, s := range got {
		if Reserved(s) || !safe(s) {
			t.Errorf("Assign: %s → %q, not a safe name on Windows", k, s)
		}
		if prev, dup := seen[s]; dup {
			t.Errorf("Assign: %s and %s share %q", k, prev, s)
		}
		seen[s] = k
	}
	if again := Assign(items); again["con"] != got["con"] || again["x1"] != got["x1"] {
		t.Errorf("Assign not deterministic: %v vs %v", again, got)
	}
}

func TestReserved(t *testing.T) {
	tests := []struct {
		seg  string
		want bool
	}{
		{"con", true}, {"CON", true}, {"con.md", true}, {"Con.tar.gz", true}, {"aux .txt", true},
		{"com1", true}, {"COM9.html", true}, {"com²", true}, {"lpt¹.md", true}, {"conin$", true},
		{"CONOUT$.log", true}, {"nul", true}, {"prn", true}, {"name.", true}, {"name ", true},
		{"con-1", false}, {"console", false}, {"com10", false}, {"lpt", false}, {"icon", false},
		{"01-con.md", false}, {"index.html", false}, {".", false}, {"..", false}, {"", false},
	}
	for _, tt := range tests {
		if got := Reserved(tt.seg); got != tt.want {
			t.Errorf("Reserved(%q) = %v, want %v", tt.seg, got, tt.want)
		}
	}
}

// safe is the rule every slug keeps: valid UTF-8 in NFC, lower case, at
// most maxLen bytes, letters, digits and marks on a letter in runs joined
// by single dashes, and not a name Windows reserves.
func safe(s string) bool {
	if s == "" || len(s) > maxLen || !utf8.ValidString(s) || !norm.NFC.IsNormalString(s) || Reserved(s) ||
		strings.ToLower(s) != s || strings.HasPrefix(s, "-") || strings.HasSuffix(s, "-") || strings.Contains(s, "--") {
		return false
	}
	prev := '-'
	for _, r := range s {
		switch {
		case r == '-':
		case unicode.IsLetter(r) || unicode.IsDigit(r):
		case unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me) && prev != '-':
		default:
			return false
		}
		prev = r
	}
	return true
}

func FuzzSlug(f *testing.F) {
	for _, s := range []string{"Algebra 1", "../..", "日本語", "", "a\x00b", "Ünïcödé", strings.Repeat("x", 300), "CON", "nul.md", "com1", "Lpt9 ",
		"Tiếng Việt cơ bản", "Математика 5 класс", "गणित", "\u0301a", "a\u0301\u0301", strings.Repeat("é", 40), "ǅ", "ﬃ", "İ"} {
		f.Add(s, "other")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		s := Make(a)
		if s != "" && !safe(s) {
			t.Fatalf("Make(%q) = %q is not safe", a, s)
		}
		if again := Make(s); again != s {
			t.Fatalf("Make(%q) = %q, but Make(%q) = %q: not idempotent", a, s, s, again)
		}
		sa, sb := ID(a), ID(b)
		if !safe(sa) || !safe(sb) {
			t.Fatalf("ID not safe: %q→%q, %q→%q", a, sa, b, sb)
		}
		if a != b && sa == sb {
			t.Fatalf("ID(%q) = ID(%q) = %q", a, b, sa)
		}
		if a == b+"x" {
			return // the two items below would be one
		}
		m := Assign([]Item{{Key: a, Name: b}, {Key: b + "x", Name: b}}, "base")
		if m[a] == m[b+"x"] || !safe(m[a]) || !safe(m[b+"x"]) || m[a] == "base" {
			t.Fatalf("Assign gave %v", m)
		}
	})
}

// TestAssignScripts keeps siblings apart whose names differ only in case,
// accents or Unicode normalization, in any script.
func TestAssignScripts(t *testing.T) {
	items := []Item{
		{Key: "1", Name: "Математика"}, {Key: "2", Name: "МАТЕМАТИКА"},
		{Key: "3", Name: "Café"}, {Key: "4", Name: "Cafe\u0301"}, {Key: "5", Name: "Cafe"},
		{Key: "6", Name: "数学"}, {Key: "7", Name: "数学 "},
		{Key: "8", Name: "Tiếng Việt"}, {Key: "9", Name: "Tieng Viet"},
	}
	got := Assign(items)
	want := map[string]string{"1": "математика", "2": "математика-2", "3": "cafe", "4": "cafe-4", "5": "cafe-5",
		"6": "数学", "7": "数学-7", "8": "tieng-viet", "9": "tieng-viet-9"}
	for k, v := range want {
		if got[k] != v || !safe(got[k]) {
			t.Errorf("slug of %s (%q) = %q, want %q", k, items[k[0]-'1'].Name, got[k], v)
		}
	}
}
