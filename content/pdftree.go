package content

import (
	"errors"
	"io"

	"convfiles/internal/bytesize"

	"github.com/ledongthuc/pdf"
)

// Bounds the text reader checks before it walks a PDF or inflates a page.
const (
	// maxPageTreeDepth bounds the levels of a page tree: a real one is a
	// few levels deep; a tree whose kid is its own ancestor never ends,
	// and the text library would walk it forever.
	maxPageTreeDepth = 64
	// MaxPDFDecoded bounds the bytes a document's page contents may
	// inflate to, in all: 3.4 MB of Flate can hold a gigabyte.
	MaxPDFDecoded = 256 << 20
)

// checkPageTree walks a PDF's page tree without recursion and refuses
// one that loops (it shows up as a tree deeper than any real one) or has
// more nodes than pages allows.
func checkPageTree(r *pdf.Reader, maxNodes int) error {
	type node struct {
		v     pdf.Value
		depth int
	}
	stack := []node{{r.Trailer().Key("Root").Key("Pages"), 0}}
	for seen := 0; len(stack) > 0; seen++ {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.depth > maxPageTreeDepth {
			return Refuse(ErrDamaged, "the PDF's page tree loops back on itself (or is more than %d levels deep): it is damaged or hostile", maxPageTreeDepth)
		}
		if seen > maxNodes {
			return Refuse(ErrTooLarge, "the PDF's page tree has more than %d nodes", maxNodes)
		}
		if n.v.Key("Type").Name() != "Pages" {
			if err := checkParents(n.v); err != nil {
				return err
			}
			continue
		}
		kids := n.v.Key("Kids")
		for i := 0; i < kids.Len(); i++ {
			stack = append(stack, node{kids.Index(i), n.depth + 1})
		}
	}
	return nil
}

// checkParents walks a page's Parent chain, which the text library
// follows to find inherited resources: a chain that loops (a Pages node
// its own parent) would be followed forever.
func checkParents(page pdf.Value) error {
	v := page
	for depth := 0; !v.IsNull(); depth++ {
		if depth > maxPageTreeDepth {
			return Refuse(ErrDamaged, "the PDF's page tree loops back on itself (or is more than %d levels deep): it is damaged or hostile", maxPageTreeDepth)
		}
		v = v.Key("Parent")
	}
	return nil
}

// decodedBudget counts what a document's page contents inflate to.
type decodedBudget struct{ left int64 }

// charge inflates a page's content streams into nothing, counting, and
// refuses the page once the document's contents pass MaxPDFDecoded: the
// text library would hold them whole.
func (b *decodedBudget) charge(p pdf.Page) error {
	c := p.V.Key("Contents")
	streams := []pdf.Value{c}
	if c.Kind() == pdf.Array {
		streams = streams[:0]
		for i := 0; i < c.Len(); i++ {
			streams = append(streams, c.Index(i))
		}
	}
	for _, s := range streams {
		if err := b.chargeStream(s); err != nil {
			return err
		}
	}
	return nil
}

// chargeStream inflates one content stream (a page's, a form XObject's
// or an annotation's appearance) into nothing, counting it against the
// budget, before the text library reads it whole.
func (b *decodedBudget) chargeStream(s pdf.Value) error {
	if s.Kind() != pdf.Stream {
		return nil
	}
	rc := s.Reader()
	var lex hexCheck
	n, _ := io.Copy(&lex, io.LimitReader(rc, b.left+1))
	rc.Close()
	if b.left -= n; b.left < 0 {
		return Refuse(ErrTooLarge, "the PDF's page contents inflate to more than %s, more than convfiles reads of one document", bytesize.Format(MaxPDFDecoded))
	}
	if lex.inHex || lex.sawLT {
		// The text library reads a hex string to its ">" and, at the end of
		// the stream, forever.
		return errUnclosedHex
	}
	return nil
}

// errUnclosedHex is a content stream that ends inside a hex string: the
// page is damaged.
var errUnclosedHex = errors.New("a content stream ends inside a hex string (<…> never closed): the page is damaged")

// hexCheck follows a content stream's lexical states as it is written:
// comments, literal strings (nested, with escapes), dictionaries and hex
// strings; inHex says the stream so far ends inside a hex string.
type hexCheck struct {
	inHex, inComment, escaped, sawLT bool
	depth                            int // of literal string parentheses
}

func (h *hexCheck) Write(p []byte) (int, error) {
	for _, c := range p {
		switch {
		case h.sawLT:
			h.sawLT = false
			h.inHex = c != '<' // "<<" opens a dictionary
			if h.inHex && c == '>' {
				h.inHex = false // "<>", an empty hex string
			}
		case h.inComment:
			h.inComment = c != '\r' && c != '\n'
		case h.inHex:
			h.inHex = c != '>'
		case h.depth > 0:
			switch {
			case h.escaped:
				h.escaped = false
			case c == '\\':
				h.escaped = true
			case c == '(':
				h.depth++
			case c == ')':
				h.depth--
			}
		case c == '%':
			h.inComment = true
		case c == '(':
			h.depth = 1
		case c == '<':
			h.sawLT = true
		}
	}
	return len(p), nil
}
