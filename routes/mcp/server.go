package mcp

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/formats"
	"convfiles/runtime"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxMediaBytes caps the bytes file_read_media and resources/read
// send in one answer (base64 makes them a third larger on the wire): an
// image is scaled down to fit, anything else over it is refused with the
// tool that reads it in parts.
const DefaultMaxMediaBytes = 1 << 20

// DefaultSessionIdle is how long an idle MCP-over-HTTP session lives.
const DefaultSessionIdle = 30 * time.Minute

// Config is what the MCP door needs.
type Config struct {
	Store *engine.Store
	// Runner runs execute_script; nil leaves the tool out.
	Runner runtime.Executor
	// Formats runs the spreadsheet_*, pdf_* and image_* tools (default
	// formats.Local; a sandbox pool runs them in worker processes).
	Formats formats.Caller
	// Downloader fetches URLs for file_download; nil makes it refuse.
	Downloader runtime.Downloader
	// Link returns the browser link of a file; nil gives no links.
	Link func(conversation, name string) string
	// Conversation, when set, is the one conversation this server serves:
	// tools default to it and refuse any other.
	Conversation string
	// IO, when set, is the folder of execute_script calls that name no
	// conversation (toolscript's --io-dir), on a server that serves no
	// one conversation. The caller closes it.
	IO *engine.Space
	// MaxMediaBytes caps file_read_media and resource reads; 0 means
	// DefaultMaxMediaBytes.
	MaxMediaBytes int64
	// Hosted refuses every call that does not carry a principal from the
	// HTTP door's authentication (TokenInfo.Extra[PrincipalKey]); off,
	// a call without one is the local user's.
	Hosted bool
	// SessionIdle closes an HTTP session that sent no request for this
	// long (DefaultSessionIdle when zero).
	SessionIdle time.Duration
	// Stateless serves every HTTP request on its own, with no session:
	// any replica can answer any request, at the cost of notifications
	// (resource updates), which need a session to reach.
	Stateless bool
	// Tools are the tool groups offered (ToolGroups); none is CoreTools.
	Tools []string
	// Version is reported to clients in the initialize handshake.
	Version string
	Logger  *slog.Logger
}

// Server is convfiles' MCP server: one set of tools, resources and the
// prompt, served over any number of stdio or HTTP sessions.
type Server struct {
	cfg Config
	log *slog.Logger
	sdk *sdk.Server
	res *resources
	// schemas are the input schemas of the tools, by name.
	schemas map[string]*jsonschema.Schema
	// groups are the tool groups offered.
	groups []string
	stop   context.CancelFunc
	done   sync.WaitGroup
}

// New builds the Server and starts following the store's events, which
// keep its resources and their subscribers up to date. Close it when done.
func New(cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.MaxMediaBytes <= 0 {
		cfg.MaxMediaBytes = DefaultMaxMediaBytes
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.SessionIdle <= 0 {
		cfg.SessionIdle = DefaultSessionIdle
	}
	if cfg.Formats == nil {
		cfg.Formats = formats.Local{}
	}
	if cfg.Conversation != "" {
		if err := files.ValidateConversationID(cfg.Conversation); err != nil {
			return nil, err
		}
	}
	groups, err := ParseToolGroups(cfg.Tools)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: cfg.Logger, schemas: map[string]*jsonschema.Schema{}, groups: groups}
	s.res = newResources(s)
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "convfiles", Title: "convfiles", Version: cfg.Version}, &sdk.ServerOptions{
		Instructions:       instructions(cfg.Conversation),
		Logger:             sdkLogger(cfg.Logger),
		SubscribeHandler:   s.res.subscribe,
		UnsubscribeHandler: s.res.unsubscribe,
		Capabilities:       &sdk.ServerCapabilities{},
		PageSize:           500,
	})
	if err := s.registerTools(); err != nil {
		return nil, err
	}
	s.registerPrompt()
	s.sdk.AddReceivingMiddleware(s.res.checkURIs, s.res.listFromIndex)
	s.sdk.AddReceivingMiddleware(s.withPrincipal) // added last, so it runs first
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	if err := s.res.load(ctx); err != nil {
		cancel()
		return nil, err
	}
	return s, nil
}

// Run serves one session over t (the stdio transport for convfiles mcp)
// until the client leaves or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error { return s.sdk.Run(ctx, t) }

// Connect starts one session over t and returns it; tests use it with
// in-memory transports.
func (s *Server) Connect(ctx context.Context, t sdk.Transport) (*sdk.ServerSession, error) {
	return s.sdk.Connect(ctx, t, nil)
}

// HTTPHandler serves the streamable HTTP transport. Idle sessions end
// after Config.SessionIdle (Config.Stateless: there are none); the handler refuses requests whose Host is not local when
// they arrive on a loopback address (DNS rebinding).
func (s *Server) HTTPHandler() http.Handler {
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk }, &sdk.StreamableHTTPOptions{
		Logger:         sdkLogger(s.log),
		SessionTimeout: s.cfg.SessionIdle,
		Stateless:      s.cfg.Stateless,
	})
}

// SessionCount is how many sessions are open, over every transport.
func (s *Server) SessionCount() int {
	n := 0
	for range s.sdk.Sessions() {
		n++
	}
	return n
}

// Shutdown ends every session, so the long-lived streams of the HTTP
// transport do not hold a graceful shutdown; pass it to
// http.Server.RegisterOnShutdown.
func (s *Server) Shutdown() {
	for ss := range s.sdk.Sessions() {
		ss.Close()
	}
}

// Close stops following events and waits for the follower to end.
func (s *Server) Close() error {
	s.stop()
	s.done.Wait()
	return nil
}

func instructions(conv string) string {
	msg := "convfiles keeps the files of LLM conversations. Use the file_* and folder_* tools to list, read, search, edit (file_edit replaces exact text) and organise files, and execute_script to run JavaScript, TypeScript or Lua on them. The prompt \"convfiles\" teaches every script helper."
	if conv != "" {
		msg += " This server serves conversation " + conv + "; tools use it when conversation_id is omitted."
	} else {
		msg += " Every tool needs a conversation_id."
	}
	return msg
}

// sdkLogger is the logger the SDK gets: it logs every notification and
// session at Info, which would drown the server's own log, so only its
// warnings and errors pass.
func sdkLogger(l *slog.Logger) *slog.Logger {
	return slog.New(minLevel{l.Handler(), slog.LevelWarn})
}

// minLevel is a slog.Handler that drops records below a level.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(attrs), h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}
