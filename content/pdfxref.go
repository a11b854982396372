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
	// A PDF's white space is Go's \s and NUL.
	xrefSize  = regexp.MustCompile(`/Size[\s\x00]+(\d+)`)
	xrefIndex = regexp.MustCompile(`/Index[\s\x00]*\[([\d\s\x00]*)\]`)
	// xrefWidths are an xref stream's field widths (/W), which size the
	// buffer of one entry; predictorColumns is a predictor's /Columns,
	// which sizes its row buffers, direct or (refused) indirect.
	xrefWidths       = regexp.MustCompile(`/W[\s\x00]*\[([^\]]*)\]`)
	predictorColumns = regexp.MustCompile(`/Columns[\s\x00]+(\d+)([\s\x00]+\d+[\s\x00]+R)?`)
)

// Bounds on what sizes the text library's buffers: an xref stream's field
// is a few bytes wide, and a predictor's row is an image's width at most.
const (
	maxFieldWidth = 8
	maxColumns    = 1 << 16
)

// checkXrefClaims refuses a PDF whose cross-reference sections claim an
// object number past maxObjects, or whose xref stream fields or
// predictor rows would size a buffer past any real file's.
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
		f := pdfFields(m[1])
		for i := 0; i+1 < len(f); i += 2 {
			start, count := number(f[i]), number(f[i+1])
			if start < 0 || count < 0 || start+count > maxObjects {
				return tooMany(max(start, 0) + max(count, 0))
			}
		}
	}
	for _, loc := range xrefWidths.FindAllSubmatchIndex(data, -1) {
		if !inXrefStream(data, loc[0]) {
			continue // a CID font's glyph widths, also named /W
		}
		for _, w := range pdfFields(data[loc[2]:loc[3]]) {
			if n := number(w); n < 0 || n > maxFieldWidth {
				return Refuse(ErrDamaged, "the PDF's cross-reference stream has a field %s bytes wide, more than the %d any file needs: it is damaged or hostile", w, maxFieldWidth)
			}
		}
	}
	for _, m := range predictorColumns.FindAllSubmatch(data, -1) {
		if n := number(m[1]); len(m[2]) > 0 || n < 0 || n > maxColumns {
			return Refuse(ErrDamaged, "the PDF asks for a predictor of %s columns (at most %d, written out): it is damaged or hostile", m[1], maxColumns)
		}
	}
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte("xref"))
		if i < 0 {
			return nil
		}
		at := off + i
		off = at + 4
		// Any xref but startxref's: the library goes to the table by
		// startxref's offset, whatever precedes the keyword.
		if bytes.HasSuffix(data[:at], []byte("start")) {
			continue
		}
		end := bytes.Index(data[off:], []byte("trailer"))
		if end < 0 {
			end = len(data) - off
		}
		if n := subsectionClaim(data[off : off+end]); n < 0 || n > maxObjects {
			return tooMany(n)
		}
	}
}

// subsectionClaim reads an xref table's subsections as the text library
// does, token by token (a header is its first object number and its
// count, then three tokens an entry), and returns the highest object
// number they claim; -1 for one past any bound. It stops at what is not
// a subsection, where the library stops too.
func subsectionClaim(table []byte) int64 {
	f := pdfFields(table)
	var most int64
	for i := 0; i+1 < len(f); {
		start, err1 := strconv.ParseInt(string(f[i]), 10, 64)
		count, err2 := strconv.ParseInt(string(f[i+1]), 10, 64)
		if err1 != nil || err2 != nil {
			if len(f[i]) > 18 || len(f[i+1]) > 18 {
				return -1 // digits past an int64
			}
			return most
		}
		if start < 0 || count < 0 || start > 1<<40 || count > 1<<40 {
			return -1
		}
		most = max(most, start+count)
		if count > int64(len(f)) {
			return most // more entries than the table has tokens
		}
		i += 2 + 3*int(count)
	}
	return most
}

// pdfFields splits b at a PDF's white space, which is the text library's:
// NUL, tab, line feed, form feed, carriage return and space.
func pdfFields(b []byte) [][]byte {
	return bytes.FieldsFunc(b, func(r rune) bool {
		return r == 0 || r == '\t' || r == '\n' || r == '\f' || r == '\r' || r == ' '
	})
}

// inXrefStream reports whether the dictionary around data[at] is an xref
// stream's: between the object's start and its stream, without leaving
// the object, the dictionary names its type /XRef.
func inXrefStream(data []byte, at int) bool {
	start := bytes.LastIndex(data[:at], []byte("obj"))
	end := bytes.Index(data[at:], []byte("stream"))
	if start < 0 || end < 0 {
		return false
	}
	span := data[start : at+end]
	return !bytes.Contains(span, []byte("endobj")) && bytes.Contains(span, []byte("/XRef"))
}
