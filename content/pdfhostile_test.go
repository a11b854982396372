package content_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"convfiles/content"
	"convfiles/internal/hostile"
)

// TestHostilePDFsAreRefusedBeforeTheWork: a page tree that is a cycle
// (the text library walked it forever) and a content stream that
// inflates to 300 MB are refused with why, without the walk or the
// inflation that would never end or exhaust memory.
func TestHostilePDFsAreRefusedBeforeTheWork(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		kind error
		msg  string
	}{
		{"a cyclic page tree", hostile.CyclicPDF(), content.ErrDamaged, "page tree loops"},
		{"a 300 MB content stream", hostile.FlateBombPDF(300 << 20), content.ErrTooLarge, "inflate to more than 256 MiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := content.ReadPDFText(context.Background(), c.data, nil, 1000)
			if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("%d bytes: %v", len(c.data), err)
			}
			parsed := content.Parse("x.pdf", c.data)
			if s := parsed.String(); !strings.Contains(s, "PDF") {
				t.Fatalf("read_file's content: %s", s)
			}
		})
	}
	small := hostile.FlateBombPDF(1 << 20)
	if _, err := content.ReadPDFText(context.Background(), small, nil, 1000); err != nil {
		t.Fatalf("a page of 1 MiB of spaces: %v", err)
	}
}
