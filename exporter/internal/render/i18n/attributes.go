package i18n

import (
	"strconv"
	"strings"
	"time"
)

// attributeKeys are the attribute members whose labels the catalogs hold,
// under the member's own key.
var attributeKeys = map[string]bool{
	"description": true, "learning_objectives": true, "estimated_minutes": true, "standards": true,
	"materials": true, "vocabulary": true, "teacher_notes": true, "prerequisites": true,
	"resources": true, "assessment": true,
}

// AttributePrefix starts the words that label an attribute member:
// "attribute.teacher_notes" is the label of the member teacher_notes.
// Every key may have one, in a theme's words (i18n/<locale>.json) and in
// the publisher's attribute_labels setting (Catalog.WithAttributeLabels);
// they are the one home of an attribute's label.
const AttributePrefix = "attribute."

// AttributeLabel is the label of the attribute member key in the language
// of m: the word AttributePrefix+key when m has one (a theme's, or the
// publisher's attribute_labels), else curex's own label for the members
// the catalogs name ("Objetivos de aprendizaje" for "learning_objectives"
// in Spanish); "" for any other key, which the formats humanize
// (content.DefaultLabel). Every format labels attributes by it:
// m.AttributeLabel is a content.Labels.
func (m Messages) AttributeLabel(key string) string {
	if s, ok := m[AttributePrefix+key]; ok && strings.TrimSpace(s) != "" {
		return s
	}
	if attributeKeys[key] {
		return m.T(key)
	}
	return ""
}

// Date writes d in the language of m, as the handbook's and the book's
// covers show it: the catalog's "date_format" with the day, the month's
// name from "months", the year and the month's number; ISO 8601
// (2026-11-28) when the catalog's months are not twelve.
func (m Messages) Date(d time.Time) string {
	months := strings.Fields(m.T("months"))
	if len(months) != 12 {
		return d.Format(time.DateOnly)
	}
	return m.T("date_format", d.Day(), months[d.Month()-1], d.Year(), int(d.Month()))
}

// Duration writes a number of minutes as a duration in the language of m,
// with the short units a timetable uses: "50 min", "7 hr 30 min" in
// English, "50 分" in Japanese.
func (m Messages) Duration(minutes int) string {
	h, mm := minutes/60, minutes%60
	switch {
	case h == 0:
		return m.T("duration_minutes", mm)
	case mm == 0:
		return m.T("duration_hours", h)
	}
	return m.T("duration_hours_minutes", h, mm)
}

// YesNo writes a boolean value in the language of m ("Yes", "No").
func (m Messages) YesNo(b bool) string {
	if b {
		return m.T("yes")
	}
	return m.T("no")
}

// Number writes a JSON number literal without an exponent ("12500",
// "-3.25") as the language of m writes a count: its digits grouped by
// three with the catalog's "number_group" once the whole part has
// "number_group_min" digits or more (12,500 in English, 12.500 in
// Spanish and 1234 without grouping there, 12 500 in French), the
// catalog's "number_decimal" before the fraction, and the catalog's ten
// "digits" (Western digits in every built-in language; a theme may
// choose others). Any other text is returned as it is.
func (m Messages) Number(literal string) string {
	neg := strings.HasPrefix(literal, "-")
	whole, frac, hasFrac := strings.Cut(strings.TrimPrefix(literal, "-"), ".")
	if whole == "" || strings.Trim(whole, "0123456789") != "" || hasFrac && (frac == "" || strings.Trim(frac, "0123456789") != "") {
		return literal
	}
	var b strings.Builder
	if neg {
		b.WriteString("-")
	}
	group := m.T("number_group")
	minDigits, err := strconv.Atoi(m.T("number_group_min"))
	if err != nil || minDigits < 1 {
		minDigits = 4
	}
	for i := range len(whole) {
		if i > 0 && len(whole) >= minDigits && (len(whole)-i)%3 == 0 {
			b.WriteString(group)
		}
		b.WriteByte(whole[i])
	}
	if hasFrac {
		b.WriteString(m.T("number_decimal"))
		b.WriteString(frac)
	}
	return m.digits(b.String())
}

// digits writes the ASCII digits of s with the catalog's "digits", when
// they are ten.
func (m Messages) digits(s string) string {
	ds := []rune(m.T("digits"))
	if len(ds) != 10 || string(ds) == "0123456789" {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return ds[r-'0']
		}
		return r
	}, s)
}
