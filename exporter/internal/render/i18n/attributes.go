package i18n

import (
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

// AttributeLabel is the label of the attribute member key in the language
// of m ("Objetivos de aprendizaje" for "learning_objectives" in Spanish),
// for the members the catalogs name; "" for any other key, which the
// formats humanize (content.DefaultLabel). Every format labels attributes
// by it: m.AttributeLabel is a content.Labels.
func (m Messages) AttributeLabel(key string) string {
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
