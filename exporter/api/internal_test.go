package api

import (
	"encoding/json"
	"math"
	"net/url"
	"testing"
	"time"
)

func TestFlexInt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{`7`, 7, true}, {`-3`, -3, true}, {`0`, 0, true}, {`89.9`, 89, true}, {`-1.5`, -1, true}, {`1e3`, 1000, true},
		{`"12"`, 12, true}, {`" 12 "`, 12, true}, {`""`, 0, true}, {`null`, 5, true}, {`"4.0"`, 4, true},
		{`1e400`, math.MaxInt, true}, {`-1e400`, math.MinInt, true}, {`99999999999999999999`, math.MaxInt, true},
		{`"NaN"`, 0, false}, {`"Inf"`, 0, false}, {`"-infinity"`, 0, false}, {`"many"`, 0, false}, {`true`, 0, false}, {`[1]`, 0, false}, {`{}`, 0, false},
	} {
		n := flexInt(5)
		err := json.Unmarshal([]byte(tc.in), &n)
		if (err == nil) != tc.ok || (tc.ok && int(n) != tc.want) {
			t.Errorf("flexInt(%s) = %d, %v; want %d (ok %v)", tc.in, n, err, tc.want, tc.ok)
		}
	}
}

func TestFlexBool(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
		ok   bool
	}{
		{`true`, true, true}, {`false`, false, true}, {`null`, true, true}, {`"true"`, true, true}, {`"False"`, false, true},
		{`"1"`, true, true}, {`"0"`, false, true}, {`"yes"`, true, true}, {`"NO"`, false, true}, {`""`, false, true},
		{`1`, true, true}, {`0`, false, true}, {`0.0`, false, true}, {`2`, true, true},
		{`"maybe"`, false, false}, {`{}`, false, false}, {`[]`, false, false},
	} {
		v := flexBool(true)
		err := json.Unmarshal([]byte(tc.in), &v)
		if (err == nil) != tc.ok || (tc.ok && bool(v) != tc.want) {
			t.Errorf("flexBool(%s) = %v, %v; want %v (ok %v)", tc.in, v, err, tc.want, tc.ok)
		}
	}
}

func TestFlexString(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{`"abc"`, "abc", true}, {`""`, "", true}, {`101`, "101", true}, {`-1.5e3`, "-1.5e3", true}, {`null`, "keep", true},
		{`"\u00e9"`, "é", true}, {`true`, "", false}, {`{"id":1}`, "", false}, {`["a"]`, "", false},
	} {
		s := flexString("keep")
		err := json.Unmarshal([]byte(tc.in), &s)
		if (err == nil) != tc.ok || (tc.ok && string(s) != tc.want) {
			t.Errorf("flexString(%s) = %q, %v; want %q (ok %v)", tc.in, s, err, tc.want, tc.ok)
		}
	}
}

func TestFlexTime(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	for _, tc := range []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{`"2025-05-12T15:00:00Z"`, utc(2025, 5, 12, 15, 0, 0, 0), true},
		{`"2025-05-12T15:00:00.250Z"`, utc(2025, 5, 12, 15, 0, 0, 250e6), true},
		{`"2025-05-12T17:00:00+02:00"`, utc(2025, 5, 12, 15, 0, 0, 0), true},
		{`"2025-05-12T17:00:00+0200"`, utc(2025, 5, 12, 15, 0, 0, 0), true},
		{`"2025-05-12 15:00:00Z"`, utc(2025, 5, 12, 15, 0, 0, 0), true},
		{`"2025-05-12T15:00:00"`, utc(2025, 5, 12, 15, 0, 0, 0), true},
		{`"2025-05-12"`, utc(2025, 5, 12, 0, 0, 0, 0), true},
		{`1747062000`, utc(2025, 5, 12, 15, 0, 0, 0), true},
		{`"yesterday"`, time.Time{}, true},
		{`""`, time.Time{}, true},
		{`null`, time.Time{}, true},
		{`1e300`, time.Time{}, true},
		{`-5`, time.Time{}, true},
		{`true`, time.Time{}, false},
		{`{}`, time.Time{}, false},
	} {
		var ft flexTime
		err := json.Unmarshal([]byte(tc.in), &ft)
		if (err == nil) != tc.ok || !ft.Equal(tc.want) {
			t.Errorf("flexTime(%s) = %v, %v; want %v (ok %v)", tc.in, ft.Time, err, tc.want, tc.ok)
		}
	}
}

func TestNodeTypeWire(t *testing.T) {
	for in, want := range map[string]NodeType{
		`{"name":"unit","display_name":"Unit","icon":"book","x":1}`: {Name: "unit", DisplayName: "Unit", Icon: "book"},
		`"lesson"`: {Name: "lesson"},
		`null`:     {},
	} {
		var w nodeTypeWire
		if err := json.Unmarshal([]byte(in), &w); err != nil || w.nodeType() != want {
			t.Errorf("node_type %s = %+v, %v; want %+v", in, w, err, want)
		}
	}
	var w nodeTypeWire
	if err := json.Unmarshal([]byte(`7`), &w); err == nil {
		t.Error("node_type 7 accepted")
	}
}

func TestSanitize(t *testing.T) {
	for _, tc := range []struct {
		in    string
		limit int
		want  string
	}{
		{"plain", 80, "plain"},
		{"  lead and trail \n", 80, "lead and trail"},
		{"a\n\n\tb\r\nc", 80, "a b c"},
		{"\x1b[31mred\x1b[0m", 80, "[31mred [0m"},
		{"bidi\u202eevil\u200b", 80, "bidi evil"},
		{"line\u2028sep", 80, "line sep"},
		{"bad\xffbyte", 80, "bad\ufffdbyte"},
		{"0123456789", 4, "0123…"},
		{"0123   ", 4, "0123"},
		{"ééé", 3, "éé…"},
		{"", 80, ""},
	} {
		if got := sanitize(tc.in, tc.limit); got != tc.want {
			t.Errorf("sanitize(%q, %d) = %q, want %q", tc.in, tc.limit, got, tc.want)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LocalHost": true, "localhost.": true, "127.0.0.1": true, "127.255.255.254": true,
		"::1": true, "::ffff:127.0.0.1": true, "0:0:0:0:0:0:0:1": true,
		"localhost.example.org": false, "mylocalhost": false, "128.0.0.1": false, "10.0.0.1": false, "::": false,
		"0.0.0.0": false, "::2": false, "example.org": false, "": false, "127.0.0.1.nip.io": false,
	} {
		if got := isLoopback(host); got != want {
			t.Errorf("isLoopback(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestSameOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"https://api.example.org/a", "https://api.example.org/b?x=1", true},
		{"https://api.example.org/a", "https://API.example.org:443/b", true},
		{"http://127.0.0.1/a", "http://127.0.0.1:80/b", true},
		{"https://api.example.org", "http://api.example.org", false},
		{"https://api.example.org", "https://api.example.org:8443", false},
		{"https://api.example.org", "https://cdn.api.example.org", false},
		{"https://api.example.org", "https://example.org", false},
		{"http://127.0.0.1:1000", "http://127.0.0.1:2000", false},
		{"http://127.0.0.1:1000", "http://localhost:1000", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := sameOrigin(a, b); got != tc.want {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestEscapeID(t *testing.T) {
	for id, want := range map[string]string{
		"101": "101", "curriculum_201": "curriculum_201", "a b": "a%20b", "a/b": "a%2Fb", "a?b#c": "a%3Fb%23c",
		"100%": "100%25", ".": "%2E", "..": "%2E%2E", "...": "...", "é": "%C3%A9",
	} {
		got, err := escapeID("test", id)
		if err != nil || got != want {
			t.Errorf("escapeID(%q) = %q, %v; want %q", id, got, err, want)
		}
	}
	if _, err := escapeID("test", ""); err == nil {
		t.Error("escapeID(\"\") succeeded")
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{
		256 << 20: "256 MiB", 1 << 30: "1 GiB", 4 << 10: "4 KiB", 1000: "1000 bytes", 1536: "1536 bytes", 3 << 20: "3 MiB",
	} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		v, date string
		want    time.Duration
		ok      bool
	}{
		{"30", "", 30 * time.Second, true},
		{" 30 ", "", 30 * time.Second, true},
		{"0.25", "", 250 * time.Millisecond, true},
		{"Fri, 01 May 2026 12:01:00 GMT", "", time.Minute, true},
		{"Fri, 01 May 2026 12:01:00 GMT", "Fri, 01 May 2026 12:00:30 GMT", 30 * time.Second, true},
		{"Fri, 01 May 2026 11:00:00 GMT", "", 0, true},
		{"Fri, 01 May 2026 12:01:00 GMT", "garbage", time.Minute, true},
		{"Sat, 01 Jan 9999 00:00:00 GMT", "", maxRetryAfter, true},
		{"1e30", "", maxRetryAfter, true},
		{"-1", "", 0, false},
		{"+1", "", 0, false},
		{"NaN", "", 0, false},
		{"1s", "", 0, false},
		{"", "", 0, false},
	} {
		got, ok := ParseRetryAfter(tc.v, tc.date, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseRetryAfter(%q, %q) = %v, %v; want %v, %v", tc.v, tc.date, got, ok, tc.want, tc.ok)
		}
	}
}
