package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"convfiles/auth"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/ops"
	"convfiles/prompts"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Scope is the parameter every tool takes: the conversation it works in.
type Scope struct {
	ConversationID string `json:"conversation_id,omitempty"`
}

func (sc Scope) conversation() string { return sc.ConversationID }

// scoped is every tool input: it names (or omits) its conversation.
type scoped interface{ conversation() string }

// call is what a file tool's handler works with: the conversation's
// folder and who is calling.
type call struct {
	ctx     context.Context
	sp      *engine.Space
	conv    string
	session string
}

// writeOpts are the options of a tool's writes: they record the MCP
// session as the source session of files it creates.
func (c *call) writeOpts() files.WriteOptions { return files.WriteOptions{Session: c.session} }

// hints say how a tool treats the world, for clients that ask before
// running destructive tools.
type hints struct{ readOnly, destructive, openWorld bool }

// addFileTool registers a tool whose handler works in one conversation
// and answers a JSON object: Out is its structured content and its text.
func addFileTool[In scoped, Out any](s *Server, name string, h hints, fn func(c *call, in In) (Out, error)) error {
	outSchema, err := jsonschema.For[Out](nil)
	if err != nil {
		return fmt.Errorf("mcp: output schema of %s: %w", name, err)
	}
	return addTool(s, name, h, outSchema, func(c *call, in In) (*sdk.CallToolResult, error) {
		out, err := fn(c, in)
		if err != nil {
			return nil, err
		}
		return structured(out)
	})
}

// addTool registers a tool: its input schema comes from In, its
// descriptions from prompts/tools.md. Arguments are decoded and checked
// here rather than by the SDK's typed handlers, whose JSON decoder
// allocates 32 KiB per value (four of those per call made the garbage
// collector the largest cost of a 1 KiB read) and whose reflective schema
// validation cost more than the read itself. A failure becomes a tool
// error that tells the model what to change.
func addTool[In scoped](s *Server, name string, h hints, outSchema *jsonschema.Schema, fn func(c *call, in In) (*sdk.CallToolResult, error)) error {
	tool, err := describe[In](s, name, h)
	if err != nil {
		return err
	}
	if outSchema != nil {
		outputSchema(outSchema)
		tool.OutputSchema = outSchema
	}
	s.sdk.AddTool(tool, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var in In
		if err := s.decodeArgs(name, req.Params.Arguments, &in); err != nil {
			return errorResult(err), nil
		}
		var c *call
		if s.scriptsWithoutConversation(name, in.conversation()) {
			c = &call{ctx: ctx, sp: s.cfg.IO}
		} else {
			opened, release, err := s.open(ctx, req, in.conversation())
			if err != nil {
				return errorResult(s.toolError(name, err)), nil
			}
			defer release()
			c = opened
		}
		res, err := fn(c, in)
		if err != nil {
			return errorResult(s.toolError(name, err)), nil
		}
		return res, nil
	})
	return nil
}

// structured answers a JSON object as the result's structured content and
// as its text, for clients that read only text.
func structured(out any) (*sdk.CallToolResult, error) {
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	// The value itself, not b as a json.RawMessage: encoding/json re-scans
	// a RawMessage byte by byte, and encodes the value again faster.
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: out}, nil
}

// errorResult is a tool error: isError with the message as its text.
func errorResult(err error) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}
}

// describe builds a tool's definition: the schema of In with every
// property described for an LLM. A property tools.md does not describe is
// a build error, so no parameter reaches a model unexplained.
func describe[In any](s *Server, name string, h hints) (*sdk.Tool, error) {
	var schema *jsonschema.Schema
	var err error
	if own, ok := any(*new(In)).(interface {
		inputSchema() (*jsonschema.Schema, error)
	}); ok {
		schema, err = own.inputSchema()
	} else {
		schema, err = jsonschema.For[In](nil)
	}
	if err != nil {
		return nil, fmt.Errorf("mcp: schema of %s: %w", name, err)
	}
	return s.describeSchema(name, schema, h)
}

// describeSchema describes a tool whose input schema is given.
func (s *Server) describeSchema(name string, schema *jsonschema.Schema, h hints) (*sdk.Tool, error) {
	text, ok := prompts.Tool(name)
	if !ok {
		return nil, fmt.Errorf("mcp: prompts/tools.md has no section for tool %s", name)
	}
	shared, _ := prompts.Tool(prompts.SharedTool)
	for prop, ps := range schema.Properties {
		d, ok := text.Params[prop]
		if !ok {
			d, ok = shared.Params[prop]
		}
		if !ok {
			return nil, fmt.Errorf("mcp: prompts/tools.md does not describe parameter %s of %s", prop, name)
		}
		ps.Description = d
	}
	for param := range text.Params {
		if _, ok := schema.Properties[param]; !ok {
			return nil, fmt.Errorf("mcp: prompts/tools.md describes %s of %s, which it does not take", param, name)
		}
	}
	if narrow, ok := narrowInputs[name]; ok {
		narrow(schema)
	}
	if s.cfg.Conversation != "" { // bound: the conversation is not the model's to choose
		delete(schema.Properties, "conversation_id")
		schema.PropertyOrder = slices.DeleteFunc(schema.PropertyOrder, func(p string) bool { return p == "conversation_id" })
	}
	plainTypes(schema)
	explicitAny(schema)
	s.schemas[name] = schema
	destructive := h.destructive
	return &sdk.Tool{
		Name:        name,
		Description: text.Description,
		InputSchema: schema,
		Annotations: &sdk.ToolAnnotations{
			ReadOnlyHint:    h.readOnly,
			DestructiveHint: &destructive,
			OpenWorldHint:   &h.openWorld,
		},
	}, nil
}

// open resolves the conversation of a call and opens its folder.
func (s *Server) open(ctx context.Context, req *sdk.CallToolRequest, conv string) (*call, func(), error) {
	conv, err := s.conversation(ctx, conv, auth.Read)
	if err != nil {
		return nil, nil, err
	}
	sp, err := s.cfg.Store.Space(conv)
	if err != nil {
		return nil, nil, err
	}
	c := &call{ctx: ctx, sp: sp, conv: conv}
	if req != nil && req.Session != nil {
		c.session = req.Session.ID()
	}
	return c, func() { sp.Close() }, nil
}

// conversation is the conversation a call works in: the one it names, or
// the server's own. A server started for one conversation refuses others.
func (s *Server) conversation(ctx context.Context, asked string, need auth.Scope) (string, error) {
	conv, err := s.resolveConversation(asked)
	if err != nil {
		return "", err
	}
	return conv, ops.Authorize(ctx, conv, need)
}

func (s *Server) resolveConversation(asked string) (string, error) {
	own := s.cfg.Conversation
	switch {
	case asked == "" && own == "":
		return "", files.E("conversation", files.KindInvalid, "", "conversation_id is required: pass the ID of the conversation whose files to use", nil)
	case asked == "":
		return own, nil
	case own != "" && asked != own:
		return "", files.E("conversation", files.KindForbidden, asked, "this server serves conversation "+own+" only; omit conversation_id or pass "+own, nil)
	}
	if err := files.ValidateConversationID(asked); err != nil {
		return "", err
	}
	return asked, nil
}

// registerTools adds every tool. The file tools mirror seed 004's
// meta-tools and the files.* helpers of scripts; execute_script is seed
// 001's script tool.
func (s *Server) registerTools() error {
	var steps []error
	if s.offers("file_download") {
		steps = append(steps, addFileTool(s, "file_download", hints{openWorld: true}, s.fileDownload))
	}
	if s.offers("file_read_media") {
		steps = append(steps, s.addMediaTool())
	}
	steps = append(steps, s.addOpTools()...)
	if s.cfg.Runner != nil && s.offers("execute_script") {
		steps = append(steps, s.addScriptTool())
	}
	for _, err := range steps {
		if err != nil {
			return err
		}
	}
	return nil
}

// addMediaTool registers file_read_media, whose answer is content (an
// image or an embedded resource) rather than JSON.
func (s *Server) addMediaTool() error {
	return addTool(s, "file_read_media", hints{readOnly: true}, nil, s.fileReadMedia)
}
