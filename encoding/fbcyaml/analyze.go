package fbcyaml

import (
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// scalarData is a scalar ready to write: its text, the style go-yaml's
// marshaller asks for, and the emitter's analysis of the text.
type scalarData struct {
	text       string
	style      scalarStyle
	ascii      bool // one byte per character
	multiline  bool
	blockPlain bool
	single     bool
	block      bool
}

// scalarFlags are what go-yaml's analysis (yaml_emitter_analyze_scalar)
// notes while it looks at a scalar's characters. What only matters inside
// flow collections is left out: the emitter writes none but {} and [].
type scalarFlags struct {
	blockIndicators, lineBreaks, special                     bool
	leadingSpace, leadingBreak, trailingSpace, trailingBreak bool
	breakSpace, spaceBreak                                   bool

	previousSpace, previousBreak, precededByWhitespace bool
}

// Byte classes of plainRun: after a scalar's first character, the bytes
// that are nothing but themselves (no indicator or line break, printable),
// ASCII or part of a multi-byte character, and the space, which only
// matters to the characters around it.
const (
	runASCII    = 1
	runNonASCII = 2
)

var plainRunClass = func() (t [256]uint8) {
	for c := 0x20; c <= 0x7E; c++ {
		t[c] = runASCII
	}
	t[':'], t['#'] = 0, 0
	// Continuation bytes, and the lead bytes of printable characters that
	// are never line breaks: U+00C0 to U+CFFF and U+E000 to U+EFFF
	// (0xC2 may start NEL, 0xE2 the line and paragraph separators, 0xED
	// surrogates, 0xEF the BOM and non-characters, 0xF0 and up characters
	// that go-yaml calls unprintable).
	for c := 0x80; c <= 0xBF; c++ {
		t[c] = runNonASCII
	}
	for c := 0xC3; c <= 0xEC; c++ {
		t[c] = runNonASCII
	}
	t[0xE2] = 0
	t[0xEE] = runNonASCII
	return
}()

// plainRun returns the end of the run of plainRunClass bytes from i, and
// whether it is all ASCII.
func plainRun(s string, i int) (int, bool) {
	for ; i+8 <= len(s); i += 8 {
		if x := value.Word(s, i); !value.Printable(x, ' ') || value.HasByte(x, ':') || value.HasByte(x, '#') {
			break
		}
	}
	var class uint8
	for ; i < len(s); i++ {
		c := plainRunClass[s[i]]
		if c == 0 {
			break
		}
		class |= c
	}
	return i, class&runNonASCII == 0
}

// analyze decides which styles can carry text, as go-yaml's emitter does.
// Runs of characters that are neither indicators nor line breaks are
// looked at in one go, so that long scalars (base64 data, prose) cost one
// pass over a table.
func analyze(text string) scalarData {
	d := scalarData{text: text, ascii: true}
	if len(text) == 0 {
		d.blockPlain = true
		d.single = true
		return d
	}
	var f scalarFlags
	if strings.HasPrefix(text, "---") || strings.HasPrefix(text, "...") {
		f.blockIndicators = true
	}
	f.precededByWhitespace = true
	for i := 0; i < len(text); {
		if i > 0 {
			if j, ascii := plainRun(text, i); j > i {
				d.ascii = d.ascii && ascii
				f.run(text, i, j)
				i = j
				continue
			}
		}
		if text[i] >= 0x80 {
			d.ascii = false
		}
		i += f.char(text, i)
	}
	f.allowStyles(&d)
	return d
}

// run notes the run text[i:j] of plainRunClass bytes, i > 0: what its
// spaces do (a space after a break, a trailing space) and whether it ends
// in one.
func (f *scalarFlags) run(text string, i, j int) {
	if text[i] == ' ' && f.previousBreak {
		f.breakSpace = true
	}
	last := text[j-1] == ' '
	if last && j == len(text) {
		f.trailingSpace = true
	}
	f.previousSpace, f.previousBreak, f.precededByWhitespace = last, false, last
}

// char notes the character at text[i] and returns its width.
func (f *scalarFlags) char(text string, i int) int {
	w := charWidth(text[i])
	followedByWhitespace := i+w >= len(text) || isBlank(text, i+w)
	if i == 0 {
		f.firstIndicator(text[0], followedByWhitespace)
	} else {
		f.indicator(text[i], followedByWhitespace)
	}
	if !isPrintable(text, i) {
		f.special = true
	}
	switch {
	case text[i] == ' ':
		if i == 0 {
			f.leadingSpace = true
		}
		if i+w == len(text) {
			f.trailingSpace = true
		}
		if f.previousBreak {
			f.breakSpace = true
		}
		f.previousSpace, f.previousBreak = true, false
	case isBreak(text, i):
		f.lineBreaks = true
		if i == 0 {
			f.leadingBreak = true
		}
		if i+w == len(text) {
			f.trailingBreak = true
		}
		if f.previousSpace {
			f.spaceBreak = true
		}
		f.previousSpace, f.previousBreak = false, true
	default:
		f.previousSpace, f.previousBreak = false, false
	}
	f.precededByWhitespace = isBlankOrEnd(text, i)
	return w
}

// firstIndicator notes the indicators that matter at a scalar's start.
func (f *scalarFlags) firstIndicator(c byte, followedByWhitespace bool) {
	switch c {
	case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		f.blockIndicators = true
	case '?', ':', '-':
		if followedByWhitespace {
			f.blockIndicators = true
		}
	}
}

// indicator notes the indicators that matter inside a scalar.
func (f *scalarFlags) indicator(c byte, followedByWhitespace bool) {
	switch c {
	case ':':
		if followedByWhitespace {
			f.blockIndicators = true
		}
	case '#':
		if f.precededByWhitespace {
			f.blockIndicators = true
		}
	}
}

// allowStyles turns what was noted into the styles that can carry the
// scalar.
func (f *scalarFlags) allowStyles(d *scalarData) {
	d.multiline = f.lineBreaks
	d.blockPlain, d.single, d.block = true, true, true
	if f.leadingSpace || f.leadingBreak || f.trailingSpace || f.trailingBreak {
		d.blockPlain = false
	}
	if f.trailingSpace {
		d.block = false
	}
	if f.breakSpace {
		d.blockPlain, d.single = false, false
	}
	if f.spaceBreak || f.special {
		d.blockPlain, d.single, d.block = false, false, false
	}
	if f.lineBreaks {
		d.blockPlain = false
	}
	if f.blockIndicators {
		d.blockPlain = false
	}
}

func charWidth(b byte) int {
	switch {
	case b&0x80 == 0x00:
		return 1
	case b&0xE0 == 0xC0:
		return 2
	case b&0xF0 == 0xE0:
		return 3
	case b&0xF8 == 0xF0:
		return 4
	}
	return 1
}

// at returns s[i], or 0 past the end (libyaml reads a terminating NUL).
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isBreak(s string, i int) bool {
	c := at(s, i)
	return c == '\r' || c == '\n' ||
		c == 0xC2 && at(s, i+1) == 0x85 ||
		c == 0xE2 && at(s, i+1) == 0x80 && (at(s, i+2) == 0xA8 || at(s, i+2) == 0xA9)
}

func isBlank(s string, i int) bool { c := at(s, i); return c == ' ' || c == '\t' }

func isBlankOrEnd(s string, i int) bool { return isBlank(s, i) || isBreak(s, i) || at(s, i) == 0 }

func isPrintable(s string, i int) bool {
	c, c1, c2 := at(s, i), at(s, i+1), at(s, i+2)
	return c == 0x0A ||
		c >= 0x20 && c <= 0x7E ||
		c == 0xC2 && c1 >= 0xA0 ||
		c > 0xC2 && c < 0xED ||
		c == 0xED && c1 < 0xA0 ||
		c == 0xEE ||
		c == 0xEF && !(c1 == 0xBB && c2 == 0xBF) && !(c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF))
}
