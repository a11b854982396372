package reports

import (
	"os"
	"strings"
	"testing"
)

// TestReportsAreBounded refuses Markdown past MaxMarkdown and images past
// MaxImages, saying the bound, and options out of their ranges.
func TestReportsAreBounded(t *testing.T) {
	chart, err := os.ReadFile("../charts/testdata/golden/bar.png")
	if err != nil {
		t.Fatal(err)
	}
	image := func(string) ([]byte, error) { return chart, nil }
	for _, c := range []struct {
		md   string
		o    Options
		says string
	}{
		{strings.Repeat("a", MaxMarkdown+1), Options{}, "at most 4194304"},
		{strings.Repeat("![c](c.png)\n\n", MaxImages+1), Options{}, "at most 50 images"},
		{"# x", Options{Margin: 5}, "margin is 18 to 144"},
		{"# x", Options{Orientation: "sideways"}, "portrait or landscape"},
		{"![x](c.png)", Options{}, ""},
	} {
		_, _, err := Render([]byte(c.md), c.o, image)
		if c.says == "" && err != nil || c.says != "" && (err == nil || !strings.Contains(err.Error(), c.says)) {
			t.Errorf("%.40q %+v: %v, want %q", c.md, c.o, err, c.says)
		}
	}
	if _, _, err := Render([]byte("![x](c.png)"), Options{}, func(string) ([]byte, error) { return []byte("GIF89a"), nil }); err == nil || !strings.Contains(err.Error(), "not a PNG or JPEG") {
		t.Errorf("a GIF: %v", err)
	}
}
