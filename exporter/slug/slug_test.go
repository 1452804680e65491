package slug

import (
	"strings"
	"testing"
	"unicode/utf8"
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
		{"العربية", ""},
		{"日本語", ""},
		// Latin diacritics fold, whether precomposed or combining.
		{"Tiếng Việt cơ bản", "tieng-viet-co-ban"},
		{"Tie\u0302\u0301ng Vie\u0302\u0323t", "tieng-viet"},
		{"Đại số lớp 10", "dai-so-lop-10"},
		{"Øvelser i Ærø", "ovelser-i-aero"},
		{"Straße", "strasse"},
		{"Łódź", "lodz"},
		{"İstanbul'da matematik", "istanbulda-matematik"},
		// Cyrillic and Greek are transliterated.
		{"Математика 5 класс", "matematika-5-klass"},
		{"Объём и площадь", "obyom-i-ploshchad"},
		{"Українська мова", "ukrayinska-mova"},
		{"Άλγεβρα Α΄ Λυκείου", "algevra-a-lykeiou"},
		// Letters of other scripts are not dropped for the digits beside them.
		{"数学 5", ""},
		{"الرياضيات 101", ""},
		{"Unit 3 数学", "unit-3"},
		{"", ""},
		{"..", ""},
		{"line\nbreak\x00nul", "line-break-nul"},
		{"\u202eevil\u202c", "evil"},
		{strings.Repeat("abc ", 40), strings.TrimRight(strings.Repeat("abc-", 16), "-")},
	}
	for _, tt := range tests {
		if got := Make(tt.in); got != tt.want {
			t.Errorf("Make(%q) = %q, want %q", tt.in, got, tt.want)
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
	}
	got := Assign(items, "base")
	want := map[string]string{"111": "texas", "113": "california", "120": "texas-120", "130": "base-130", "140": "140"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("slug of %s = %q, want %q", k, got[k], v)
		}
	}
	// The API's order does not matter.
	rev := []Item{items[4], items[3], items[2], items[1], items[0]}
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

func safe(s string) bool {
	if s == "" || s == "." || s == ".." || len(s) > maxLen || !utf8.ValidString(s) || Reserved(s) {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func FuzzSlug(f *testing.F) {
	for _, s := range []string{"Algebra 1", "../..", "日本語", "", "a\x00b", "Ünïcödé", strings.Repeat("x", 300), "CON", "nul.md", "com1", "Lpt9 "} {
		f.Add(s, "other")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if s := Make(a); s != "" && !safe(s) {
			t.Fatalf("Make(%q) = %q is not safe", a, s)
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

// TestAssignAcrossScripts: names that spell alike in ASCII stay apart
// among siblings, and a name in a script with no spelling takes its id.
func TestAssignAcrossScripts(t *testing.T) {
	got := Assign([]Item{{Key: "1", Name: "Математика"}, {Key: "2", Name: "Matematika"}, {Key: "3", Name: "数学 5"}, {Key: "4", Name: "Tiếng Việt"}})
	want := map[string]string{"1": "matematika", "2": "matematika-2", "3": "3", "4": "tieng-viet"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("slug of %s = %q, want %q", k, got[k], v)
		}
	}
}
