package routes

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/internal/samples"
	"convfiles/internal/storetest"
)

// previewOut is the result of GET /api/files/{id}/preview.
type previewOut struct {
	File    fileOut `json:"file"`
	Preview struct {
		Kind  string
		Image *struct{ Width, Height int }
		PDF   *struct {
			Info struct {
				Pages   int  `json:"pages"`
				HasForm bool `json:"has_form"`
				Title   string
			}
			FirstPage string `json:"first_page"`
			TextError string `json:"text_error"`
		}
		Spreadsheet *struct {
			Sheets  []string
			Summary struct {
				Sheet   string
				Rows    int
				Headers []any
				Top     []struct {
					Row    int
					Values []any
				}
			}
		}
	}
}

// putSample stores a testdata sample, or the bytes given, in a conversation
// and returns its ID.
func putSample(t testing.TB, e *apiEnv, conv, name string, data []byte) string {
	t.Helper()
	if data == nil {
		data = samples.Read(t, name)
	}
	return storetest.Put(t, e.store, conv, name, data).ID
}

// photo is a PNG of w×h pixels.
func photo(t testing.TB, w, h int, c color.Color) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestPreviewsOfImagesPDFsAndSheets: the web page's previews, through the
// REST API: an image's size, a PDF's metadata and first page, a workbook's
// sheets and rows, a CSV as a sheet; and clear refusals for files with no
// preview, damaged files and missing sheets.
func TestPreviewsOfImagesPDFsAndSheets(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	ids := map[string]string{}
	for _, name := range []string{"budget.xlsx", "form.pdf", "sample.jpg", "sample.csv", "random.bin", "truncated.pdf", "broken-xref.pdf"} {
		ids[name] = putSample(t, e, "prev", name, nil)
	}
	get := func(name, query string) (int, envelopeOf[previewOut]) {
		var out envelopeOf[previewOut]
		code := e.do(http.MethodGet, "/api/files/"+ids[name]+"/preview"+query, nil, &out)
		return code, out
	}

	code, out := get("budget.xlsx", "")
	s := out.Result.Preview.Spreadsheet
	if code != 200 || out.Result.Preview.Kind != "spreadsheet" || s == nil || !reflect.DeepEqual(s.Sheets, []string{"Budget", "Notes"}) ||
		s.Summary.Sheet != "Budget" || s.Summary.Rows != 5 || !reflect.DeepEqual(s.Summary.Headers, []any{"Item", "Quantity", "Price", "Total"}) {
		t.Errorf("workbook preview: %d %+v %+v", code, out, s)
	}
	if code, out = get("budget.xlsx", "?sheet=Notes"); code != 200 || out.Result.Preview.Spreadsheet.Summary.Sheet != "Notes" {
		t.Errorf("second sheet: %d %+v", code, out)
	}
	if code, out = get("budget.xlsx", "?sheet=Nope"); code != 400 || !strings.Contains(out.Error.Message, `"Budget"`) {
		t.Errorf("missing sheet: %d %+v", code, out.Error)
	}
	code, out = get("sample.csv", "")
	if s := out.Result.Preview.Spreadsheet; code != 200 || s == nil || s.Summary.Rows != 3 || len(s.Summary.Top) != 2 ||
		!reflect.DeepEqual(s.Summary.Top[0].Values, []any{1.0, "Ada", 10.5}) {
		t.Errorf("CSV preview: %d %+v", code, out)
	}
	code, out = get("form.pdf", "")
	if p := out.Result.Preview.PDF; code != 200 || p == nil || p.Info.Pages != 1 || !p.Info.HasForm ||
		!strings.Contains(p.FirstPage, "Membership application") {
		t.Errorf("PDF preview: %d %+v", code, out)
	}
	code, out = get("sample.jpg", "")
	if i := out.Result.Preview.Image; code != 200 || i == nil || i.Width != 64 || i.Height != 48 {
		t.Errorf("image preview: %d %+v", code, out)
	}
	if code, out = get("random.bin", ""); code != 400 || !strings.Contains(out.Error.Message, "previews are made of images, PDFs and spreadsheets") {
		t.Errorf("no preview: %d %+v", code, out.Error)
	}
	// pdfcpu repairs this truncated file far enough to read its metadata;
	// its text cannot be read, and the preview says why.
	code, out = get("truncated.pdf", "")
	if p := out.Result.Preview.PDF; code != 200 || p == nil || p.Info.Pages == 0 || p.FirstPage != "" || !strings.Contains(p.TextError, "damaged") {
		t.Errorf("damaged PDF: %d %+v %+v", code, out.Error, p)
	}
	if code, out = get("broken-xref.pdf", ""); code != 400 || !strings.Contains(out.Error.Message, "damaged") {
		t.Errorf("a PDF too damaged to read: %d %+v", code, out.Error)
	}

	// The listing says which files have a preview and a thumbnail.
	var list envelopeOf[struct {
		Files []struct {
			Name         string
			PreviewURL   string `json:"preview_url"`
			ThumbnailURL string `json:"thumbnail_url"`
		}
	}]
	e.do(http.MethodGet, "/api/conversations/prev/files", nil, &list)
	for _, f := range list.Result.Files {
		wantPreview := f.Name != "random.bin"
		wantThumb := f.Name == "sample.jpg"
		if (f.PreviewURL != "") != wantPreview || (f.ThumbnailURL != "") != wantThumb ||
			(wantThumb && f.ThumbnailURL != e.srv.URL+"/api/files/"+ids[f.Name]+"/thumbnail") {
			t.Errorf("%s: preview_url %q, thumbnail_url %q", f.Name, f.PreviewURL, f.ThumbnailURL)
		}
	}
}

// TestPreviewSlotsWaitAndGiveUp: a preview waits for a free slot, and a
// request that ends while it waits gives up rather than queueing forever.
func TestPreviewSlotsWaitAndGiveUp(t *testing.T) {
	s := &Server{previews: newPreviewSlots(1)}
	release, err := s.previewSlot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.previewSlot(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("a second preview with one slot taken: %v, want to give up when its request ends", err)
	}
	release()
	again, err := s.previewSlot(ctx)
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if again != nil {
		again()
	}
	if _, err := s.previewSlot(context.Background()); err != nil {
		t.Fatalf("the slot was not given back: %v", err)
	}
}

// TestPreviewGivenUpIsNotAnError: a client that leaves while its preview
// waits for a slot ends the wait, and the server logs no failure for it.
func TestPreviewGivenUpIsNotAnError(t *testing.T) {
	store, _ := storetest.Open(t, filepath.Join(t.TempDir(), "files"), engine.Options{})
	id := storetest.PutSamples(t, store, "c1", "budget.xlsx")["budget.xlsx"].ID
	var logs bytes.Buffer
	h := New(Config{Store: store, API: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	srv := httptest.NewServer(h)
	for range cap(h.previews) {
		h.previews <- struct{}{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/files/"+id+"/preview", nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the preview answered %d with every slot taken", resp.StatusCode)
	}
	srv.Close() // waits for the handler to end
	h.Shutdown()
	if logs.Len() > 0 {
		t.Errorf("the server logged a client that went away:\n%s", logs.String())
	}
}
