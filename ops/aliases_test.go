package ops_test

import (
	"encoding/json"
	"strings"
	"testing"

	"convfiles/ops"
)

// TestCanonicalArgs: seed 004's names, camelCase at any depth and an
// options object become convfiles' arguments; the same argument twice is
// refused; other operations' arguments pass untouched.
func TestCanonicalArgs(t *testing.T) {
	for _, tc := range []struct{ op, in, want, err string }{
		{"spreadsheet_write_range", `{"fileId":"b.xlsx","sheet":"S","startCell":"A1","data":[[1]]}`, `{"file":"b.xlsx","sheet":"S","start":"A1","values":[[1]]}`, ""},
		{"spreadsheet_set_format", `{"fileId":"b.xlsx","sheet":"S","range":"A1","format":{"numberFormat":"0.0","fillColor":"#fff"}}`,
			`{"file":"b.xlsx","sheet":"S","range":"A1","format":{"number_format":"0.0","fill_color":"#fff"}}`, ""},
		{"image_composite", `{"fileId":"a.png","overlays":[{"image":"b.png","left":1}],"options":{"output":"c.png"}}`,
			`{"file":"a.png","overlays":[{"image":"b.png","left":1}],"output":"c.png"}`, ""},
		{"image_to_base64", `{"fileId":"a.png","options":{"maxWidth":4,"maxHeight":5}}`, `{"file":"a.png","max_width":4,"max_height":5}`, ""},
		{"pdf_merge", `{"fileIds":["a.pdf"],"outputName":"b.pdf"}`, `{"files":["a.pdf"],"output":"b.pdf"}`, ""},
		{"pdf_delete_page", `{"file":"a.pdf","fileId":"a.pdf","page":1}`, "", "give file or fileId, not both"},
		{"image_to_base64", `{"file":"a.png","max_width":1,"options":{"max_width":2}}`, "", "max_width is given twice"},
		{"read_text", `{"id":"a.txt","startLine":2}`, `{"id":"a.txt","startLine":2}`, ""},
		{"spreadsheet_read_cell", `[1,2]`, `[1,2]`, ""},
	} {
		op, _ := ops.Lookup(tc.op)
		got, err := op.CanonicalArgs(json.RawMessage(tc.in))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %s: %v, want %q", tc.op, tc.in, err, tc.err)
			}
			continue
		}
		var a, b any
		json.Unmarshal(got, &a)
		json.Unmarshal([]byte(tc.want), &b)
		if ja, _ := json.Marshal(a); err != nil || string(ja) != mustJSON(b) {
			t.Errorf("%s %s: %s %v, want %s", tc.op, tc.in, got, err, tc.want)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
