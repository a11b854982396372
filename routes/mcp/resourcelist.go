package mcp

import (
	"context"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"time"

	"convfiles/auth"
	"convfiles/content"
	"convfiles/files"
	"convfiles/files/driver"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// resourcePage is how many files one resources/list answer holds.
const resourcePage = 500

// listFromIndex is receiving middleware that answers resources/list from
// the index, a page at a time, with the conversations the caller reaches:
// the server keeps no list of every file in memory, so neither its start
// nor its size grows with the store.
func (r *resources) listFromIndex(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method != "resources/list" {
			return next(ctx, method, req)
		}
		cursor := ""
		if lr, ok := req.(*sdk.ListResourcesRequest); ok && lr.Params != nil {
			cursor = lr.Params.Cursor
		}
		return r.list(ctx, cursor)
	}
}

// list answers one page, from the cursor on: a conversation and how many
// of its files (in name order) earlier pages held.
func (r *resources) list(ctx context.Context, cursor string) (*sdk.ListResourcesResult, error) {
	out := &sdk.ListResourcesResult{Resources: []*sdk.Resource{}}
	ix := r.s.cfg.Store.Index()
	if ix == nil {
		return out, nil
	}
	from, offset, err := parseCursor(cursor)
	if err != nil {
		return nil, err
	}
	convs, err := r.reachable(ctx, ix)
	if err != nil {
		return nil, err
	}
	for _, conv := range convs {
		if conv < from {
			continue
		}
		if conv > from {
			offset = 0
		}
		recs, total, err := ix.List(ctx, conv, files.ListQuery{Sort: files.SortName, Limit: resourcePage - len(out.Resources), Offset: offset})
		if err != nil {
			return nil, err
		}
		for _, rec := range recs {
			out.Resources = append(out.Resources, &sdk.Resource{URI: resourceURI(conv, rec.Name), Name: rec.Name,
				MIMEType: content.RecordedMIME(rec.Name, rec.MIME), Size: rec.Size,
				Annotations: &sdk.Annotations{LastModified: rec.Modified.UTC().Format(time.RFC3339Nano)}})
		}
		if len(out.Resources) == resourcePage {
			if next := offset + len(recs); next < total {
				out.NextCursor = makeCursor(conv, next)
			} else if i := slices.Index(convs, conv); i+1 < len(convs) {
				out.NextCursor = makeCursor(convs[i+1], 0)
			}
			return out, nil
		}
	}
	return out, nil
}

// reachable lists, in order, the conversations whose files the caller may
// list: the server's own one, or those of the index its principal reaches.
func (r *resources) reachable(ctx context.Context, ix driver.Index) ([]string, error) {
	p := auth.FromContext(ctx)
	if p == nil {
		return nil, nil
	}
	if c := r.s.cfg.Conversation; c != "" {
		if !p.Reaches(c) {
			return nil, nil
		}
		return []string{c}, nil
	}
	ids, err := ix.ConversationIDs(ctx)
	if err != nil {
		return nil, err
	}
	out := ids[:0]
	for _, id := range ids {
		if files.ValidateConversationID(id) == nil && p.Reaches(id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

func makeCursor(conv string, offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(conv + "\x00" + strconv.Itoa(offset)))
}

func parseCursor(cursor string) (conv string, offset int, err error) {
	if cursor == "" {
		return "", 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	conv, n, ok := strings.Cut(string(b), "\x00")
	if err == nil && ok {
		offset, err = strconv.Atoi(n)
	}
	if err != nil || !ok || offset < 0 {
		return "", 0, invalidParams("the cursor is not one this server gave; list again without it")
	}
	return conv, offset, nil
}
