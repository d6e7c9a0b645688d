// Literal block scalars ("|") of the fast path.

package fbcyaml

import "bytes"

// literal parses a literal block scalar ("|") whose header is at pos, in a
// collection at column parent, with go-yaml's indentation detection and
// chomping.
func (p *fastParser) literal(parent int) string {
	header := p.pos
	p.pos++ // '|'
	chomp, increment := 0, 0
	for k := 0; k < 2; k++ {
		switch c := p.at(p.pos); {
		case (c == '+' || c == '-') && chomp == 0:
			chomp = 1
			if c == '-' {
				chomp = -1
			}
			p.pos++
		case c >= '1' && c <= '9' && increment == 0:
			increment = int(c - '0')
			p.pos++
		}
	}
	p.endLine()
	indent := 0
	if increment > 0 {
		indent = increment
		if parent >= 0 {
			indent = parent + increment
		}
	}
	var leadingBreak, trailingBreaks []byte
	s := p.text[:0]
	p.blockBreaks(&indent, &trailingBreaks, parent)
	for p.col() == indent && p.pos < len(p.d) {
		s = append(s, leadingBreak...)
		leadingBreak = leadingBreak[:0]
		s = append(s, trailingBreaks...)
		trailingBreaks = trailingBreaks[:0]
		end := bytes.IndexByte(p.d[p.pos:], '\n')
		if end < 0 {
			panic(bail{})
		}
		s = append(s, p.d[p.pos:p.pos+end]...)
		p.pos += end
		leadingBreak = append(leadingBreak, '\n')
		p.newline()
		p.blockBreaks(&indent, &trailingBreaks, parent)
	}
	if chomp != -1 {
		s = append(s, leadingBreak...)
	}
	if chomp == 1 {
		s = append(s, trailingBreaks...)
	}
	// Leave pos at the start of the line that ended the scalar (or at the
	// end of a document that ends on the header line).
	if p.lineStart > header {
		p.pos = p.lineStart
	}
	return p.builtText(s)
}

// blockBreaks eats indentation and empty lines before block scalar content,
// detecting the indentation if it is still 0.
func (p *fastParser) blockBreaks(indent *int, breaks *[]byte, parent int) {
	maxIndent := 0
	for {
		for (*indent == 0 || p.col() < *indent) && p.at(p.pos) == ' ' {
			p.pos++
		}
		maxIndent = max(maxIndent, p.col())
		if p.at(p.pos) != '\n' {
			break
		}
		*breaks = append(*breaks, '\n')
		p.newline()
	}
	if *indent == 0 {
		*indent = max(maxIndent, parent+1, 1)
	}
}
