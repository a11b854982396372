package main

import (
	"context"
	"os/signal"
	"strings"
	"syscall"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/routes/mcp"
)

// cmdMCP serves MCP over stdin and stdout, for desktop LLM clients that
// start their servers as processes. The log goes to stderr: stdout is the
// protocol's.
func cmdMCP(e *env, args []string) error {
	f := newFlags(e, "mcp", "")
	conv := f.String("conversation", "", "serve this conversation only; tools then use it when they name none")
	public := f.String("public-url", "", "base URL of file links (default: config server.public_url, else the convfiles serve running on the same data)")
	tools := f.String("tools", "", "tool groups to offer, comma-separated: "+strings.Join(mcp.ToolGroups, ", ")+" (default core)")
	ioDir := f.String("io-dir", "", "folder of execute_script calls that name no conversation (config io.dir; toolscript's --io-dir)")
	f.StringVar(ioDir, "output-dir", "", "the same as --io-dir (code-mcp's name)")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usagef("unexpected arguments %q", f.Args())
	}
	if *tools != "" {
		cfg.Server.MCPTools = []string{*tools}
	}
	if *ioDir != "" {
		cfg.IO.Dir = *ioDir
		if cfg.IO.Enabled == nil { // naming the folder turns io on (seed 001)
			cfg.IO.Enabled = &[]bool{true}[0]
		}
	}
	if err := cfg.checkIODir(); err != nil {
		return err
	}
	if _, err := mcp.ParseToolGroups(cfg.Server.MCPTools); err != nil {
		return usagef("--tools: %v", err)
	}
	if *conv != "" {
		if err := files.ValidateConversationID(*conv); err != nil {
			return usagef("--conversation: %v", files.MessageOf(err))
		}
	}
	// A tool call allocates about 100 KiB in the SDK (its JSON decoder
	// takes 32 KiB per value) over a live heap of a few MiB, so with the
	// default GOGC the collector runs every few dozen calls and becomes
	// the largest cost of a small read. Collecting at 400% growth gives
	// 37% more reads a second (BENCHMARKS.md). An operator's GOGC wins (tuneGC).
	resolveLinks(e, &cfg, *public)
	tuneGC(cfg, 400)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	bus := files.NewBus()
	store, closeStore, err := openIndexedStore(cfg, e.logger, bus)
	if err != nil {
		return err
	}
	defer closeStore()
	scripts, err := newScripting(cfg, e, true)
	if err != nil {
		return err
	}
	defer scripts.close()
	var ioSpace *engine.Space
	if cfg.IO.Dir != "" && cfg.scriptFiles() && *conv == "" {
		if ioSpace, err = engine.OpenDir(cfg.IO.Dir, cfg.storeOptions()); err != nil {
			return err
		}
		defer ioSpace.Close()
	}
	server, err := newMCPServer(cfg, e, store, scripts, *conv, false, ioSpace)
	if err != nil {
		return err
	}
	defer server.Close()
	t := &mcp.StdioTransport{Reader: e.stdin, Writer: e.stdout}
	err = server.Run(ctx, t)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// newMCPServer builds the MCP server both transports share, with the
// runner and the downloader of the other doors.
// hosted refuses every call without the HTTP door's principal.
// io, when set, is the folder of scripts that name no conversation.
func newMCPServer(cfg Config, e *env, store *engine.Store, scripts *scripting, conv string, hosted bool, io *engine.Space) (*mcp.Server, error) {
	return mcp.New(mcp.Config{
		Store:        store,
		Runner:       scripts.Executor,
		Formats:      scripts.formats,
		Downloader:   scripts.fetcher,
		Link:         scripts.links.URL,
		Hosted:       hosted,
		SessionIdle:  cfg.Server.MCPSessionIdle.Duration,
		Stateless:    cfg.Server.MCPStateless,
		Conversation: conv,
		IO:           io,
		Tools:        cfg.Server.MCPTools,
		Version:      buildVersion(),
		Logger:       e.logger,
	})
}
