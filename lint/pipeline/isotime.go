package pipeline

import (
	"strconv"
	"strings"
	"time"

	"github.com/fbcat/opm/encoding/value"
)

// validTimestamp is the pipeline's createdAt check: an ISO 8601 date and
// time as python-dateutil's isoparse reads one (a date: YYYY, YYYY-MM,
// YYYY-MM-DD, YYYYMMDD, a week or an ordinal date; then, after any one
// separator character, a time: hh, hh:mm, hh:mm:ss with a fraction, or
// without colons, and a zone: Z, ±hh, ±hhmm or ±hh:mm), a valid one.
func validTimestamp(v *value.Value) bool {
	s := pyStr(v)
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false // isoparse takes ASCII only
		}
	}
	_, pos, ok := isoDate(s)
	if !ok {
		return false
	}
	if pos < len(s) {
		return isoTime(s[pos+1:])
	}
	return true
}

// isoDate reads the date at the start of s: whether it is a valid date,
// and where it ends.
func isoDate(s string) (t time.Time, pos int, ok bool) {
	if y, m, d, pos, ok := commonDate(s); ok {
		t, ok := civil(y, m, d)
		return t, pos, ok
	}
	return uncommonDate(s)
}

// commonDate reads YYYY, YYYY-MM, YYYY-MM-DD or YYYYMMDD.
func commonDate(s string) (y, m, d, pos int, ok bool) {
	m, d = 1, 1
	if y, ok = pyInt(s, 0, 4); !ok {
		return
	}
	pos = 4
	if pos >= len(s) {
		return y, m, d, pos, true
	}
	sep := s[pos] == '-'
	if sep {
		pos++
	}
	if m, ok = pyInt(s, pos, 2); !ok {
		return
	}
	pos += 2
	if pos >= len(s) {
		return y, m, 1, pos, sep
	}
	if sep {
		if s[pos] != '-' {
			return y, m, d, pos, false
		}
		pos++
	}
	if d, ok = pyInt(s, pos, 2); !ok {
		return
	}
	return y, m, d, pos + 2, true
}

// uncommonDate reads a week date (YYYY-Www or YYYY-Www-D, or without
// dashes) or an ordinal date (YYYY-DDD or YYYYDDD).
func uncommonDate(s string) (time.Time, int, bool) {
	y, ok := pyInt(s, 0, 4)
	if !ok {
		return time.Time{}, 0, false
	}
	sep := len(s) > 4 && s[4] == '-'
	pos := 4
	if sep {
		pos++
	}
	if pos < len(s) && s[pos] == 'W' {
		week, ok := pyInt(s, pos+1, 2)
		if !ok || week < 1 || week > 53 {
			return time.Time{}, 0, false
		}
		pos += 3
		day := 1
		if pos < len(s) {
			if (s[pos] == '-') != sep {
				return time.Time{}, 0, false
			}
			if sep {
				pos++
			}
			if day, ok = pyInt(s, pos, 1); !ok || day < 1 || day > 7 {
				return time.Time{}, 0, false
			}
			pos++
		}
		jan4 := time.Date(y, 1, 4, 0, 0, 0, 0, time.UTC)
		monday := jan4.AddDate(0, 0, -(int(jan4.Weekday())+6)%7)
		return monday.AddDate(0, 0, 7*(week-1)+day-1), pos, y >= 1
	}
	ord, ok := pyInt(s, pos, 3)
	days := 365
	if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 366
	}
	if !ok || ord < 1 || ord > days || y < 1 {
		return time.Time{}, 0, false
	}
	return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, ord-1), pos + 3, true
}

// isoTime reads the time after the date's separator: hours, minutes,
// seconds (colons throughout or nowhere), a fraction, a zone.
func isoTime(s string) bool {
	if len(s) < 2 {
		return false
	}
	comps := [4]int{}
	pos, colon := 0, false
	for comp := 0; pos < len(s) && comp < 4; comp++ {
		if strings.IndexByte("-+Zz", s[pos]) >= 0 {
			return isoZone(s[pos:])
		}
		switch {
		case comp == 1 && s[pos] == ':':
			colon = true
			pos++
		case comp == 2 && colon:
			if s[pos] != ':' {
				return false
			}
			pos++
		}
		if comp < 3 {
			n, ok := pyInt(s, pos, 2)
			if !ok {
				return false
			}
			comps[comp] = n
			pos += 2
			continue
		}
		if pos < len(s) && (s[pos] == '.' || s[pos] == ',') {
			end := pos + 1
			for end < len(s) && s[end] >= '0' && s[end] <= '9' {
				end++
			}
			if end > pos+1 {
				pos = end
			}
		}
	}
	if pos < len(s) {
		if strings.IndexByte("-+Zz", s[pos]) >= 0 {
			return isoZone(s[pos:]) && validClock(comps)
		}
		return false
	}
	return validClock(comps)
}

// validClock checks hours (24 only as 24:00:00), minutes and seconds.
func validClock(c [4]int) bool {
	if c[0] == 24 {
		return c[1] == 0 && c[2] == 0
	}
	return c[0] < 24 && c[1] < 60 && c[2] < 60
}

// isoZone reads Z, ±hh, ±hhmm or ±hh:mm.
func isoZone(s string) bool {
	if s == "Z" || s == "z" {
		return true
	}
	if len(s) != 3 && len(s) != 5 && len(s) != 6 || s[0] != '+' && s[0] != '-' {
		return false
	}
	h, ok := pyInt(s, 1, 2)
	if !ok || h > 23 {
		return false
	}
	if len(s) == 3 {
		return true
	}
	mpos := 3
	if len(s) == 6 {
		if s[3] != ':' {
			return false
		}
		mpos = 4
	}
	m, ok := pyInt(s, mpos, 2)
	return ok && m <= 59
}

// civil checks a calendar date as Python's datetime does.
func civil(y, m, d int) (time.Time, bool) {
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	return t, y >= 1 && m >= 1 && m <= 12 && d >= 1 && t.Month() == time.Month(m) && t.Day() == d
}

// pyInt reads n characters at pos as Python's int() reads them: digits,
// perhaps with a sign or white space around them.
func pyInt(s string, pos, n int) (int, bool) {
	if pos+n > len(s) || pos < 0 {
		return 0, false
	}
	t := strings.Trim(s[pos:pos+n], pyWhitespace)
	if t == "" || strings.Contains(t, "__") || strings.HasPrefix(t, "_") || strings.HasSuffix(t, "_") {
		return 0, false
	}
	v, err := strconv.Atoi(strings.ReplaceAll(t, "_", ""))
	return v, err == nil
}
