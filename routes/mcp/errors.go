package mcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"convfiles/files"
)

// toolError turns a failure into the text a model reads in an isError
// result: what went wrong, in convfiles' words, and what to do instead.
// Internal failures say only that the server failed, never a host path.
// An internal failure is logged with its cause, as REST logs it.
func (s *Server) toolError(tool string, err error) error {
	kind := files.KindOf(err)
	if kind == files.KindCancelled || kind != files.KindUnavailable && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return fmt.Errorf("%s: the call was cancelled before it finished; nothing was changed", tool)
	}
	msg := files.MessageOf(err)
	switch {
	case kind == files.KindNotFound:
		msg += "; call file_list to see the conversation's files and their IDs"
	case kind == files.KindConflict && errors.Is(err, fs.ErrExist):
		msg += "; choose another name, pass replace: true to file_copy or file_rename, or use file_write_text to replace the file's content"
	case kind == files.KindNoSpace:
		msg += "; tell the user: the server needs disk space before anything can be written"
	case kind == files.KindUnavailable:
		s.log.Warn("tool: store unavailable", "tool", tool, "err", err)
	case kind == files.KindInternal:
		s.log.Error("tool failed", "tool", tool, "err", err)
		msg = "the server failed to do this; try again, and tell the user if it keeps failing"
	}
	return fmt.Errorf("%s: %s", tool, msg)
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
