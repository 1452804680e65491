package attrs

import (
	"net/url"
	"regexp"
	"strings"
	"time"
)

// countKeys are member keys that count something though they do not end
// in "_count".
var countKeys = map[string]bool{"count": true, "points": true, "points_possible": true, "max_points": true, "total_points": true}

// plainNumber is a JSON number literal without an exponent: a sign, digits
// and a fraction, which a count shows with its digits grouped.
var plainNumber = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// Count reports the number literal v holds when the member's key says it
// counts something ("item_count", "word-count", "num_items",
// "number_of_tasks", "points_possible", "points", "count"; any case) and
// v is a number without an exponent. The formats then write it with the
// digit grouping of the page's language (12,500; 12.500; 12 500); any
// other number is shown as given, so a year or an identifier is never
// grouped.
func Count(key string, v Value) (string, bool) {
	k := strings.ToLower(strings.ReplaceAll(key, "-", "_"))
	if v.Kind != Number || !plainNumber.MatchString(v.Text) {
		return "", false
	}
	if countKeys[k] || strings.HasSuffix(k, "_count") || strings.HasPrefix(k, "num_") || strings.HasPrefix(k, "number_of_") ||
		strings.HasSuffix(k, "_points") {
		return v.Text, true
	}
	return "", false
}

// dateOnly is a calendar date as RFC 3339 writes it.
var dateOnly = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)

// Date reports the calendar date a Text value is: a date alone
// ("2026-03-03") or an RFC 3339 date and time ("2026-03-03T09:00:00-05:00"),
// nothing else around it but white space. The date is the one written,
// in the time's own offset: never the machine's time zone. The result is
// midnight UTC of that date, for i18n.Messages.Date.
func Date(v Value) (time.Time, bool) {
	if v.Kind != Text {
		return time.Time{}, false
	}
	s := strings.TrimSpace(v.Text)
	if len(s) < len(time.DateOnly) || s[4] != '-' || !dateOnly.MatchString(s[:len(time.DateOnly)]) {
		return time.Time{}, false
	}
	if len(s) > len(time.DateOnly) {
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return time.Time{}, false
		}
	}
	d, err := time.Parse(time.DateOnly, s[:len(time.DateOnly)])
	if err != nil {
		return time.Time{}, false
	}
	return d, true
}

// maxLinkBytes bounds the URLs Link reads as links.
const maxLinkBytes = 2048

// Link reports the URL a Text value is: one absolute http or https URL
// with a host, nothing else around it but white space. The formats show
// it as a link; whether the link may be written is decided by the content
// gate of links (package content), as for a link in Markdown.
func Link(v Value) (string, bool) {
	if v.Kind != Text {
		return "", false
	}
	s := strings.TrimSpace(v.Text)
	if len(s) < len("http://") || !strings.EqualFold(s[:4], "http") || len(s) > maxLinkBytes || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == '<' || r == '>' || r == 0x7f }) {
		return "", false
	}
	u, err := url.Parse(s)
	if err != nil || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) || u.Host == "" || u.Opaque != "" {
		return "", false
	}
	return s, true
}
