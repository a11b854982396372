package pdfs_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"convfiles/content/pdfs"
	"convfiles/internal/samples"
)

// pageWords are the words of each page, as ExtractText and as pdftotext
// read them.
func pageWords(t *testing.T, doc []byte) (ours, poppler [][]string) {
	t.Helper()
	text, err := pdfs.ExtractText(context.Background(), doc, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range text.Pages {
		ours = append(ours, strings.Fields(p.Text))
	}
	for _, p := range strings.Split(pdftotext(t, doc), "\f") {
		poppler = append(poppler, strings.Fields(p))
	}
	return ours, poppler[:len(ours)]
}

// sameOrder checks that every page's words come in pdftotext's order.
func sameOrder(t *testing.T, name string, doc []byte) [][]string {
	t.Helper()
	ours, poppler := pageWords(t, doc)
	for i := range ours {
		if strings.Join(ours[i], " ") != strings.Join(poppler[i], " ") {
			t.Errorf("%s page %d:\nconvfiles: %s\npdftotext: %s", name, i+1, strings.Join(ours[i], " "), strings.Join(poppler[i], " "))
		}
	}
	return ours
}

// TestTextComesInPopplersReadingOrder reads PDFs made by Chromium's
// print to PDF (a report whose coordinates run top down, with a table),
// LibreOffice (a spreadsheet, read column by column as poppler reads
// it), reportlab (a form) and convfiles' own writer: each page's words
// come in the order pdftotext gives them.
func TestTextComesInPopplersReadingOrder(t *testing.T) {
	for _, name := range []string{"chromium-report.pdf", "libreoffice-schedule.pdf", "form.pdf", "sample.pdf"} {
		words := sameOrder(t, name, samples.Read(t, name))
		if len(words) == 0 || len(words[0]) == 0 {
			t.Errorf("%s: no text", name)
		}
	}
	words := sameOrder(t, "chromium-report.pdf", samples.Read(t, "chromium-report.pdf"))
	if got := strings.Join(words[0][:4], " "); got != "Quarterly report Revenue grew" {
		t.Errorf("the Chromium report starts %q", got)
	}
}

// TestOwnEditsAreReadBack adds text with AddText (a pdfcpu stamp drawn
// as a form XObject) and fills a form (the values live in the fields'
// appearance streams): ExtractText reads both where pdftotext does.
func TestOwnEditsAreReadBack(t *testing.T) {
	var stamped bytes.Buffer
	err := pdfs.AddText(samples.Read(t, "chromium-report.pdf"), 1, "Approved by the board", pdfs.Position{X: 72, Y: 60},
		pdfs.TextStyle{Size: 14}, &stamped)
	if err != nil {
		t.Fatal(err)
	}
	words := sameOrder(t, "the stamped report", stamped.Bytes())
	if !strings.Contains(strings.Join(words[0], " "), "Approved by the board") {
		t.Errorf("the stamp is not read back: %v", words[0])
	}
	var filled bytes.Buffer
	if _, err := pdfs.FillForm(samples.Read(t, "form.pdf"), map[string]any{"full_name": "Ada Lovelace", "city": "London"}, &filled); err != nil {
		t.Fatal(err)
	}
	words = sameOrder(t, "the filled form", filled.Bytes())
	if got := strings.Join(words[0], " "); !strings.Contains(got, "Name: Ada Lovelace City: London") {
		t.Errorf("the filled values are not read back in place: %s", got)
	}
}
