package content

import (
	"bytes"
	"encoding/xml"
	"image"
	_ "image/gif" // register decoders for image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"strconv"
	"strings"

	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"
)

// imageSize reads an image's dimensions from its header, without decoding
// the pixels. SVG dimensions come from the root element's width and height,
// or its viewBox.
func imageSize(mt string, data []byte) (w, h int) {
	if mt == "image/svg+xml" {
		return svgSize(data)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, 0
	}
	return cfg.Width, cfg.Height
}

func svgSize(data []byte) (int, int) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	for range 64 { // the root element comes within a few tokens, or not at all
		tok, err := d.Token()
		if err != nil {
			return 0, 0
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		var w, h, vb string
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "width":
				w = a.Value
			case "height":
				h = a.Value
			case "viewBox":
				vb = a.Value
			}
		}
		if wi, hi := svgLength(w), svgLength(h); wi > 0 && hi > 0 {
			return wi, hi
		}
		if f := strings.Fields(strings.ReplaceAll(vb, ",", " ")); len(f) == 4 {
			return svgLength(f[2]), svgLength(f[3])
		}
		return 0, 0
	}
	return 0, 0
}

func svgLength(s string) int {
	s = strings.TrimSuffix(strings.TrimSpace(s), "px")
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 || f > 1e6 {
		return 0
	}
	return int(f + 0.5)
}
