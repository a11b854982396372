package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"convfiles/files"
)

// toolError turns a failure into the text a model reads in an isError
// result: what went wrong, in convfiles' words, and what to do instead.
// Internal failures say only that the server failed, never a host path.
func toolError(tool string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: the call was cancelled before it finished", tool)
	}
	kind := files.KindOf(err)
	msg := files.MessageOf(err)
	switch kind {
	case files.KindNotFound:
		msg += "; call file_list to see the conversation's files and their IDs"
	case files.KindConflict:
		if !strings.Contains(msg, "choose") {
			msg += "; choose another name, or use file_write_text to replace the file's content"
		}
	case files.KindInternal:
		msg = "the server failed to do this; try again, and tell the user if it keeps failing"
	}
	return fmt.Errorf("%s: %s", tool, msg)
}

// explainArguments is receiving middleware: when the SDK refuses a tool's
// arguments against its schema, the answer also lists the parameters the
// tool takes, so the model can correct its call in one step.
func (s *Server) explainArguments(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if method != "tools/call" || err != nil {
			return res, err
		}
		r, ok := res.(*sdk.CallToolResult)
		if !ok || !r.IsError || len(r.Content) == 0 {
			return res, err
		}
		text, ok := r.Content[0].(*sdk.TextContent)
		if !ok || !strings.HasPrefix(text.Text, `validating "arguments"`) {
			return res, err
		}
		name := req.(*sdk.CallToolRequest).Params.Name
		text.Text = name + ": the arguments do not fit the tool (" + strings.TrimPrefix(text.Text, `validating "arguments": `) + "). " + s.usage(name)
		return res, err
	}
}

// usage lists a tool's parameters, required ones first.
func (s *Server) usage(name string) string {
	schema, ok := s.schemas[name]
	if !ok {
		return ""
	}
	required := map[string]bool{}
	for _, r := range schema.Required {
		required[r] = true
	}
	var req, opt []string
	for p, ps := range schema.Properties {
		typ := ps.Type
		if typ == "" {
			typ = strings.Join(ps.Types, " or ")
		}
		t := p + " (" + typ + ")"
		if required[p] {
			req = append(req, t)
		} else {
			opt = append(opt, t)
		}
	}
	slices.Sort(req)
	slices.Sort(opt)
	out := name + " takes " + strings.Join(req, ", ")
	if len(opt) > 0 {
		out += "; optional: " + strings.Join(opt, ", ")
	}
	return out + "."
}
