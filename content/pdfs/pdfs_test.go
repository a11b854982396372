package pdfs_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"convfiles/content"
	"convfiles/content/pdfs"
	"convfiles/internal/needs"
	"convfiles/internal/samples"
)

// pdftotext reads a PDF with poppler, a reader independent of convfiles.
func pdftotext(t *testing.T, pdf []byte) string {
	t.Helper()
	bin := needs.Program(t, needs.Poppler, "pdftotext")
	cmd := exec.Command(bin, "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// form.pdf was made by reportlab (testdata/office/form.py).
func TestFillsAFormPopplerThenShows(t *testing.T) {
	form := samples.Read(t, "form.pdf")
	info, err := pdfs.Inspect(form)
	if err != nil || info.Pages != 1 || !info.HasForm || info.Title != "Membership application" {
		t.Fatalf("info %+v %v", info, err)
	}
	fields, err := pdfs.FormFields(form)
	if err != nil || len(fields) != 4 {
		t.Fatalf("fields %+v %v", fields, err)
	}
	var out bytes.Buffer
	filled, err := pdfs.FillForm(form, map[string]any{"full_name": "Ada Lovelace", "city": "London", "subscribe": true, "plan": "pro"}, &out)
	if err != nil || len(filled) != 4 {
		t.Fatalf("fill %v %v", filled, err)
	}
	text := pdftotext(t, out.Bytes())
	for _, want := range []string{"Ada Lovelace", "London"} {
		if !strings.Contains(text, want) {
			t.Errorf("pdftotext does not show %q in the filled form:\n%s", want, text)
		}
	}
	after, _ := pdfs.FormFields(out.Bytes())
	for _, f := range after {
		if f.Name == "subscribe" && f.Value != true || f.Name == "plan" && f.Value != "pro" {
			t.Errorf("%s is %v after filling", f.Name, f.Value)
		}
	}
	_, err = pdfs.FillForm(form, map[string]any{"nmae": "x"}, &bytes.Buffer{})
	if !errors.Is(err, content.ErrMissing) || !strings.Contains(err.Error(), `"full_name"`) {
		t.Fatalf("an unknown field: %v", err)
	}
	_, err = pdfs.FillForm(form, map[string]any{"plan": "gold"}, &bytes.Buffer{})
	if !errors.Is(err, content.ErrBadRequest) {
		t.Fatalf("a choice that is not an option: %v", err)
	}
}

func TestEditsPagesAndText(t *testing.T) {
	doc := samples.Read(t, "sample.pdf")
	var added bytes.Buffer
	if n, err := pdfs.AddPage(doc, pdfs.PageOptions{Size: "Letter", Orientation: "landscape"}, &added); err != nil || n != 3 {
		t.Fatalf("add page: %d %v", n, err)
	}
	info, _ := pdfs.Inspect(added.Bytes())
	if info.Pages != 3 || info.PageSizes[2] != (pdfs.PageSize{Width: 792, Height: 612}) {
		t.Fatalf("after adding a landscape Letter page: %+v", info)
	}
	var stamped bytes.Buffer
	if err := pdfs.AddText(added.Bytes(), 3, "Reviewed by convfiles", pdfs.Position{X: 72, Y: 500}, pdfs.TextStyle{Size: 18, Color: "#CC0000"}, &stamped); err != nil {
		t.Fatal(err)
	}
	if text := pdftotext(t, stamped.Bytes()); !strings.Contains(text, "Reviewed by convfiles") {
		t.Fatalf("pdftotext does not show the added text:\n%s", text)
	}
	var removed bytes.Buffer
	if n, err := pdfs.DeletePage(stamped.Bytes(), 1, &removed); err != nil || n != 2 {
		t.Fatalf("delete page: %d %v", n, err)
	}
	var merged bytes.Buffer
	if n, err := pdfs.Merge([][]byte{doc, removed.Bytes()}, &merged); err != nil || n != 4 {
		t.Fatalf("merge: %d %v", n, err)
	}
	var parts []*bytes.Buffer
	err := pdfs.Split(merged.Bytes(), []string{"1-2", "3", "4-"}, func(int, int, int) (io.Writer, error) {
		b := &bytes.Buffer{}
		parts = append(parts, b)
		return b, nil
	})
	if err != nil || len(parts) != 3 {
		t.Fatalf("split: %d parts, %v", len(parts), err)
	}
	for i, want := range []int{2, 1, 1} {
		if n, err := pdfs.PageCount(parts[i].Bytes()); err != nil || n != want {
			t.Errorf("part %d has %d pages (%v), want %d", i+1, n, err, want)
		}
	}
	if text := pdftotext(t, parts[2].Bytes()); !strings.Contains(text, "Reviewed by convfiles") {
		t.Fatalf("the last part's text:\n%s", text)
	}
	err = pdfs.Split(merged.Bytes(), []string{"3-9"}, func(int, int, int) (io.Writer, error) { return io.Discard, nil })
	if !errors.Is(err, content.ErrBadRequest) {
		t.Fatalf("pages 3-9 of 4: %v", err)
	}
}

func TestExtractsTextByPages(t *testing.T) {
	doc := samples.Read(t, "sample.pdf")
	text, err := pdfs.ExtractText(context.Background(), doc, []int{2})
	if err != nil || len(text.Pages) != 1 || text.Pages[0].Page != 2 || text.PageCount != 2 || text.Pages[0].Text == "" {
		t.Fatalf("page 2: %+v %v", text, err)
	}
	if _, err := pdfs.ExtractText(context.Background(), doc, []int{3}); !errors.Is(err, content.ErrBadRequest) {
		t.Fatalf("page 3 of 2: %v", err)
	}
}

func TestMalformedPDFsAreRefused(t *testing.T) {
	// Each damaged file is refused by the reader it defeats (pdfcpu
	// repairs a truncated file; the text reader does not), never a panic.
	for name, refusedBy := range map[string]string{"truncated.pdf": "text", "broken-xref.pdf": "info", "random.bin": "both"} {
		data := samples.Read(t, name)
		start := time.Now()
		_, ierr := pdfs.Inspect(data)
		_, terr := pdfs.ExtractText(context.Background(), data, nil)
		for which, err := range map[string]error{"info": ierr, "text": terr} {
			var r *content.Refusal
			if err != nil && !errors.As(err, &r) {
				t.Errorf("%s, %s: %v is not a refusal", name, which, err)
			}
			if (refusedBy == which || refusedBy == "both") && err == nil {
				t.Errorf("%s: the %s reader accepted it", name, which)
			}
		}
		t.Logf("%s: answered in %v: info: %v / text: %v", name, time.Since(start), ierr, terr)
	}
}
