package jsonstr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// hostile are strings every escape of the package meets.
var hostile = []string{
	"", "plain", `"quoted" \ back`, "<>&", "</script><!--", "tab\tnl\ncr\rbs\bff\f",
	"\x00\x01\x1f\x7f", "bad \xff\xfe utf8 \xe2\x82", "\u2028\u2029", "éß中文العربية😀",
	"\xed\xa0\x80", "a\u2028b<c>d&e\"f\\g",
}

// withoutHTMLEscaping is s as an encoding/json Encoder writes it with
// SetEscapeHTML(false).
func withoutHTMLEscaping(t testing.TB, s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// check fails t when Append, AppendEscaped or AppendHTMLSafe write s
// otherwise than encoding/json; each appends to bytes already there.
func check(t testing.TB, s string) {
	t.Helper()
	want := withoutHTMLEscaping(t, s)
	if got := string(Append([]byte("x"), s)); got != "x"+want {
		t.Errorf("Append(%q) = %s, encoding/json writes %s", s, got[1:], want)
	}
	if got := string(AppendEscaped([]byte("x"), s)); got != "x"+want[1:len(want)-1] {
		t.Errorf("AppendEscaped(%q) = %s, want %s unquoted", s, got[1:], want)
	}
	marshal, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(AppendHTMLSafe([]byte("x"), s)); got != "x"+string(marshal) {
		t.Errorf("AppendHTMLSafe(%q) = %s, json.Marshal writes %s", s, got[1:], marshal)
	}
}

func TestMatchesEncodingJSON(t *testing.T) {
	for _, s := range hostile {
		check(t, s)
	}
}

func TestHTMLSafeCannotEndAScript(t *testing.T) {
	got := string(AppendHTMLSafe(nil, "</script>&"))
	if strings.ContainsAny(got, "<>&") {
		t.Errorf("AppendHTMLSafe kept a <, > or &: %s", got)
	}
	if got := string(Append(nil, "<b>&")); got != `"<b>&"` {
		t.Errorf("Append escaped HTML: %s", got)
	}
}

// FuzzAppend: every string is written as encoding/json writes it, with
// and without HTML escaping.
func FuzzAppend(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { check(t, s) })
}

func ExampleAppendHTMLSafe() {
	fmt.Println(string(AppendHTMLSafe(nil, "x < y & \u2028")))
	fmt.Println(string(Append(nil, "x < y & \u2028")))
	// Output:
	// "x \u003c y \u0026 \u2028"
	// "x < y & \u2028"
}
