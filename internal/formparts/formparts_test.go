package formparts

import (
	"bytes"
	"crypto/rand"
	"errors"
	"io"
	"mime/multipart"
	"net/textproto"
	"reflect"
	"strings"
	"testing"
)

// parsed is what a reader made of a body: each part's headers and bytes,
// and how the reading ended.
type parsed struct {
	headers []textproto.MIMEHeader
	bodies  [][]byte
	failed  bool
	err     error
}

// parseStd reads body with mime/multipart, the reference.
func parseStd(body []byte, boundary string) parsed {
	var out parsed
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			out.failed = true
			return out
		}
		b, err := io.ReadAll(p)
		out.headers = append(out.headers, p.Header)
		out.bodies = append(out.bodies, b)
		if err != nil {
			out.failed = true
			return out
		}
	}
}

// parseOwn reads body with this package, through a buffer of bufSize,
// taking parts by Read and by WriteTo in turn.
func parseOwn(body []byte, boundary string, bufSize int) parsed {
	var out parsed
	mr := NewReader(bytes.NewReader(body), boundary, bufSize)
	for i := 0; ; i++ {
		p, err := mr.NextPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			out.failed, out.err = true, err
			return out
		}
		var b bytes.Buffer
		if i%2 == 0 {
			_, err = p.WriteTo(&b)
		} else {
			_, err = b.ReadFrom(p)
		}
		out.headers = append(out.headers, p.Header)
		out.bodies = append(out.bodies, b.Bytes())
		if err != nil {
			out.failed = true
			return out
		}
	}
}

// agree reports whether this package's reading got agrees with
// mime/multipart's, want: the same, or stricter in the two ways this
// package means to be (headers past its bounds; a body that ends inside a
// part's headers, which mime/multipart takes for a clean end).
func agree(want, got parsed) bool {
	if same(want, got) {
		return true
	}
	if errors.Is(got.err, errCutInHeaders) {
		want.failed, want.err = true, errCutInHeaders
		return same(want, got)
	}
	return got.err != nil && strings.Contains(got.err.Error(), "too large")
}

// same reports whether two readings agree, part by part.
func same(a, b parsed) bool {
	if a.failed != b.failed || len(a.bodies) != len(b.bodies) {
		return false
	}
	for i := range a.bodies {
		if !bytes.Equal(a.bodies[i], b.bodies[i]) || !reflect.DeepEqual(a.headers[i], b.headers[i]) {
			return false
		}
	}
	return true
}

// form builds a browser's multipart body from name, content pairs.
func form(boundary string, pairs ...string) []byte {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	w.SetBoundary(boundary)
	for i := 0; i < len(pairs); i += 2 {
		fw, _ := w.CreateFormFile(pairs[i], pairs[i])
		fw.Write([]byte(pairs[i+1]))
	}
	w.Close()
	return b.Bytes()
}

func TestPartsReadAsMimeMultipartReadsThem(t *testing.T) {
	const bd = "XyZ"
	big := make([]byte, 300<<10)
	rand.Read(big)
	// Boundary look-alikes where windows of 4 KiB end, inside the body.
	tricky := strings.Repeat("a", 4090) + "\r\n--XyZx" + strings.Repeat("b", 4093) + "\r\n--Xy" + "\r\n-"
	cases := map[string][]byte{
		"two files":                form(bd, "a.txt", "hello", "b.bin", string(big)),
		"an empty file":            form(bd, "empty", ""),
		"look-alikes at the edges": form(bd, "t", tricky, "u", "\r\n--XyZ-"+tricky),
		"lines ending in LF":       []byte("--XyZ\nContent-Disposition: form-data; name=\"a\"\n\none\n--XyZ\n\ntwo\n--XyZ--\n"),
		"quoted-printable":         []byte("--XyZ\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nsoft=\r\nbreak=3D\r\n--XyZ--"),
		"a preamble and padding":   []byte("preamble\r\n--XyZ \t\r\nA: b\r\n\r\nbody\r\n--XyZ-- \r\nepilogue"),
		"cut off in a body":        form(bd, "a", strings.Repeat("hello", 100))[:200],
		"cut off in headers":       []byte("--XyZ\r\n\r\none\r\n--XyZ\r\nA: b\r\n"),
		"no closing boundary":      []byte("--XyZ\r\n\r\nbody"),
		"junk between parts":       []byte("--XyZ\r\n\r\na\r\n--XyZ\r\njunk\r\n--XyZ--"),
		"nothing":                  nil,
	}
	for name, body := range cases {
		for _, size := range []int{4 << 10, 64 << 10, 1 << 20} {
			want, got := parseStd(body, bd), parseOwn(body, bd, size)
			if !agree(want, got) {
				t.Errorf("%s, buffer %d: read %d parts (failed %v), mime/multipart read %d (failed %v)",
					name, size, len(got.bodies), got.failed, len(want.bodies), want.failed)
			}
		}
	}
}

func TestACutOffBodyIsAReadErrorAndAWriterErrorIsNot(t *testing.T) {
	body := form("b", "a.bin", strings.Repeat("x", 100<<10))
	p, err := NewReader(bytes.NewReader(body[:50<<10]), "b", 4<<10).NextPart()
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.WriteTo(io.Discard)
	var re *ReadError
	if !errors.As(err, &re) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("a body cut off in a part: %v, want a ReadError of an unexpected EOF", err)
	}
	mr := NewReader(strings.NewReader("--b\r\n\r\none\r\n--b\r\nContent-Disposition: form-"), "b", 4<<10)
	if _, err := mr.NextPart(); err != nil {
		t.Fatal(err)
	}
	if _, err := mr.NextPart(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("a body cut off in a part's headers: %v, want an unexpected EOF, not the end of the parts", err)
	}
	full := errors.New("disk full")
	p, _ = NewReader(bytes.NewReader(body), "b", 4<<10).NextPart()
	if _, err = p.WriteTo(failingWriter{full}); err != full {
		t.Fatalf("a writer's failure: %v, want the writer's own error", err)
	}
}

// TestHugeHeadersAreRefused: a part's headers of more than 16 KiB, or of
// more than 100 lines, are refused before they are parsed.
func TestHugeHeadersAreRefused(t *testing.T) {
	body := "--b\r\n" + strings.Repeat("X-A: "+strings.Repeat("v", 1000)+"\r\n", 20) + "\r\nbody\r\n--b--"
	if _, err := NewReader(strings.NewReader(body), "b", 1<<20).NextPart(); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("20 KB of headers: %v, want them refused as too large", err)
	}
	short := "--b\r\n" + strings.Repeat("X: y\r\n", 150) + "\r\nbody\r\n--b--"
	if _, err := NewReader(strings.NewReader(short), "b", 1<<20).NextPart(); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("150 short header lines: %v, want them refused as too large", err)
	}
	few := "--b\r\n" + strings.Repeat("X: y\r\n", 20) + "\r\nbody\r\n--b--"
	if _, err := NewReader(strings.NewReader(few), "b", 1<<20).NextPart(); err != nil {
		t.Fatalf("20 short header lines: %v, want them read", err)
	}
}

// failingWriter fails every write with err.
type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

func FuzzPartsReadAsMimeMultipartReadsThem(f *testing.F) {
	f.Add(form("b", "a", "hello", "c", "\r\n--b-"), "b", uint16(0))
	f.Add([]byte("--b\n\nx\n--b--"), "b", uint16(7))
	f.Add([]byte("--b\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\na=\r\n=41\r\n--b--"), "b", uint16(3))
	f.Fuzz(func(t *testing.T, body []byte, boundary string, size uint16) {
		// mime/multipart refuses lines of over 4 KiB, which this reader takes.
		if len(body) > 4000 || boundary == "" || len(boundary) > 70 {
			return
		}
		want := parseStd(body, boundary)
		got := parseOwn(body, boundary, 4<<10+int(size))
		if !agree(want, got) {
			t.Fatalf("read %d parts (failed %v), mime/multipart read %d (failed %v)", len(got.bodies), got.failed, len(want.bodies), want.failed)
		}
	})
}
