package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"convfiles/formats"
)

// formatTool is one spreadsheet_*, pdf_* or image_* tool: a formats
// function whose argument struct is the tool's input (plus
// conversation_id). wrap names the property a result that is not a JSON
// object is answered under ("values", "sheets"), since structured content
// is an object.
type formatTool struct {
	name string
	h    hints
	add  func(s *Server, name string, h hints) error
}

// formatOp adapts a formats function as a tool.
func formatOp[A, R any](name string, h hints, wrap string, f func(context.Context, formats.Env, A) (R, error)) formatTool {
	return formatTool{name: name, h: h, add: func(s *Server, name string, h hints) error {
		return addFormatTool(s, name, h, wrap, f)
	}}
}

func addFormatTool[A, R any](s *Server, name string, h hints, wrap string, f func(context.Context, formats.Env, A) (R, error)) error {
	in, err := jsonschema.For[A](nil)
	if err != nil {
		return fmt.Errorf("mcp: schema of %s: %w", name, err)
	}
	scope, err := jsonschema.For[Scope](nil)
	if err != nil {
		return err
	}
	explicitAny(in)
	in.Properties["conversation_id"] = scope.Properties["conversation_id"]
	in.PropertyOrder = append(in.PropertyOrder, "conversation_id")
	tool, err := s.describeSchema(name, in, h)
	if err != nil {
		return err
	}
	out, err := jsonschema.For[R](nil)
	if err != nil {
		return fmt.Errorf("mcp: output schema of %s: %w", name, err)
	}
	if wrap != "" {
		out = &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{wrap: out}, Required: []string{wrap}}
	}
	explicitAny(out)
	tool.OutputSchema = out
	s.sdk.AddTool(tool, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var a A
		var sc Scope
		if err := s.decodeArgs(name, req.Params.Arguments, &a); err != nil {
			return errorResult(err), nil
		}
		if len(req.Params.Arguments) > 0 {
			_ = json.Unmarshal(req.Params.Arguments, &sc)
		}
		c, release, err := s.open(ctx, req, sc.conversation())
		if err != nil {
			return errorResult(toolError(name, err)), nil
		}
		defer release()
		res, err := f(ctx, formats.Env{Space: c.sp, Write: c.writeOpts()}, a)
		if err != nil {
			return errorResult(toolError(name, err)), nil
		}
		if enc, ok := any(res).(formats.Encoded); ok {
			return imageResult(enc)
		}
		if wrap != "" {
			return structured(map[string]any{wrap: res})
		}
		return structured(res)
	})
	return nil
}

// imageResult answers image_to_base64 with the image itself, which a
// vision model sees, and its size as structured content.
func imageResult(e formats.Encoded) (*sdk.CallToolResult, error) {
	meta, err := json.Marshal(map[string]any{"mime_type": e.MIME, "width": e.Width, "height": e.Height, "data": e.Data})
	if err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.ImageContent{Data: e.Data, MIMEType: e.MIME}},
		StructuredContent: json.RawMessage(meta),
	}, nil
}

// formatTools are the format-aware tools of seed 004, named as it names
// them.
func formatTools() []formatTool {
	read, write, destroy := hints{readOnly: true}, hints{}, hints{destructive: true}
	return []formatTool{
		formatOp("spreadsheet_list_sheets", read, "sheets", formats.ListSheets),
		formatOp("spreadsheet_get_sheet_summary", read, "", formats.SheetSummary),
		formatOp("spreadsheet_read_range", read, "values", formats.ReadRange),
		formatOp("spreadsheet_write_range", destroy, "", formats.WriteRange),
		formatOp("spreadsheet_read_cell", read, "", formats.ReadCell),
		formatOp("spreadsheet_write_cell", destroy, "", formats.WriteCell),
		formatOp("spreadsheet_add_sheet", write, "", formats.AddSheet),
		formatOp("spreadsheet_delete_sheet", destroy, "", formats.DeleteSheet),
		formatOp("spreadsheet_insert_rows", write, "", formats.InsertRows),
		formatOp("spreadsheet_delete_rows", destroy, "", formats.DeleteRows),
		formatOp("spreadsheet_set_format", write, "", formats.SetFormat),
		formatOp("spreadsheet_auto_filter", write, "", formats.AutoFilter),
		formatOp("pdf_info", read, "", formats.PDFInfo),
		formatOp("pdf_extract_text", read, "", formats.ExtractText),
		formatOp("pdf_add_page", write, "", formats.AddPage),
		formatOp("pdf_delete_page", destroy, "", formats.DeletePage),
		formatOp("pdf_add_text", write, "", formats.AddText),
		formatOp("pdf_add_image", write, "", formats.AddImage),
		formatOp("pdf_get_form_fields", read, "fields", formats.FormFields),
		formatOp("pdf_fill_form", destroy, "", formats.FillForm),
		formatOp("pdf_merge", write, "", formats.Merge),
		formatOp("pdf_split_pages", write, "files", formats.SplitPages),
		formatOp("image_info", read, "", formats.ImageInfo),
		formatOp("image_resize", write, "", formats.Resize),
		formatOp("image_crop", write, "", formats.Crop),
		formatOp("image_convert", write, "", formats.Convert),
		formatOp("image_composite", write, "", formats.Composite),
		formatOp("image_to_base64", read, "", formats.ToBase64),
	}
}

// anyValue is the schema of a JSON value of any scalar type: what a cell
// holds. jsonschema-go writes Go's any as the schema true, which some
// clients (the TypeScript SDK) reject inside a tool's schemas.
var anyValue = jsonschema.Schema{Types: []string{"null", "boolean", "number", "string"}}

// explicitAny replaces every "true" schema inside s by anyValue.
func explicitAny(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	fix := func(p **jsonschema.Schema) {
		if *p != nil && reflect.DeepEqual(**p, jsonschema.Schema{}) {
			v := anyValue
			*p = &v
			return
		}
		explicitAny(*p)
	}
	for k := range s.Properties {
		p := s.Properties[k]
		fix(&p)
		s.Properties[k] = p
	}
	fix(&s.Items)
	fix(&s.AdditionalProperties)
}
