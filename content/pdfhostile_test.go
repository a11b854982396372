package content_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"convfiles/content"
	"convfiles/internal/hostile"
	"convfiles/internal/samples"
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
		{"a 300 MB form XObject and appearance", hostile.FlateBombFormPDF(300<<20, 1), content.ErrTooLarge, "inflate to more than 256 MiB"},
		{"a 1 MB form painted 1000 times", hostile.FlateBombFormPDF(1<<20, 1000), content.ErrTooLarge, "inflate to more than 256 MiB"},
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

// TestTextFarOffThePageIsDropped: a line moved 10^200 points away, and
// back, made the layout walk every baseline between them; text nowhere
// a reader could see it is dropped and the rest is read.
func TestTextFarOffThePageIsDropped(t *testing.T) {
	data := farOffTextPDF()
	got, err := content.ReadPDFText(context.Background(), data, nil, 50)
	if err != nil || len(got.Pages) != 1 || got.Pages[0].Text != "There" {
		t.Fatalf("got %+v, %v; want the page's one visible word", got, err)
	}
}

// TestAParentLoopIsRefused: a Pages node that is its own Parent made
// the text library's search for inherited resources climb forever.
func TestAParentLoopIsRefused(t *testing.T) {
	_, err := content.ReadPDFText(context.Background(), parentLoopPDF(), nil, 50)
	if !errors.Is(err, content.ErrDamaged) || !strings.Contains(err.Error(), "loops back on itself") {
		t.Fatalf("got %v, want the loop refused as damaged", err)
	}
}

// TestAHugeCrossReferenceClaimIsRefused: an xref table that numbers its
// objects from 99,999,990 made the text library allocate a table of a
// hundred million entries (3 GB) for a file of a few hundred bytes; the
// claim is refused before the library reads it, and so are the same
// claims as an xref stream's /Size and /Index.
func TestAHugeCrossReferenceClaimIsRefused(t *testing.T) {
	good := samples.RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
	})
	if _, err := content.ReadPDFText(context.Background(), good, nil, 50); err != nil {
		t.Fatalf("the well-formed file: %v", err)
	}
	for name, data := range map[string][]byte{
		"a table subsection": []byte(strings.Replace(string(good), "xref\n0 4", "xref\n99999990 4", 1)),
		// The library goes to the table by startxref's offset, whatever
		// precedes the keyword.
		"a keyword glued on": []byte(strings.Replace(string(good), "endobj\nxref\n0 4", "endobj\xbaxref\n99999990 4", 1)),
		// The library reads the table by tokens, not lines.
		"a header that runs on": []byte(strings.Replace(string(good), "xref\n0 4\n", "xref\n99999990 4 ", 1)),
		// NUL is white space to the library, and so to the check.
		"tokens apart by NUL": []byte(strings.Replace(string(good), "xref\n0 4\n", "xref\n99999990\x004\x00", 1)),
		"a /Size after a NUL": []byte(strings.Replace(string(good), "/Size 4", "/Size\x0099999990", 1)),
		"a stream's /Size":    []byte(strings.Replace(string(good), "/Size 4", "/Size 99999990", 1)),
		"a stream's /Index":   append(append([]byte{}, good...), "\n<< /Type /XRef /Index [0 5 99999990 4] >>"...),
		"a stream's /W":       append(append([]byte{}, good...), "\n9 0 obj\n<< /Type /XRef /W [1 99999999 1] >>\nstream\n"...),
		"a predictor's rows":  append(append([]byte{}, good...), "\n<< /DecodeParms << /Predictor 12 /Columns 999999999 >> >>"...),
		"indirect columns":    append(append([]byte{}, good...), "\n<< /DecodeParms << /Predictor 12 /Columns 9 0 R >> >>"...),
	} {
		if string(data) == string(good) {
			t.Fatalf("%s: the sample changed shape; the test no longer makes the claim", name)
		}
		_, err := content.ReadPDFText(context.Background(), data, nil, 50)
		if !errors.Is(err, content.ErrDamaged) || !strings.Contains(err.Error(), "damaged or hostile") {
			t.Errorf("%s: %v, want the claim refused as damaged", name, err)
		}
	}
}

// parentLoopPDF is one page whose Pages node names itself as Parent.
func parentLoopPDF() []byte {
	ops := "BT /F1 12 Tf 0 0 Td (Hi) Tj ET"
	return samples.RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 /Parent 2 0 R >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(ops), ops),
	})
}

// contentStreamPDF is a one-page document drawing ops in Helvetica.
func contentStreamPDF(ops string) []byte {
	return samples.RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R " +
			"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(ops), ops),
	})
}

// farOffTextPDF shows "Hi" 10^200 points above the page, then "There"
// on it.
func farOffTextPDF() []byte {
	far := "1" + strings.Repeat("0", 200) + ".0"
	return contentStreamPDF("BT /F1 12 Tf 0 " + far + " Td (Hi) Tj 0 -" + far + " Td (There) Tj ET")
}

// FuzzReadPDFText feeds mutated PDFs to the text reader: whatever the
// bytes, it answers text or a refusal, never a panic or a hang.
func FuzzReadPDFText(f *testing.F) {
	for _, name := range []string{"sample.pdf", "form.pdf", "chromium-report.pdf", "libreoffice-schedule.pdf"} {
		f.Add(samples.Read(f, name))
	}
	f.Add(hostile.FlateBombFormPDF(1<<10, 3))
	f.Add(farOffTextPDF())
	f.Add(parentLoopPDF())
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		content.ReadPDFText(ctx, data, nil, 50)
	})
}

// TestAnUnclosedHexStringIsADamagedPage: a content stream that ends
// inside a hex string made the text library read forever; the page is
// now reported damaged and the others read.
func TestAnUnclosedHexStringIsADamagedPage(t *testing.T) {
	for _, tail := range []string{"<48656c6c6f", "<48 65 6c\n", "BT (a <b) Tj ET <", "% comment\n<0"} {
		pdf := contentStreamPDF("BT /F1 12 Tf 72 700 Td (Readable) Tj ET\n" + tail)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		text, err := content.ReadPDFText(ctx, pdf, nil, 50)
		cancel()
		if err != nil || len(text.Pages) != 1 || !strings.Contains(text.Pages[0].Error, "hex string") {
			t.Errorf("%q: %+v %v", tail, text, err)
		}
	}
	for _, fine := range []string{"<48656c6c6f> Tj", "<< /A 1 >>", "(a < b) Tj", "% <\n"} {
		pdf := contentStreamPDF("BT /F1 12 Tf 72 700 Td (Readable) Tj ET\n" + fine)
		text, err := content.ReadPDFText(context.Background(), pdf, nil, 50)
		if err != nil || len(text.Pages) != 1 || strings.Contains(text.Pages[0].Error, "hex string") {
			t.Errorf("%q: %+v %v", fine, text, err)
		}
	}
}
