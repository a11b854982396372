package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"convfiles/formats"
)

// formatIn is the input of a format tool: the formats function's argument
// struct A, plus conversation_id, side by side in one JSON object.
type formatIn[A any] struct {
	Scope
	args A
}

// UnmarshalJSON fills both the scope and the arguments from one object.
func (in *formatIn[A]) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &in.Scope); err != nil {
		return err
	}
	return json.Unmarshal(b, &in.args)
}

// inputSchema is A's schema with conversation_id added.
func (formatIn[A]) inputSchema() (*jsonschema.Schema, error) {
	in, err := jsonschema.For[A](nil)
	if err != nil {
		return nil, err
	}
	scope, err := jsonschema.For[Scope](nil)
	if err != nil {
		return nil, err
	}
	in.Properties["conversation_id"] = scope.Properties["conversation_id"]
	in.PropertyOrder = append(in.PropertyOrder, "conversation_id")
	return in, nil
}

// formatOp registers a formats function as a tool. wrap names the
// property a result that is not a JSON object is answered under ("values",
// "sheets"), since structured content is an object.
func formatOp[A, R any](s *Server, name string, h hints, wrap string, f func(context.Context, formats.Env, A) (R, error)) error {
	out, err := jsonschema.For[R](nil)
	if err != nil {
		return fmt.Errorf("mcp: output schema of %s: %w", name, err)
	}
	if wrap != "" {
		out = &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{wrap: out}, Required: []string{wrap}}
	}
	op := formats.NameOf(f)
	_, encoded := any(*new(R)).(formats.Encoded)
	return addTool(s, name, h, out, func(c *call, in formatIn[A]) (*sdk.CallToolResult, error) {
		res, err := s.cfg.Formats.Call(c.ctx, formats.Env{Space: c.sp, Write: c.writeOpts()}, op, in.args)
		if err != nil {
			return nil, err
		}
		if encoded {
			var enc formats.Encoded
			if err := json.Unmarshal(res, &enc); err != nil {
				return nil, err
			}
			return imageResult(enc)
		}
		if wrap != "" {
			return structured(map[string]any{wrap: res})
		}
		return structured(res)
	})
}

// imageResult answers image_to_base64 with the image itself, which a
// vision model sees, and its size as structured content.
func imageResult(e formats.Encoded) (*sdk.CallToolResult, error) {
	meta, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.ImageContent{Data: e.Data, MIMEType: e.MIME}},
		StructuredContent: json.RawMessage(meta),
	}, nil
}

// addFormatTools registers the format-aware tools of seed 004, named as it
// names them.
func (s *Server) addFormatTools() []error {
	read, write, destroy := hints{readOnly: true}, hints{}, hints{destructive: true}
	return []error{
		formatOp(s, "spreadsheet_list_sheets", read, "sheets", formats.ListSheets),
		formatOp(s, "spreadsheet_get_sheet_summary", read, "", formats.SheetSummary),
		formatOp(s, "spreadsheet_read_range", read, "values", formats.ReadRange),
		formatOp(s, "spreadsheet_write_range", destroy, "", formats.WriteRange),
		formatOp(s, "spreadsheet_read_cell", read, "", formats.ReadCell),
		formatOp(s, "spreadsheet_write_cell", destroy, "", formats.WriteCell),
		formatOp(s, "spreadsheet_add_sheet", write, "", formats.AddSheet),
		formatOp(s, "spreadsheet_delete_sheet", destroy, "", formats.DeleteSheet),
		formatOp(s, "spreadsheet_insert_rows", write, "", formats.InsertRows),
		formatOp(s, "spreadsheet_delete_rows", destroy, "", formats.DeleteRows),
		formatOp(s, "spreadsheet_set_format", write, "", formats.SetFormat),
		formatOp(s, "spreadsheet_auto_filter", write, "", formats.AutoFilter),
		formatOp(s, "pdf_info", read, "", formats.PDFInfo),
		formatOp(s, "pdf_extract_text", read, "", formats.ExtractText),
		formatOp(s, "pdf_add_page", write, "", formats.AddPage),
		formatOp(s, "pdf_delete_page", destroy, "", formats.DeletePage),
		formatOp(s, "pdf_add_text", write, "", formats.AddText),
		formatOp(s, "pdf_add_image", write, "", formats.AddImage),
		formatOp(s, "pdf_get_form_fields", read, "fields", formats.FormFields),
		formatOp(s, "pdf_fill_form", destroy, "", formats.FillForm),
		formatOp(s, "pdf_merge", write, "", formats.Merge),
		formatOp(s, "pdf_split_pages", write, "files", formats.SplitPages),
		formatOp(s, "image_info", read, "", formats.ImageInfo),
		formatOp(s, "image_resize", write, "", formats.Resize),
		formatOp(s, "image_crop", write, "", formats.Crop),
		formatOp(s, "image_convert", write, "", formats.Convert),
		formatOp(s, "image_composite", write, "", formats.Composite),
		formatOp(s, "image_to_base64", read, "", formats.ToBase64),
	}
}
