package content

import (
	"bytes"
	"convfiles/internal/samples"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseSamples(t *testing.T) {
	tests := []struct {
		file, asName string
		kind         Kind
		mime         string
		w, h         int
	}{
		{"sample.png", "chart.png", KindImage, "image/png", 64, 48},
		{"sample.jpg", "photo.jpg", KindImage, "image/jpeg", 64, 48},
		{"sample.gif", "anim.gif", KindImage, "image/gif", 64, 48},
		{"sample.webp", "pic.webp", KindImage, "image/webp", 64, 48},   // made by Debian's cwebp from sample.png
		{"sample.png", "no-extension", KindImage, "image/png", 64, 48}, // magic bytes beat the name
		{"sample.png", "lying.txt", KindImage, "image/png", 64, 48},
		{"sample.svg", "logo.svg", KindImage, "image/svg+xml", 120, 80},
		{"sample.pdf", "report.pdf", KindPDF, "application/pdf", 0, 0},
		{"sample.csv", "data.csv", KindText, "text/csv", 0, 0},
		{"sample.html", "page.html", KindText, "text/html", 0, 0},
		{"random.bin", "photo.png", KindFile, "application/octet-stream", 0, 0}, // the name never makes bytes an image
		{"random.bin", "notes.txt", KindFile, "application/octet-stream", 0, 0},
		{"zip-magic.bin", "archive", KindFile, "application/zip", 0, 0},
	}
	for _, tt := range tests {
		c := Parse(tt.asName, samples.Read(t, tt.file))
		m := c.Info()
		if c.Kind() != tt.kind || m.MIME != tt.mime || m.Name != tt.asName {
			t.Errorf("%s as %s: kind %s mime %s, want %s %s", tt.file, tt.asName, c.Kind(), m.MIME, tt.kind, tt.mime)
			continue
		}
		if img, ok := c.(*Image); ok && (img.Width != tt.w || img.Height != tt.h) {
			t.Errorf("%s: %d×%d, want %d×%d", tt.file, img.Width, img.Height, tt.w, tt.h)
		}
	}
}

func TestTextByExtensionAndUTF8(t *testing.T) {
	tests := []struct {
		name, data string
		kind       Kind
		mime       string
	}{
		{"notes.md", "# Title\n\nbody", KindText, "text/markdown"},
		{"main.ts", "const x: number = 1;", KindText, "text/typescript"},
		{"README", "plain words", KindText, "text/plain"},
		{"data.json", `{"a": [1, 2]}`, KindText, "application/json"},
		{"unicode.txt", "grüße, 世界", KindText, "text/plain"},
		{"latin1.txt", "gr\xfc\xdfe", KindFile, "application/octet-stream"},
		{"nul.txt", "a\x00b", KindFile, "application/octet-stream"},
	}
	for _, tt := range tests {
		c := Parse(tt.name, []byte(tt.data))
		if c.Kind() != tt.kind || c.Info().MIME != tt.mime {
			t.Errorf("%s: %s %s, want %s %s", tt.name, c.Kind(), c.Info().MIME, tt.kind, tt.mime)
		}
		if tt.kind == KindText && c.String() != tt.data {
			t.Errorf("%s: String() = %q", tt.name, c.String())
		}
	}
	// Invalid UTF-8 after the sniffed head still makes the file binary.
	long := strings.Repeat("a", SniffLen+10) + "\xff"
	if c := Parse("big.txt", []byte(long)); c.Kind() != KindFile {
		t.Errorf("invalid UTF-8 past the head: kind %s", c.Kind())
	}
}

func TestPDFTextExtraction(t *testing.T) {
	c := Parse("report.pdf", samples.Read(t, "sample.pdf"))
	p, ok := c.(*PDF)
	if !ok {
		t.Fatalf("kind %s", c.Kind())
	}
	if p.Pages != 2 {
		t.Errorf("pages = %d, want 2", p.Pages)
	}
	for _, want := range []string{"Hello from convfiles page one", "Quarterly totals on page two"} {
		if !strings.Contains(p.String(), want) {
			t.Errorf("extracted text %q lacks %q", p.String(), want)
		}
	}
}

// TestMalformedPDFsNeverCrash feeds damaged documents (cut in half, a broken
// object reference, random bytes after the magic) to the extractor.
func TestMalformedPDFsNeverCrash(t *testing.T) {
	inputs := map[string][]byte{
		"truncated.pdf":   samples.Read(t, "truncated.pdf"),
		"broken-xref.pdf": samples.Read(t, "broken-xref.pdf"),
		"garbage.pdf":     append([]byte("%PDF-1.7\n"), samples.Read(t, "random.bin")...),
		"empty-ish.pdf":   []byte("%PDF-1.4\n%%EOF"),
	}
	for name, data := range inputs {
		c := Parse(name, data)
		if c.Kind() != KindPDF {
			t.Errorf("%s: kind %s", name, c.Kind())
			continue
		}
		s := c.String()
		if !strings.HasPrefix(s, "[PDF document: "+name) {
			t.Errorf("%s: String() = %q, want a description", name, s)
		}
	}
}

func TestDescriptions(t *testing.T) {
	img := Parse("chart.png", samples.Read(t, "sample.png"))
	if got := img.String(); got != "[Image: chart.png, image/png, 64×48, 142 B]" {
		t.Errorf("image description %q", got)
	}
	f := Parse("blob.bin", samples.Read(t, "random.bin"))
	if got := f.String(); got != "[File: blob.bin, application/octet-stream, 2.9 KiB]" {
		t.Errorf("file description %q", got)
	}
}

func TestDetectReaderAndHeadRecorder(t *testing.T) {
	png := samples.Read(t, "sample.png")
	body := append(append([]byte{}, png...), make([]byte, 2*SniffLen)...)
	if k, mt := DetectReader("x", bytes.NewReader(body), int64(len(body))); k != KindImage || mt != "image/png" {
		t.Fatalf("DetectReader: %s %s", k, mt)
	}
	rec := &HeadRecorder{R: iotest.OneByteReader(bytes.NewReader(body))}
	all, _ := io.ReadAll(rec)
	if len(all) != len(body) || len(rec.Head) != SniffLen || !bytes.Equal(rec.Head, body[:SniffLen]) {
		t.Fatalf("recorded %d bytes of head, passed %d of %d", len(rec.Head), len(all), len(body))
	}
	short := &HeadRecorder{R: strings.NewReader("a,b\n1,2\n")}
	io.ReadAll(short)
	if k, mt := Detect("t.csv", short.Head, true); k != KindText || mt != "text/csv" {
		t.Fatalf("short stream: %s %s", k, mt)
	}
}

func TestRecordedMIMEPrefersTheIndex(t *testing.T) {
	if got := RecordedMIME("a.txt", "image/png"); got != "image/png" {
		t.Errorf("a recorded type was replaced by %q", got)
	}
	if got := RecordedMIME("a.csv", ""); got != MIMEByExtension("a.csv") || got == "application/octet-stream" {
		t.Errorf("without a recorded type: %q", got)
	}
}
