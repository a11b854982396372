package spreadsheet

import (
	"regexp"
	"strings"

	"github.com/xuri/excelize/v2"

	"convfiles/content"
)

// Format is a cell's look. In SetFormat, only the fields given change.
type Format struct {
	Bold          *bool   `json:"bold,omitempty"`
	Italic        *bool   `json:"italic,omitempty"`
	Underline     *bool   `json:"underline,omitempty"`
	Strike        *bool   `json:"strike,omitempty"`
	FontSize      float64 `json:"font_size,omitempty"`
	FontName      string  `json:"font_name,omitempty"`
	FontColor     string  `json:"font_color,omitempty"` // "#RRGGBB"
	FillColor     string  `json:"fill_color,omitempty"` // "#RRGGBB"
	NumberFormat  string  `json:"number_format,omitempty"`
	Align         string  `json:"align,omitempty"`          // left, center, right, fill, justify
	VerticalAlign string  `json:"vertical_align,omitempty"` // top, center, bottom
	WrapText      *bool   `json:"wrap_text,omitempty"`
	ColumnWidth   float64 `json:"column_width,omitempty"` // in characters, for the range's columns
}

var colorRE = regexp.MustCompile(`^#?[0-9A-Fa-f]{6}$`)

func (f Format) check() error {
	for what, c := range map[string]string{"font_color": f.FontColor, "fill_color": f.FillColor} {
		if c != "" && !colorRE.MatchString(c) {
			return content.Refuse(content.ErrBadRequest, "%s %q is not a color: write it as \"#RRGGBB\", like \"#FF0000\" for red", what, c)
		}
	}
	switch f.Align {
	case "", "left", "center", "right", "fill", "justify", "general":
	default:
		return content.Refuse(content.ErrBadRequest, "align %q is not known: use left, center, right, fill or justify", f.Align)
	}
	switch f.VerticalAlign {
	case "", "top", "center", "bottom":
	default:
		return content.Refuse(content.ErrBadRequest, "vertical_align %q is not known: use top, center or bottom", f.VerticalAlign)
	}
	if f.FontSize < 0 || f.FontSize > 409 || f.ColumnWidth < 0 || f.ColumnWidth > 255 {
		return content.Refuse(content.ErrBadRequest, "font_size goes up to 409 points and column_width up to 255 characters")
	}
	return nil
}

// SetFormat changes the look of every cell of a range, keeping what the
// format does not mention, and returns how many cells it touched.
func (b *Book) SetFormat(sheet, ref string, f Format) (int, error) {
	name, err := b.editSheet(sheet)
	if err != nil {
		return 0, err
	}
	if err := f.check(); err != nil {
		return 0, err
	}
	rg, err := ParseRange(ref)
	if err != nil {
		return 0, err
	}
	if rg.ToRow == 0 || rg.ToCol == 0 {
		return 0, content.Refuse(content.ErrBadRequest, "give the format a range with both corners, like \"A1:D50\"")
	}
	cells := int64(rg.ToRow-rg.FromRow+1) * int64(rg.ToCol-rg.FromCol+1)
	if cells > MaxReadCells {
		return 0, content.Refuse(content.ErrTooLarge, "the range %q holds more than %d cells: format it in parts", ref, MaxReadCells)
	}
	made := map[int]int{} // a cell's style → the style with the format applied
	for r := rg.FromRow; r <= rg.ToRow; r++ {
		for c := rg.FromCol; c <= rg.ToCol; c++ {
			cell := CellName(c, r)
			old, err := b.x.GetCellStyle(name, cell)
			if err != nil {
				return 0, content.Refuse(content.ErrBadRequest, "cell %s: %v", cell, err)
			}
			id, ok := made[old]
			if !ok {
				if id, err = b.derivedStyle(old, f); err != nil {
					return 0, err
				}
				made[old] = id
			}
			if err := b.x.SetCellStyle(name, cell, cell, id); err != nil {
				return 0, content.Refuse(content.ErrBadRequest, "cell %s: %v", cell, err)
			}
		}
	}
	if f.ColumnWidth > 0 {
		from, _ := excelize.ColumnNumberToName(rg.FromCol)
		to, _ := excelize.ColumnNumberToName(rg.ToCol)
		if err := b.x.SetColWidth(name, from, to, f.ColumnWidth); err != nil {
			return 0, content.Refuse(content.ErrBadRequest, "column width: %v", err)
		}
	}
	b.changed = true
	return int(cells), nil
}

// derivedStyle returns a style: the style id with f laid over it.
func (b *Book) derivedStyle(id int, f Format) (int, error) {
	st, err := b.x.GetStyle(id)
	if err != nil || st == nil {
		st = &excelize.Style{}
	}
	if st.Font == nil {
		st.Font = &excelize.Font{}
	}
	setBool(&st.Font.Bold, f.Bold)
	setBool(&st.Font.Italic, f.Italic)
	setBool(&st.Font.Strike, f.Strike)
	if f.Underline != nil {
		st.Font.Underline = map[bool]string{true: "single", false: ""}[*f.Underline]
	}
	if f.FontSize > 0 {
		st.Font.Size = f.FontSize
	}
	if f.FontName != "" {
		st.Font.Family = f.FontName
	}
	if f.FontColor != "" {
		st.Font.Color = "#" + strings.TrimPrefix(strings.ToUpper(f.FontColor), "#")
	}
	if f.FillColor != "" {
		st.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"#" + strings.TrimPrefix(strings.ToUpper(f.FillColor), "#")}}
	}
	if f.NumberFormat != "" {
		code := f.NumberFormat
		st.CustomNumFmt, st.NumFmt = &code, 0
	}
	if f.Align != "" || f.VerticalAlign != "" || f.WrapText != nil {
		if st.Alignment == nil {
			st.Alignment = &excelize.Alignment{}
		}
		if f.Align != "" {
			st.Alignment.Horizontal = f.Align
		}
		if f.VerticalAlign != "" {
			st.Alignment.Vertical = f.VerticalAlign
		}
		setBool(&st.Alignment.WrapText, f.WrapText)
	}
	n, err := b.x.NewStyle(st)
	if err != nil {
		return 0, content.Refuse(content.ErrBadRequest, "the format cannot be applied: %v", err)
	}
	return n, nil
}

func setBool(dst *bool, v *bool) {
	if v != nil {
		*dst = *v
	}
}

// formatOf describes the style id as a Format.
func (b *Book) formatOf(id int) Format {
	st, err := b.x.GetStyle(id)
	if err != nil || st == nil {
		return Format{NumberFormat: "General"}
	}
	f := Format{NumberFormat: builtinFormats[st.NumFmt]}
	if st.CustomNumFmt != nil {
		f.NumberFormat = *st.CustomNumFmt
	}
	if f.NumberFormat == "" {
		f.NumberFormat = "General"
	}
	if st.Font != nil {
		f.Bold, f.Italic, f.Strike = ptr(st.Font.Bold), ptr(st.Font.Italic), ptr(st.Font.Strike)
		f.Underline = ptr(st.Font.Underline != "" && st.Font.Underline != "none")
		f.FontSize, f.FontName, f.FontColor = st.Font.Size, st.Font.Family, st.Font.Color
	}
	if len(st.Fill.Color) > 0 && st.Fill.Pattern == 1 {
		f.FillColor = hashColor(st.Fill.Color[0])
	}
	f.FontColor = hashColor(f.FontColor)
	if st.Alignment != nil {
		f.Align, f.VerticalAlign, f.WrapText = st.Alignment.Horizontal, st.Alignment.Vertical, ptr(st.Alignment.WrapText)
	}
	return f
}

func ptr(b bool) *bool { return &b }

// hashColor writes "FF0000" or "FFFF0000" (ARGB) as "#FF0000".
func hashColor(c string) string {
	c = strings.TrimPrefix(c, "#")
	if len(c) == 8 {
		c = c[2:]
	}
	if len(c) != 6 {
		return ""
	}
	return "#" + strings.ToUpper(c)
}

// builtinFormats are the number formats every workbook knows by number.
var builtinFormats = map[int]string{
	0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%",
	11: "0.00E+00", 12: "# ?/?", 13: "# ??/??", 14: "mm-dd-yy", 15: "d-mmm-yy", 16: "d-mmm",
	17: "mmm-yy", 18: "h:mm AM/PM", 19: "h:mm:ss AM/PM", 20: "h:mm", 21: "h:mm:ss",
	22: "m/d/yy h:mm", 37: "#,##0 ;(#,##0)", 38: "#,##0 ;[Red](#,##0)", 39: "#,##0.00;(#,##0.00)",
	40: "#,##0.00;[Red](#,##0.00)", 45: "mm:ss", 46: "[h]:mm:ss", 47: "mmss.0", 48: "##0.0E+0", 49: "@",
}
