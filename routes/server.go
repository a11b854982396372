package routes

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"convfiles/auth"
	"convfiles/engine"
	"convfiles/formats"
	"convfiles/internal/metrics"
	"convfiles/runtime"

	"github.com/gorilla/mux"
)

// Config is what the HTTP adapter needs.
type Config struct {
	Store  *engine.Store
	Links  Links
	Logger *slog.Logger
	// Runner runs scripts for /execute (in worker processes when it is a
	// sandbox pool); nil leaves the code routes out.
	Runner runtime.Executor
	// Formats runs previews and thumbnails (default formats.Local).
	Formats formats.Caller
	// Workspace is the folder PUT /workspace saves code into.
	Workspace *engine.Space
	// ScriptFiles gives scripts run by /execute their file helpers; off,
	// every helper throws (hosted mode's default, as seed 001 says).
	ScriptFiles bool
	// DefaultScriptSpace is where a script's files go when the request
	// names no conversation (the [io] folder); nil means it has none.
	DefaultScriptSpace *engine.Space
	RateLimits         RateLimits
	// API serves the REST API under /api/ and the web page at /.
	API bool
	// Auth, when set, authenticates every request but /healthz and signed
	// links (hosted mode); nil serves the local user alone.
	Auth *auth.Authenticator
	// Issuers are the identity providers whose tokens Auth accepts, as
	// /.well-known/oauth-protected-resource names them.
	Issuers []string
	// MCP, when set, serves the MCP streamable HTTP transport at /mcp.
	MCP http.Handler
	// Health adds to /healthz's answer (the sandbox's workers).
	Health func() map[string]any
	// ActiveRuns counts the scripts running now, for /health; nil counts
	// the runs of /execute.
	ActiveRuns func() int64
	// BodyIdle is how long a request body may stall (DefaultBodyIdle).
	BodyIdle time.Duration
	// RequestTimeout is the server's deadline for a request that neither
	// streams nor runs a script (DefaultRequestTimeout).
	RequestTimeout time.Duration
	// Access is which hosts and other origins are served (see Access); it
	// must pass Access.Validate, or New panics.
	Access Access
	// AccessLog logs every request: method, route, status, bytes,
	// duration and the credential's ID (never the credential).
	AccessLog bool
	// Metrics, when set, counts requests and is served at /metrics (to
	// the local user, or an admin credential in hosted mode).
	Metrics *metrics.Metrics
	// Version is reported by /healthz.
	Version string
	// DirectOver, when above zero, answers a plain GET of a file of at
	// least this many bytes kept in an object store with a redirect to
	// the store itself (see redirectToStore); 0 relays every file.
	DirectOver int64
}

// Server is the HTTP handler of convfiles.
type Server struct {
	store   *engine.Store
	links   Links
	log     *slog.Logger
	router  *mux.Router
	headers *headerCache
	// small keeps the bytes of small files served by link.
	small   *smallFiles
	runner  runtime.Executor
	auth    *auth.Authenticator
	formats formats.Caller
	// derived keeps recent previews and thumbnails by their content.
	derived *derivedCache
	work    *engine.Space
	scripts scriptFiles
	rates   RateLimits
	limits  *limits
	guard   *originGuard
	idle    time.Duration
	// requestTimeout is Config.RequestTimeout.
	requestTimeout time.Duration
	health         func() map[string]any
	// activeRuns and started feed /health; running counts this server's
	// own /execute runs, for when nothing counts them all.
	activeRuns func() int64
	started    time.Time
	running    atomic.Int64
	// accessLog and metrics observe every request (observe).
	accessLog bool
	metrics   *metrics.Metrics
	version   string
	// directOver is Config.DirectOver.
	directOver int64
	// previews holds a token per preview or thumbnail being made.
	previews chan struct{}
	// closing is cancelled by Shutdown: long-lived responses (event streams)
	// end so a graceful shutdown does not wait for them forever.
	closing  context.Context
	shutdown context.CancelFunc
}

// Shutdown ends the event streams; pass it to http.Server.RegisterOnShutdown.
func (s *Server) Shutdown() { s.shutdown() }

type scriptFiles struct {
	enabled bool
	def     *engine.Space
}

// New returns a Server with every route registered.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Formats == nil {
		cfg.Formats = formats.Local{}
	}
	s := &Server{formats: cfg.Formats, derived: newDerivedCache(), store: cfg.Store, links: cfg.Links, log: cfg.Logger, headers: newHeaderCache(4096), small: newSmallFiles(),
		runner: cfg.Runner, auth: cfg.Auth, work: cfg.Workspace, scripts: scriptFiles{cfg.ScriptFiles, cfg.DefaultScriptSpace},
		rates: cfg.RateLimits, limits: newLimits(cfg.RateLimits), previews: newPreviewSlots(goruntime.NumCPU())}
	s.closing, s.shutdown = context.WithCancel(context.Background())
	guard, err := newOriginGuard(cfg.Access, cfg.Links.Base)
	if err != nil {
		panic("routes.New: " + err.Error())
	}
	s.guard = guard
	s.health, s.activeRuns, s.started = cfg.Health, cfg.ActiveRuns, time.Now()
	if s.activeRuns == nil {
		s.activeRuns = s.running.Load
	}
	s.accessLog, s.metrics, s.version = cfg.AccessLog, cfg.Metrics, cfg.Version
	s.directOver = cfg.DirectOver
	s.idle = cfg.BodyIdle
	if s.idle <= 0 {
		s.idle = DefaultBodyIdle
	}
	s.requestTimeout = cfg.RequestTimeout
	if s.requestTimeout <= 0 {
		s.requestTimeout = DefaultRequestTimeout
	}
	r := mux.NewRouter()
	// Names are matched as they were sent, percent-encoded, and decoded once
	// by the handler; mux must neither decode them first nor "clean" a path
	// with ".." into another file's path: a hostile path is refused, not
	// redirected.
	r.UseEncodedPath()
	r.SkipClean(true)
	r.Use(noteRoute)
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The Workspace API's answer (seed 002), with what was asked.
		timeAnswers(w)
		writeJSON(w, http.StatusNotFound, envelope{Error: &errorBody{Type: "FileNotFoundError", Message: "Route not found",
			Details: map[string]any{"method": r.Method, "path": r.URL.EscapedPath()}}})
	})
	r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, envelope{Error: &errorBody{Type: "MethodNotAllowed", Message: r.Method + " is not allowed here"}})
	})
	if cfg.Runner != nil {
		s.registerCodeRoutes(r)
	}
	if cfg.API {
		s.registerSession(r)
		s.registerAPI(r)
		s.registerPage(r)
	}
	if cfg.MCP != nil {
		r.Handle("/mcp", s.limitMCP(s.protectMCP(cfg.MCP)))
	}
	if cfg.Auth != nil {
		r.Handle(resourceMetadataPath, s.resourceMetadata(cfg.Issuers)).Methods(http.MethodGet, http.MethodOptions)
	}
	r.HandleFunc("/healthz", s.handleHealth).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/openapi.json", s.handleOpenAPI).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/health", s.handleRestexecHealth).Methods(http.MethodGet, http.MethodHead)
	if cfg.Metrics != nil {
		r.Handle("/metrics", s.needs(auth.Admin, cfg.Metrics.Handler().ServeHTTP)).Methods(http.MethodGet)
	}
	s.router = r
	return s
}

// ServeHTTP serves a request, logged and counted (observe).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.observe(w, r, s.serve)
}

// codeRoutes are the Workspace API's, whose every answer carries
// executionTime.
var codeRoutes = map[string]bool{"/workspace": true, "/execute": true, "/lint": true}

// serve serves a request, turning a panic in a handler into a 500 so one
// bad request never takes the server down.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.log.Error("handler panicked", "panic", p, "path", r.URL.EscapedPath(), "stack", string(debug.Stack()))
			writeError(w, r, s.log, fmt.Errorf("panic: %v", p))
		}
	}()
	if !s.guard.check(w, r) {
		return
	}
	guardBody(w, r, s.idle)
	r, cancel := s.withDeadline(r)
	defer cancel()
	// Links are the hottest route: dispatch them before the router, whose
	// matching runs a regexp per route.
	if strings.HasPrefix(r.URL.Path, "/files/") {
		infoOf(w).route = "/files/{conversation}/{name}"
		s.handleFile(w, r)
		return
	}
	if codeRoutes[r.URL.Path] {
		timeAnswers(w) // a refused credential's answer too
	}
	r, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	s.router.ServeHTTP(w, r)
}
