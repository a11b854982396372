package mcp

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"convfiles/auth"
	"convfiles/content"
	"convfiles/engine"
	"convfiles/files"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// uriScheme is the scheme of the files' resource URIs.
const uriScheme = "convfiles"

// uriTemplate matches every file's URI; {+name} keeps the "/" of names
// in folders.
const uriTemplate = uriScheme + "://{conversation_id}/{+name}"

// resources serves the files as MCP resources: resources/list pages
// through the index (see listFromIndex), resources/read reads a file by
// its URI, and the index's events, which come from every door and every
// process, become notifications: resources/updated to the subscribers of
// each changed file, and list_changed to every session.
type resources struct {
	s  *Server
	mu sync.Mutex
	// subscribed counts the subscriptions to each file, by conversation,
	// so the subscribers of a deleted conversation's files hear of it.
	subscribed map[string]map[string]int
}

func newResources(s *Server) *resources {
	return &resources{s: s, subscribed: map[string]map[string]int{}}
}

// resourceURI is a file's URI: each segment of its name percent-encoded.
func resourceURI(conv, name string) string {
	segs := strings.Split(name, "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return uriScheme + "://" + conv + "/" + strings.Join(segs, "/")
}

// parseURI splits a file's URI into its conversation and name, which the
// caller still validates like any other name.
func parseURI(uri string) (conv, name string, err error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != uriScheme || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", "", fmt.Errorf("%q is not a convfiles file URI; they look like %s://{conversation_id}/{name}", uri, uriScheme)
	}
	return u.Host, strings.TrimPrefix(u.Path, "/"), nil
}

// load registers the URI template and starts following events from the
// newest one on.
func (r *resources) load(ctx context.Context) error {
	r.s.sdk.AddResourceTemplate(&sdk.ResourceTemplate{
		Name:        "file",
		Title:       "A file of a conversation",
		Description: "Any file of a conversation, by its conversation ID and name.",
		URITemplate: uriTemplate,
	}, r.read)
	store := r.s.cfg.Store
	ix := store.Index()
	if ix == nil {
		return nil
	}
	_, last, err := ix.EventRange(ctx)
	if err != nil {
		return err
	}
	follow, err := store.Follow(r.s.cfg.Conversation, last)
	if err != nil {
		return err
	}
	r.s.done.Add(1)
	go r.follow(ctx, follow)
	return nil
}

// listChangedURI names no file (no conversation ID starts with "."): it
// is added and removed to have the SDK tell every session, once changes
// pause, that the list changed. resources/list never shows it.
const listChangedURI = uriScheme + "://.list-changed/"

func (r *resources) notifyListChanged() {
	r.s.sdk.AddResource(&sdk.Resource{URI: listChangedURI, Name: "list changed"}, r.read)
	r.s.sdk.RemoveResources(listChangedURI)
}

// follow applies the index's events to the mirror and notifies the
// subscribers of each changed file, until ctx ends.
func (r *resources) follow(ctx context.Context, f *engine.Follower) {
	defer r.s.done.Done()
	defer f.Close()
	for {
		evs, err := f.Next(ctx, 0)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			r.s.log.Error("mcp: following file events", "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(engine.FollowPoll):
			}
			continue
		}
		for _, ev := range evs {
			r.apply(ctx, ev)
		}
	}
}

func (r *resources) apply(ctx context.Context, ev files.Event) {
	var changed []string
	switch ev.Type {
	case files.FileCreated, files.FileModified:
		if ev.RenamedFrom != "" {
			changed = append(changed, ev.RenamedFrom)
		}
		changed = append(changed, ev.Name)
	case files.FileDeleted:
		changed = append(changed, ev.Name)
	case files.ConversationDeleted:
		r.mu.Lock()
		for name := range r.subscribed[ev.Conversation] {
			changed = append(changed, name)
		}
		r.mu.Unlock()
	}
	if ev.Type != files.FileModified || ev.RenamedFrom != "" {
		r.notifyListChanged()
	}
	for _, name := range changed {
		r.s.sdk.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: resourceURI(ev.Conversation, name)})
	}
}

// read answers resources/read: the file's text, or its bytes as a blob,
// with its MIME type.
func (r *resources) read(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	conv, name, err := r.target(ctx, uri)
	if err != nil {
		return nil, err
	}
	sp, err := r.s.cfg.Store.Space(conv)
	if err != nil {
		return nil, invalidParams(err.Error())
	}
	defer sp.Close()
	data, kind, mt, err := readWhole(ctx, sp, name, r.s.cfg.MaxMediaBytes, "resources/read")
	switch {
	case files.KindOf(err) == files.KindNotFound:
		return nil, sdk.ResourceNotFoundError(uri)
	case err != nil && files.KindOf(err) != files.KindInternal:
		return nil, invalidParams(files.MessageOf(err))
	case err != nil:
		return nil, err
	}
	rc := &sdk.ResourceContents{URI: uri, MIMEType: mt}
	if kind == content.KindText {
		rc.Text = string(data)
	} else {
		rc.Blob = data
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{rc}}, nil
}

// subscribe accepts subscriptions to the files this server serves, even
// to one not written yet: its creation is an update too.
func (r *resources) subscribe(ctx context.Context, req *sdk.SubscribeRequest) error {
	conv, name, err := r.target(ctx, req.Params.URI)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.subscribed[conv] == nil {
		r.subscribed[conv] = map[string]int{}
	}
	r.subscribed[conv][name]++
	return nil
}

// unsubscribe forgets one subscription to a file.
func (r *resources) unsubscribe(ctx context.Context, req *sdk.UnsubscribeRequest) error {
	conv, name, err := parseURI(req.Params.URI)
	if err != nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.subscribed[conv][name]--; r.subscribed[conv][name] <= 0 {
		delete(r.subscribed[conv], name)
		if len(r.subscribed[conv]) == 0 {
			delete(r.subscribed, conv)
		}
	}
	return nil
}

// target parses a file URI and checks it names a valid file of a
// conversation this server serves.
func (r *resources) target(ctx context.Context, uri string) (conv, name string, err error) {
	conv, name, err = parseURI(uri)
	if err != nil {
		return "", "", invalidParams(err.Error())
	}
	if conv, err = r.s.conversation(ctx, conv, auth.Read); err != nil {
		return "", "", invalidParams(files.MessageOf(err))
	}
	if name, err = files.ValidateName(name); err != nil {
		return "", "", invalidParams(files.MessageOf(err))
	}
	return conv, name, nil
}

// checkURIs is receiving middleware that vets the URI of resources/read
// before the SDK looks it up. The SDK answers a URI it cannot match with
// an error whose data is the URI quoted by Go's %q, which is not JSON for
// control characters: the answer cannot be encoded and the session ends.
// A hostile URI must cost its sender an error, not the connection.
func (r *resources) checkURIs(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method == "resources/read" {
			if rr, ok := req.(*sdk.ReadResourceRequest); ok && rr.Params != nil {
				if _, _, err := r.target(ctx, rr.Params.URI); err != nil {
					return nil, err
				}
			}
		}
		return next(ctx, method, req)
	}
}

func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}
