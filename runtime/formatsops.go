package runtime

import (
	"convfiles/formats"
)

// The methods of files.spreadsheet, files.pdf and files.image, with their
// positional parameters as seed 004 lists them.
var (
	spreadsheetOps = []formatOp{
		op("listSheets", []string{"file"}, formats.ListSheets),
		op("getSheetSummary", []string{"file", "sheet", "...options"}, formats.SheetSummary),
		op("readRange", []string{"file", "sheet", "range"}, formats.ReadRange),
		op("writeRange", []string{"file", "sheet", "start", "values"}, formats.WriteRange),
		op("readCell", []string{"file", "sheet", "cell"}, formats.ReadCell),
		op("writeCell", []string{"file", "sheet", "cell", "value", "...options"}, formats.WriteCell),
		op("addSheet", []string{"file", "name"}, formats.AddSheet),
		op("deleteSheet", []string{"file", "name"}, formats.DeleteSheet),
		op("insertRows", []string{"file", "sheet", "at", "count"}, formats.InsertRows),
		op("deleteRows", []string{"file", "sheet", "at", "count"}, formats.DeleteRows),
		op("setFormat", []string{"file", "sheet", "range", "format"}, formats.SetFormat),
		op("autoFilter", []string{"file", "sheet", "range"}, formats.AutoFilter),
	}
	pdfOps = []formatOp{
		op("info", []string{"file"}, formats.PDFInfo),
		op("extractText", []string{"file", "...options"}, formats.ExtractText),
		op("addPage", []string{"file", "...options"}, formats.AddPage),
		op("deletePage", []string{"file", "page"}, formats.DeletePage),
		op("addText", []string{"file", "page", "text", "position", "style"}, formats.AddText),
		op("addImage", []string{"file", "page", "image", "position", "size"}, formats.AddImage),
		op("getFormFields", []string{"file"}, formats.FormFields),
		op("fillForm", []string{"file", "fields"}, formats.FillForm),
		op("merge", []string{"files", "output"}, formats.Merge),
		op("splitPages", []string{"file", "ranges", "...options"}, formats.SplitPages),
	}
	imageOps = []formatOp{
		op("info", []string{"file"}, formats.ImageInfo),
		op("resize", []string{"file", "width", "height", "...options"}, formats.Resize),
		op("crop", []string{"file", "region", "...options"}, formats.Crop),
		op("convert", []string{"file", "format", "...options"}, formats.Convert),
		op("composite", []string{"file", "overlays", "...options"}, formats.Composite),
		op("toBase64", []string{"file", "...options"}, formats.ToBase64),
	}
)
