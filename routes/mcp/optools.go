package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"convfiles/formats"
	"convfiles/ops"
)

// idIn names one file, for the tools that are not operations of the
// table (file_read_media).
type idIn struct {
	Scope
	ID string `json:"id"`
}

// link is a file's browser link, or "" when the server has none.
func (s *Server) link(conv, name string) string {
	if s.cfg.Link == nil {
		return ""
	}
	return s.cfg.Link(conv, name)
}

// argsType is the type a tool call of op decodes into: the operation's
// input and conversation_id, side by side in one JSON object, so that
// decoding can refuse every field that is neither.
func argsType(op ops.Op) reflect.Type {
	return reflect.StructOf([]reflect.StructField{
		{Name: "In", Type: op.In, Anonymous: true},
		{Name: "ConversationID", Type: reflect.TypeFor[string](), Tag: `json:"conversation_id,omitempty"`},
	})
}

// addOpTools registers a tool for every operation of the table that has
// one: the MCP door is this adapter, nothing per operation.
func (s *Server) addOpTools() []error {
	var errs []error
	for _, op := range ops.All() {
		if op.Tool != "" && s.offers(op.Tool) {
			errs = append(errs, s.addOpTool(op))
		}
	}
	return errs
}

var encodedType = reflect.TypeFor[formats.Encoded]()

func (s *Server) addOpTool(op ops.Op) error {
	in, err := jsonschema.ForType(op.In, nil)
	if err != nil {
		return fmt.Errorf("mcp: schema of %s: %w", op.Tool, err)
	}
	scope, err := jsonschema.For[Scope](nil)
	if err != nil {
		return err
	}
	in.Properties["conversation_id"] = scope.Properties["conversation_id"]
	in.PropertyOrder = append(in.PropertyOrder, "conversation_id")
	tool, err := s.describeSchema(op.Tool, in, hints{readOnly: op.Effect == ops.Reads, destructive: op.Effect == ops.Destroys})
	if err != nil {
		return err
	}
	encoded := op.Out == encodedType // answered as an image a vision model sees
	long := longAnswers[op.Tool]
	if !encoded && !long {
		out, err := jsonschema.ForType(op.Out, nil)
		if err != nil {
			return fmt.Errorf("mcp: output schema of %s: %w", op.Tool, err)
		}
		if op.Wrap != "" {
			out = &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{op.Wrap: out}, Required: []string{op.Wrap}}
		}
		outputSchema(out)
		tool.OutputSchema = out
	}
	args := argsType(op)
	s.sdk.AddTool(tool, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		v := reflect.New(args)
		raw, err := op.CanonicalArgs(req.Params.Arguments) // seed 004's names, as metaclaw's clients send them
		if err != nil {
			err = fmt.Errorf("%s: %w. %s", op.Tool, err, s.usage(op.Tool))
		} else {
			err = s.decodeArgs(op.Tool, raw, v.Interface())
		}
		if err != nil {
			return errorResult(err), nil
		}
		c, release, err := s.open(ctx, req, v.Elem().Field(1).String())
		if err != nil {
			return errorResult(s.toolError(op.Tool, err)), nil
		}
		defer release()
		res, err := op.Run(ctx, s.env(c), v.Elem().Field(0).Addr().Interface())
		switch {
		case err == nil && long && op.Wrap != "":
			res, err = textAnswer(map[string]any{op.Wrap: res})
		case err == nil && long:
			res, err = textAnswer(res)
		case err == nil:
			res, err = answer(op, encoded, res)
		}
		if err != nil {
			return errorResult(s.toolError(op.Tool, err)), nil
		}
		return res.(*sdk.CallToolResult), nil
	})
	return nil
}

// longAnswers are the tools whose answer can be long (a file's text, a
// page of a listing, search hits). They answer in their text alone, the
// JSON a model reads, with no output schema and no structured copy: a
// client shows a model one of the two (Claude Code the structured one,
// most others the text), so sending both doubles the bytes on the wire
// and gives the model nothing more.
var longAnswers = map[string]bool{
	"file_read_text": true, "file_read_tail": true, "file_read_bytes": true, "file_list": true, "file_list_deleted": true,
	"file_search": true, "file_search_text": true, "file_tree": true, "file_versions": true,
	"spreadsheet_read_range": true, "spreadsheet_get_sheet_summary": true, "pdf_extract_text": true,
}

// textAnswer is a long answer: its JSON as the result's one text.
func textAnswer(res any) (*sdk.CallToolResult, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}, nil
}

// env is what an operation called over MCP works with: answers bounded
// to one message, format decoders in workers, links to the files.
func (s *Server) env(c *call) ops.Env {
	return ops.Env{Space: c.sp, Write: c.writeOpts(), Formats: s.cfg.Formats, MaxText: ops.ModelText, MaxAnswer: ops.ModelListing,
		Link: func(name string) string { return s.link(c.conv, name) }}
}

// answer turns an operation's result into the tool's answer.
func answer(op ops.Op, encoded bool, res any) (any, error) {
	if encoded {
		var enc formats.Encoded
		raw, err := json.Marshal(res)
		if err == nil {
			err = json.Unmarshal(raw, &enc)
		}
		if err != nil {
			return nil, err
		}
		return imageResult(enc)
	}
	if op.Wrap != "" {
		res = map[string]any{op.Wrap: res}
	}
	return structured(res)
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

// decodeArgs checks a call's arguments against the tool's schema and
// decodes them into in: an object, no parameter the tool does not take,
// every required one present and not null, each of its type (decoding
// into In checks that). Ranges and allowed values are checked by the
// handlers, with messages of their own. A mismatch says what was wrong
// and lists the parameters the tool takes, so the model can correct its
// call in one step.
func (s *Server) decodeArgs(name string, raw json.RawMessage, in any) error {
	schema := s.schemas[name]
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return fmt.Errorf("%s: the arguments must be a JSON object. %s", name, s.usage(name))
	}
	for k, v := range fields {
		if _, ok := schema.Properties[k]; !ok && (k != "conversation_id" || s.cfg.Conversation == "") {
			return fmt.Errorf("%s: it takes no parameter %q. %s", name, k, s.usage(name))
		}
		if string(v) == "null" {
			delete(fields, k)
		}
	}
	for _, k := range schema.Required {
		if _, ok := fields[k]; !ok {
			return fmt.Errorf("%s: the parameter %q is missing. %s", name, k, s.usage(name))
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields() // inside objects too: an option the tool does not know is never ignored
	if err := dec.Decode(in); err != nil {
		var te *json.UnmarshalTypeError
		if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return fmt.Errorf("%s: an object holds a field it does not take, %s. %s", name, field, s.usage(name))
		}
		if errors.As(err, &te) {
			field := strings.TrimPrefix(te.Field, "In.") // an operation's input, embedded in its arguments
			return fmt.Errorf("%s: the parameter %q must be %s, not %s. %s", name, field, schemaType(schema.Properties[field]), te.Value, s.usage(name))
		}
		return fmt.Errorf("%s: the arguments are not valid JSON (%v). %s", name, err, s.usage(name))
	}
	return nil
}

// schemaType names the JSON type of a property for an error message.
func schemaType(ps *jsonschema.Schema) string {
	if ps == nil {
		return "of another type"
	}
	switch ps.Type {
	case "":
		return "one of " + strings.Join(ps.Types, ", ")
	case "integer", "object":
		return "an " + ps.Type
	}
	return "a " + ps.Type
}
