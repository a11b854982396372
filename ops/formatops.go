package ops

import (
	"context"
	"reflect"

	"convfiles/files"
	"convfiles/formats"
)

// format adds a formats function to the table. Its input is the
// function's argument struct; it runs through env.Formats (a worker
// process, where a decoder that loops on a hostile file can be stopped)
// or, without one, in this process.
func format[A, R any](group, js string, params []string, tool string, effect Effect, wrap string, f func(context.Context, formats.Env, A) (R, error)) {
	name := formats.NameOf(f)
	def(Op{Name: tool, Group: group, JS: js, Params: params, Tool: tool, Effect: effect, Wrap: wrap},
		func(ctx context.Context, env Env, in A) (any, error) {
			fenv := formats.Env{Space: env.Space, Write: env.Write, Wrote: func(n string) { env.touched(n, files.Wrote) }}
			if env.Formats == nil {
				return f(ctx, fenv, in)
			}
			// The worker cannot call back: a door that runs format
			// operations in workers does not listen for touches.
			return env.Formats.Call(ctx, fenv, name, in)
		})
	op := table[tool]
	op.Out = reflect.TypeFor[R]()
	table[tool] = op
}

func init() {
	const sheet, pdf, image = "spreadsheet", "pdf", "image"
	format(sheet, "create", []string{"file", "...options"}, "spreadsheet_create", Writes, "", formats.CreateSheet)
	withSample("spreadsheet_create", "{}")
	format(sheet, "fromRows", []string{"rows", "name", "...options"}, "spreadsheet_from_rows", Writes, "", formats.FromRows)
	withSample("spreadsheet_from_rows", `{"name": "rows.xlsx"}`)
	format(sheet, "listSheets", []string{"file"}, "spreadsheet_list_sheets", Reads, "sheets", formats.ListSheets)
	format(sheet, "getSheetSummary", []string{"file", "sheet", "...options"}, "spreadsheet_get_sheet_summary", Reads, "", formats.SheetSummary)
	format(sheet, "readRange", []string{"file", "sheet", "range"}, "spreadsheet_read_range", Reads, "values", formats.ReadRange)
	format(sheet, "writeRange", []string{"file", "sheet", "start", "values"}, "spreadsheet_write_range", Destroys, "", formats.WriteRange)
	format(sheet, "readCell", []string{"file", "sheet", "cell"}, "spreadsheet_read_cell", Reads, "", formats.ReadCell)
	format(sheet, "writeCell", []string{"file", "sheet", "cell", "value", "...options"}, "spreadsheet_write_cell", Destroys, "", formats.WriteCell)
	format(sheet, "addSheet", []string{"file", "name"}, "spreadsheet_add_sheet", Writes, "", formats.AddSheet)
	format(sheet, "deleteSheet", []string{"file", "name"}, "spreadsheet_delete_sheet", Destroys, "", formats.DeleteSheet)
	format(sheet, "insertRows", []string{"file", "sheet", "at", "count"}, "spreadsheet_insert_rows", Writes, "", formats.InsertRows)
	format(sheet, "deleteRows", []string{"file", "sheet", "at", "count"}, "spreadsheet_delete_rows", Destroys, "", formats.DeleteRows)
	format(sheet, "setFormat", []string{"file", "sheet", "range", "format"}, "spreadsheet_set_format", Writes, "", formats.SetFormat)
	format(sheet, "autoFilter", []string{"file", "sheet", "range"}, "spreadsheet_auto_filter", Writes, "", formats.AutoFilter)

	format(pdf, "create", []string{"file", "...options"}, "pdf_create", Writes, "", formats.CreatePDF)
	withSample("pdf_create", "{}")
	format(pdf, "info", []string{"file"}, "pdf_info", Reads, "", formats.PDFInfo)
	format(pdf, "extractText", []string{"file", "...options"}, "pdf_extract_text", Reads, "", formats.ExtractText)
	format(pdf, "addPage", []string{"file", "...options"}, "pdf_add_page", Writes, "", formats.AddPage)
	format(pdf, "deletePage", []string{"file", "page"}, "pdf_delete_page", Destroys, "", formats.DeletePage)
	format(pdf, "addText", []string{"file", "page", "text", "position", "style"}, "pdf_add_text", Writes, "", formats.AddText)
	format(pdf, "addImage", []string{"file", "page", "image", "position", "size"}, "pdf_add_image", Writes, "", formats.AddImage)
	format(pdf, "getFormFields", []string{"file"}, "pdf_get_form_fields", Reads, "fields", formats.FormFields)
	format(pdf, "fillForm", []string{"file", "fields"}, "pdf_fill_form", Destroys, "", formats.FillForm)
	format(pdf, "merge", []string{"files", "output"}, "pdf_merge", Writes, "", formats.Merge)
	format(pdf, "fromMarkdown", []string{"markdown", "name", "...options"}, "pdf_from_markdown", Writes, "", formats.FromMarkdown)
	withSample("pdf_from_markdown", `{"name": "report.pdf"}`)
	format(pdf, "splitPages", []string{"file", "ranges", "...options"}, "pdf_split_pages", Writes, "files", formats.SplitPages)

	format(image, "info", []string{"file"}, "image_info", Reads, "", formats.ImageInfo)
	format(image, "resize", []string{"file", "width", "height", "...options"}, "image_resize", Writes, "", formats.Resize)
	format(image, "crop", []string{"file", "region", "...options"}, "image_crop", Writes, "", formats.Crop)
	format(image, "convert", []string{"file", "format", "...options"}, "image_convert", Writes, "", formats.Convert)
	format(image, "composite", []string{"file", "overlays", "...options"}, "image_composite", Writes, "", formats.Composite)
	format(image, "toBase64", []string{"file", "...options"}, "image_to_base64", Reads, "", formats.ToBase64)

	format("chart", "render", []string{"spec", "name"}, "chart_render", Writes, "", formats.RenderChart)
	withSample("chart_render", `{"name": "chart.png"}`)
}

// withSample sets the sample input of an operation the table gained.
func withSample(name, sample string) {
	op := table[name]
	op.Sample = sample
	table[name] = op
}
