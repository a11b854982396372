package content

import (
	"bytes"
	"regexp"
	"strconv"
)

// The text library sizes its cross-reference table by the object numbers
// a PDF's xref sections claim, before it reads an object: a table that
// claims object 99,999,990 in a file of 839 bytes made it allocate 3 GB.
// A real file never numbers its objects past its own size in bytes (each
// object takes bytes), so a claim past that is refused before the
// library sees it.

var (
	// xrefSize is an xref stream's or a trailer's /Size, and an xref
	// stream's /Index array.
	xrefSize  = regexp.MustCompile(`/Size\s+(\d+)`)
	xrefIndex = regexp.MustCompile(`/Index\s*\[([\d\s]*)\]`)
	// xrefSubsection is the header of an xref table's subsection: its
	// first object number and how many follow.
	xrefSubsection = regexp.MustCompile(`(?m)^[ \t]*(\d+)[ \t]+(\d+)[ \t]*\r?$`)
)

// checkXrefClaims refuses a PDF whose cross-reference sections claim an
// object number past maxObjects.
func checkXrefClaims(data []byte, maxObjects int64) error {
	tooMany := func(n int64) error {
		return Refuse(ErrDamaged, "the PDF's cross-reference table claims object %d in a file of %d bytes: it is damaged or hostile", n, len(data))
	}
	number := func(b []byte) int64 {
		n, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			return -1 // more digits than an int64: past any bound
		}
		return n
	}
	for _, m := range xrefSize.FindAllSubmatch(data, -1) {
		if n := number(m[1]); n < 0 || n > maxObjects {
			return tooMany(n)
		}
	}
	for _, m := range xrefIndex.FindAllSubmatch(data, -1) {
		f := bytes.Fields(m[1])
		for i := 0; i+1 < len(f); i += 2 {
			start, count := number(f[i]), number(f[i+1])
			if start < 0 || count < 0 || start+count > maxObjects {
				return tooMany(max(start, 0) + max(count, 0))
			}
		}
	}
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte("xref"))
		if i < 0 {
			return nil
		}
		at := off + i
		off = at + 4
		// The keyword starts its line: not startxref, not text that
		// happens to hold the word.
		if at > 0 && data[at-1] != '\n' && data[at-1] != '\r' {
			continue
		}
		end := bytes.Index(data[off:], []byte("trailer"))
		if end < 0 {
			end = len(data) - off
		}
		for _, m := range xrefSubsection.FindAllSubmatch(data[off:off+end], -1) {
			start, count := number(m[1]), number(m[2])
			// An entry line ("0000000009 00000 n") has three fields; a
			// header has two, the first object number and the count.
			if start < 0 || count < 0 || start+count > maxObjects {
				return tooMany(max(start, 0) + max(count, 0))
			}
		}
	}
}
