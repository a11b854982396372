package lua

import (
	"encoding/base64"
	"strings"
	"testing"

	"convfiles/internal/samples"
	"convfiles/runtime"
)

// TestSABREContentFields: what read_file returns has SABRE's fields for
// every kind (full_text, image_data, pdf_data, file_data, filename), and
// write_file takes SABRE's objects with and without a type, in JS and Lua.
func TestSABREContentFields(t *testing.T) {
	pdf := base64.StdEncoding.EncodeToString(samples.Read(t, "sample.pdf"))
	blob := base64.StdEncoding.EncodeToString([]byte("\x00\x01binary\xff"))
	for _, lang := range []runtime.Language{runtime.JavaScript, runtime.Lua} {
		t.Run(string(lang), func(t *testing.T) {
			var got struct {
				Text, TextName, PDFData, PDFName, FileData, FileName, Again string
				Keys                                                        []string
			}
			_, err := sabreRun(t, lang, "sabre-fields", pick(lang, `
write_file("notes/a.txt", {full_text: "from full_text"});
write_file("doc.pdf", {pdf_data: "`+pdf+`"});
write_file("blob.bin", {type: "file", file_data: "`+blob+`", filename: "blob.bin"});
const t = read_file("notes/a.txt"), p = read_file("doc.pdf"), f = read_file("blob.bin");
write_file("copy.pdf", {type: "pdf", pdf_data: p.pdf_data});
({text: t.full_text, textname: t.filename, pdfdata: p.pdf_data, pdfname: p.filename, filedata: f.file_data,
  filename: f.filename, again: read_file("copy.pdf").pdf_data, keys: Object.keys(t)})`, `
write_file("notes/a.txt", {full_text = "from full_text"})
write_file("doc.pdf", {pdf_data = "`+pdf+`"})
write_file("blob.bin", {type = "file", file_data = "`+blob+`", filename = "blob.bin"})
local t, p, f = read_file("notes/a.txt"), read_file("doc.pdf"), read_file("blob.bin")
write_file("copy.pdf", {type = "pdf", pdf_data = p.pdf_data})
return {text = t.full_text, textname = t.filename, pdfdata = p.pdf_data, pdfname = p.filename, filedata = f.file_data,
  filename = f.filename, again = read_file("copy.pdf").pdf_data, keys = {"type"}}`), nil, &got)
			if err != nil {
				t.Fatal(err)
			}
			if got.Text != "from full_text" || got.TextName != "a.txt" || got.PDFData != pdf || got.PDFName != "doc.pdf" ||
				got.FileData != blob || got.FileName != "blob.bin" || got.Again != pdf {
				t.Errorf("%+v", got)
			}
			if strings.Contains(strings.Join(got.Keys, ","), "full_text") {
				t.Errorf("SABRE's names are enumerated, doubling the object's JSON: %v", got.Keys)
			}
		})
	}
}

// TestSABREContentFieldsRefuseBadBase64: bytes that are not base64 are
// refused by name, never saved as JSON text under an image's name.
func TestSABREContentFieldsRefuseBadBase64(t *testing.T) {
	for _, lang := range []runtime.Language{runtime.JavaScript, runtime.Lua} {
		rep, err := sabreRun(t, lang, "sabre-bad", pick(lang, `write_file("x.png", {type: "image", image_data: "not base64!", mime_type: "image/png"})`,
			`write_file("x.png", {type = "image", image_data = "not base64!", mime_type = "image/png"})`), nil, nil)
		if err == nil || !strings.Contains(rep.Error.Message, "image_data is not valid base64") {
			t.Errorf("%s: %v", lang, err)
		}
	}
}

// TestGetStrNamesTheFormatCalls: read_file of a workbook, an image or a
// PDF says, in get_str(), which calls read and change it.
func TestGetStrNamesTheFormatCalls(t *testing.T) {
	b64 := func(name string) string { return base64.StdEncoding.EncodeToString(samples.Read(t, name)) }
	for _, lang := range []runtime.Language{runtime.JavaScript, runtime.Lua} {
		var got []string
		_, err := sabreRun(t, lang, "calls", pick(lang, `
write_file("b.xlsx", {file_data: "`+b64("budget.xlsx")+`"});
write_file("p.png", {image_data: "`+b64("sample.png")+`"});
write_file("d.pdf", {pdf_data: "`+b64("sample.pdf")+`"});
[read_file("b.xlsx").get_str(), read_file("p.png").get_str(), read_file("d.pdf").get_str()]`, `
write_file("b.xlsx", {file_data = "`+b64("budget.xlsx")+`"})
write_file("p.png", {image_data = "`+b64("sample.png")+`"})
write_file("d.pdf", {pdf_data = "`+b64("sample.pdf")+`"})
return {read_file("b.xlsx"):get_str(), read_file("p.png"):get_str(), read_file("d.pdf"):get_str()}`), nil, &got)
		if err != nil || len(got) != 3 {
			t.Fatalf("%s: %v %v", lang, err, got)
		}
		for i, want := range []string{`files.spreadsheet.getSheetSummary("b.xlsx")`, `files.image.info("p.png")`, `files.pdf.extractText("d.pdf"`} {
			if !strings.Contains(got[i], want) {
				t.Errorf("%s: get_str() %q does not name %s", lang, got[i], want)
			}
		}
		if !strings.HasPrefix(got[1], "[Image: p.png, image/png") || !strings.HasSuffix(got[1], "]") {
			t.Errorf("%s: the image's description: %q", lang, got[1])
		}
	}
}
