package mcp

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"convfiles/files"
	"convfiles/prompts"
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
	sp      *files.Space
	conv    string
	session string
}

// writeOpts are the options of a tool's writes: they record the MCP
// session as the source session of files it creates.
func (c *call) writeOpts() files.WriteOptions { return files.WriteOptions{Session: c.session} }

// hints say how a tool treats the world, for clients that ask before
// running destructive tools.
type hints struct{ readOnly, destructive, openWorld bool }

// addFileTool registers a tool whose handler works in one conversation:
// its input schema comes from In, its descriptions from prompts/tools.md,
// and a failure becomes a tool error that tells the model what to change.
func addFileTool[In scoped, Out any](s *Server, name string, h hints, fn func(c *call, in In) (Out, error)) error {
	tool, err := describe[In](s, name, h)
	if err != nil {
		return err
	}
	sdk.AddTool(s.sdk, tool, func(ctx context.Context, req *sdk.CallToolRequest, in In) (*sdk.CallToolResult, Out, error) {
		var zero Out
		c, release, err := s.open(ctx, req, in.conversation())
		if err != nil {
			return nil, zero, toolError(name, err)
		}
		defer release()
		out, err := fn(c, in)
		if err != nil {
			return nil, zero, toolError(name, err)
		}
		return nil, out, nil
	})
	return nil
}

// describe builds a tool's definition: the schema of In with every
// property described for an LLM. A property tools.md does not describe is
// a build error, so no parameter reaches a model unexplained.
func describe[In any](s *Server, name string, h hints) (*sdk.Tool, error) {
	text, ok := prompts.Tool(name)
	if !ok {
		return nil, fmt.Errorf("mcp: prompts/tools.md has no section for tool %s", name)
	}
	shared, _ := prompts.Tool(prompts.SharedTool)
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		return nil, fmt.Errorf("mcp: schema of %s: %w", name, err)
	}
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
	conv, err := s.conversation(conv)
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
func (s *Server) conversation(asked string) (string, error) {
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
