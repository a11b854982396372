package main

import (
	"context"
	"errors"
	"net/http"
	"os/signal"
	"runtime/debug"
	"sync/atomic"
	"syscall"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/metrics"
	"convfiles/routes"
	"convfiles/runtime"
)

func cmdServe(e *env, args []string) error {
	cfg, err := serveConfig(e, args)
	if err != nil {
		return err
	}
	// Every run builds a fresh VM, so the server allocates a lot of short-
	// lived memory: collecting at 200% rather than 100% growth gives 40%
	// more executions a second at the same tail latency (BENCHMARKS.md). An
	// operator's GOGC wins.
	tuneGC(cfg, 200)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	return serve(ctx, e, cfg, nil)
}

// serveConfig reads serve's flags over the configuration.
func serveConfig(e *env, args []string) (Config, error) {
	f := newFlags(e, "serve", "")
	addr := f.String("addr", "", "listen address (default 127.0.0.1:8080, config server.address)")
	public := f.String("public-url", "", "base URL of file links (default http://<addr>, config server.public_url)")
	allowRemote := f.Bool("allow-remote", false, "listen on a non-loopback address although nothing authenticates users (config server.allow_remote)")
	ioDir := f.String("io-dir", "", "folder of scripts that name no conversation (config io.dir)")
	f.StringVar(ioDir, "output-dir", "", "the same as --io-dir (code-mcp's name)")
	cfg, err := f.parse(args)
	if err != nil {
		return cfg, err
	}
	if f.NArg() > 0 {
		return cfg, usagef("unexpected arguments %q", f.Args())
	}
	if *addr != "" {
		cfg.Server.Address = *addr
	}
	if *public != "" {
		cfg.Server.PublicURL = *public
	}
	if *ioDir != "" {
		cfg.IO.Dir = *ioDir
		if cfg.IO.Enabled == nil { // naming the folder turns io on, hosted too (seed 001)
			cfg.IO.Enabled = &[]bool{true}[0]
		}
	}
	if *allowRemote {
		cfg.Server.AllowRemote = true
	}
	return cfg, cfg.checkIODir()
}

// serve runs the HTTP server until ctx ends, then shuts down gracefully.
// When ready is not nil it receives the bound address once the server
// listens (tests use port 0).
func serve(ctx context.Context, e *env, cfg Config, ready chan<- string) error {
	hosted := cfg.Mode == "hosted"
	if !hosted {
		if err := checkExposure(cfg.Server.Address, cfg.Server.AllowRemote); err != nil {
			return err
		}
	}
	// The address first: a busy port is said at once, not after the
	// store's start-up.
	ln, err := listen(cfg.Server.Address)
	if err != nil {
		return err
	}
	defer ln.Close()
	bus := files.NewBus()
	store, closeStore, err := openIndexedStore(cfg, e.logger, bus)
	if err != nil {
		return err
	}
	defer closeStore()
	// The start-up's reconciliation is done with what it read: give the
	// memory back now, not over the minutes the scavenger takes, so a
	// server's resident size after start does not grow with its store.
	debug.FreeOSMemory()
	if cfg.Server.PublicURL == "" {
		cfg.Server.Address = ln.Addr().String()
	}
	if cfg.distributed() {
		go collectGarbage(ctx, store, cfg.Storage.GCInterval.Duration, cfg.Storage.GCGrace.Duration, e.logger)
	}
	code, err := openCodeFolders(cfg, e, store)
	if err != nil {
		return err
	}
	defer code.close()
	scripts, err := newScripting(cfg, e, true)
	if err != nil {
		return err
	}
	defer scripts.close()
	m := metrics.New(storedBytes(store))
	m.Follow(ctx, bus)
	runs := countRuns{Executor: scripts.Executor, m: m, active: new(atomic.Int64)}
	scripts.Executor = runs
	rc := routes.Config{
		Store:              store,
		Links:              scripts.links,
		Logger:             e.logger,
		Runner:             scripts.Executor,
		Formats:            scripts.formats,
		Workspace:          code.workspace,
		ScriptFiles:        cfg.scriptFiles(),
		DefaultScriptSpace: code.io,
		RateLimits:         cfg.rateLimits(),
		API:                true,
		Access:             cfg.access(),
		AccessLog:          cfg.accessLog(),
		Metrics:            m,
		Version:            buildVersion(),
		DirectOver:         cfg.Storage.S3.RedirectOver,
	}
	if hosted {
		if rc.Auth, rc.Issuers, err = cfg.authenticator(ctx, store); err != nil {
			return err
		}
	}
	mcpServer, err := newMCPServer(cfg, e, store, scripts, "", hosted, nil)
	if err != nil {
		return err
	}
	defer mcpServer.Close()
	rc.MCP = mcpServer.HTTPHandler()
	rc.ActiveRuns = runs.active.Load
	rc.Health = func() map[string]any {
		h := scripts.health()
		if h == nil {
			h = map[string]any{}
		}
		h["mcp_sessions"] = mcpServer.SessionCount()
		return h
	}
	handler := routes.New(rc)
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    64 << 10,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          nil,
	}
	srv.RegisterOnShutdown(handler.Shutdown)
	// Work still running when the server stops is abandoned: its workers
	// are killed, so the shutdown ends instead of waiting out timeouts.
	srv.RegisterOnShutdown(scripts.stop)
	srv.RegisterOnShutdown(mcpServer.Shutdown)
	e.logger.Info("convfiles serving", "version", buildVersion(), "addr", ln.Addr().String(), "links", cfg.publicURL(), "data", cfg.DataDir,
		"mode", cfg.Mode, "signed_links", cfg.signsLinks(), "script_files", cfg.scriptFiles(), "workspace", cfg.workspaceDir(),
		"index", cfg.indexName(), "blobs", cfg.blobsName())
	if remove, err := writeServerRecord(cfg.DataDir, cfg.publicURL()); err != nil {
		e.logger.Warn("cannot say where this server serves; convfiles run and mcp will not find it", "err", err)
	} else {
		defer remove()
	}
	if ready != nil {
		ready <- ln.Addr().String()
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	e.logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// codeFolders are the standalone folders of the code routes.
type codeFolders struct {
	workspace *engine.Space // PUT /workspace
	io        *engine.Space // scripts that name no conversation; nil when file access is off
}

// openCodeFolders opens where saved code and conversation-less scripts'
// files live: folders of the data folder, or, for replicas sharing an
// object store, reserved spaces of the store, so every replica sees the
// code any one saved.
func openCodeFolders(cfg Config, e *env, store *engine.Store) (*codeFolders, error) {
	opts := cfg.storeOptions()
	opts.Logger = e.logger
	work := opts
	work.Limits.MaxFileBytes = routes.MaxCodeBytes + 1
	c := &codeFolders{}
	var err error
	if cfg.distributed() {
		if c.workspace, err = store.ReservedSpace("workspace", work.Limits); err != nil {
			return nil, err
		}
		if cfg.scriptFiles() {
			c.io, err = store.ReservedSpace("io", opts.Limits)
		}
		return c, err
	}
	if c.workspace, err = engine.OpenDir(cfg.workspaceDir(), work); err != nil {
		return nil, err
	}
	if cfg.scriptFiles() {
		if c.io, err = engine.OpenDir(cfg.ioDir(), opts); err != nil {
			c.workspace.Close()
			return nil, err
		}
	}
	return c, nil
}

func (c *codeFolders) close() {
	c.workspace.Close()
	if c.io != nil {
		c.io.Close()
	}
}

// storedBytes is the bytes of every conversation, for /metrics.
func storedBytes(store *engine.Store) func() (int64, error) {
	return func() (int64, error) {
		convs, err := store.Conversations(context.Background())
		var n int64
		for _, c := range convs {
			n += c.Bytes
		}
		return n, err
	}
}

// countRuns counts each script run by its outcome, and those running now.
type countRuns struct {
	runtime.Executor
	m      *metrics.Metrics
	active *atomic.Int64
}

// Run runs the script and counts it.
func (c countRuns) Run(ctx context.Context, req runtime.Request) (*runtime.Report, error) {
	c.active.Add(1)
	rep, err := c.Executor.Run(ctx, req)
	c.active.Add(-1)
	outcome := "ok"
	if rep != nil && rep.Error != nil {
		outcome = rep.Error.Type
	} else if err != nil {
		outcome = "Error"
	}
	c.m.Run(outcome)
	return rep, err
}
