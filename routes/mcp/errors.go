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
func toolError(tool string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: the call was cancelled before it finished", tool)
	}
	msg := files.MessageOf(err)
	switch kind := files.KindOf(err); {
	case kind == files.KindNotFound:
		msg += "; call file_list to see the conversation's files and their IDs"
	case kind == files.KindConflict && errors.Is(err, fs.ErrExist):
		msg += "; choose another name, or use file_write_text to replace the file's content"
	case kind == files.KindInternal:
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
