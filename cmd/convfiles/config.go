package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"convfiles/auth"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/links"
	"convfiles/routes"
	"convfiles/runtime"
	"convfiles/sandbox"

	"github.com/BurntSushi/toml"
	"github.com/adrg/xdg"
)

// Config is the TOML configuration file. Every key is optional; flags
// override the file, and the file overrides the embedded defaults.
type Config struct {
	// DataDir holds files/<conversation_id>/ (default $XDG_DATA_HOME/convfiles).
	DataDir string `toml:"data_dir"`
	// Mode is "local" (the default) or "hosted", where scripts served over
	// HTTP get no file access unless [io] enabled says so.
	Mode      string          `toml:"mode"`
	Server    ServerConfig    `toml:"server"`
	Limits    LimitsConfig    `toml:"limits"`
	Runtime   RuntimeConfig   `toml:"runtime"`
	IO        IOConfig        `toml:"io"`
	Output    *IOConfig       `toml:"output"` // seed 000's older spelling of [io]
	Workspace WorkspaceConfig `toml:"workspace"`
	RateLimit RateLimitConfig `toml:"ratelimit"`
	Download  DownloadConfig  `toml:"download"`
	Sandbox   SandboxConfig   `toml:"sandbox"`
	Auth      AuthConfig      `toml:"auth"`
	Storage   StorageConfig   `toml:"storage"`
	Log       LogConfig       `toml:"log"`
}

// LogConfig is the [log] section: how much the server says, and how.
type LogConfig struct {
	Level  string `toml:"level"`  // debug, info (the default), warn or error
	Format string `toml:"format"` // text (the default) or json
}

// SandboxConfig sizes the worker processes that run scripts and file
// decoders for serve and mcp.
type SandboxConfig struct {
	// Workers bounds the worker processes alive at once; 0 is four per CPU.
	Workers int `toml:"workers"`
	// PerCredential bounds the runs one credential's share (an API key
	// and its tokens) has at once; 0 is half the workers.
	PerCredential int `toml:"per_credential"`
	// QueuePerCredential bounds the runs of one share that wait; 0 is
	// twice the workers. Past it a run is refused with 429.
	QueuePerCredential int `toml:"queue_per_credential"`
	// FormatTimeout bounds the CPU time of one format operation (a
	// preview, an MCP tool); see sandbox.Config.
	FormatTimeout Duration `toml:"format_timeout"`
}

// DownloadConfig governs files.download: by default only public addresses
// may be fetched.
type DownloadConfig struct {
	AllowPrivate bool     `toml:"allow_private"` // also loopback, private and link-local addresses
	Allow        []string `toml:"allow"`         // addresses or prefixes allowed although not public
	MaxBytes     int64    `toml:"max_bytes"`     // one download (default 50 MiB)
	Timeout      Duration `toml:"timeout"`       // one download (default 30s)
}

// IOConfig is toolscript's [io] section (seed 001), also read as code-mcp's
// [output] (seed 000).
type IOConfig struct {
	// Dir is the folder scripts served over HTTP use when a request names
	// no conversation (default <data_dir>/io); relative to the working folder.
	Dir string `toml:"dir"`
	// MaxBytes caps the bytes one run writes (default limits.max_execution_bytes).
	MaxBytes int64 `toml:"max_bytes"`
	// Enabled gives scripts served over HTTP their file helpers (default:
	// true in local mode, false in hosted mode).
	Enabled *bool `toml:"enabled"`
}

// WorkspaceConfig is where PUT /workspace saves code.
type WorkspaceConfig struct {
	Dir string `toml:"dir"` // default <data_dir>/workspace
}

// RateLimitConfig is requests per minute of the code routes; 0 is no limit.
type RateLimitConfig struct {
	PerClient int `toml:"per_client"`
	PerCodeID int `toml:"per_code_id"`
	Global    int `toml:"global"`
	// PerCredential is requests a minute per credential in hosted mode.
	PerCredential int `toml:"per_credential"`
	// MCPPerClient is MCP requests over HTTP a minute per client address.
	MCPPerClient int `toml:"mcp_per_client"`
	// EventStreams caps the open event streams, in all and per client.
	EventStreams          int `toml:"event_streams"`
	EventStreamsPerClient int `toml:"event_streams_per_client"`
}

// ServerConfig configures convfiles serve.
type ServerConfig struct {
	Address   string `toml:"address"`    // listen address (default 127.0.0.1:8080)
	PublicURL string `toml:"public_url"` // base of file links (default http://<address>)
	// AllowedHosts are host names served besides loopback ones and the
	// public URL's host (DNS-rebinding protection refuses the rest).
	AllowedHosts []string `toml:"allowed_hosts"`
	// CORSOrigins are other origins whose pages may call the API.
	CORSOrigins []string `toml:"cors_origins"`
	// AllowRemote lets serve listen on a non-loopback address although
	// nothing authenticates its users: only behind a proxy that does.
	AllowRemote bool `toml:"allow_remote"`
	// MCPSessionIdle closes an MCP-over-HTTP session that has sent no
	// request for this long (default 30m).
	MCPSessionIdle Duration `toml:"mcp_session_idle"`
	// MCPStateless answers every MCP-over-HTTP request on its own, with
	// no session, so that replicas need no session affinity; clients get
	// no notifications (resource updates).
	MCPStateless bool `toml:"mcp_stateless"`
	// MCPTools are the MCP tool groups offered: core (the default, 15
	// tools), files, spreadsheet, pdf, image, chart, or all.
	MCPTools []string `toml:"mcp_tools"`
	// AccessLog writes one structured line per HTTP request (default: on
	// in hosted mode, off in local mode, where it would cost the hottest
	// route, links, 7% for one user's own requests).
	AccessLog *bool `toml:"access_log"`
}

// LimitsConfig bounds what the store accepts.
type LimitsConfig struct {
	MaxFileBytes         int64 `toml:"max_file_bytes"`
	MaxConversationBytes int64 `toml:"max_conversation_bytes"`
	MaxConversationFiles int   `toml:"max_conversation_files"`
	MaxExecutionBytes    int64 `toml:"max_execution_bytes"`
	// Versions is how many earlier versions of each file are kept on
	// overwrite and delete (0: none). They count toward the conversation's bytes.
	Versions int `toml:"versions"`
}

// RuntimeConfig bounds script runs.
type RuntimeConfig struct {
	Timeout        Duration `toml:"timeout"`
	MaxCallStack   int      `toml:"max_call_stack"`
	MemoryLimit    int64    `toml:"memory_limit"`
	MaxLogLines    int      `toml:"max_log_lines"`
	MaxLogBytes    int      `toml:"max_log_bytes"`
	MaxResultBytes int      `toml:"max_result_bytes"`
	// ReadRoots are absolute folders read_file may read by absolute path.
	ReadRoots []string `toml:"read_roots"`
}

// Duration is a time.Duration written as "5s" or "250ms" in TOML.
type Duration struct{ time.Duration }

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration like \"5s\" or \"250ms\"", b)
	}
	d.Duration = v
	return nil
}

// defaultConfig is the embedded configuration convfiles runs on with no file.
func defaultConfig() Config {
	defaultRates := routes.DefaultRateLimits()
	return Config{
		DataDir:  filepath.Join(xdg.DataHome, "convfiles"),
		Mode:     "local",
		Download: DownloadConfig{Allow: []string{}, MaxBytes: files.DefaultMaxFileBytes, Timeout: Duration{30 * time.Second}},
		Sandbox:  SandboxConfig{FormatTimeout: Duration{sandbox.DefaultFormatTimeout}},
		Server: ServerConfig{Address: "127.0.0.1:8080", AllowedHosts: []string{}, CORSOrigins: []string{},
			MCPSessionIdle: Duration{30 * time.Minute}},
		Auth: AuthConfig{LinkTTL: Duration{time.Hour}, LinkMaxLifetime: Duration{links.MaxLifetime}, TokenTTL: Duration{auth.DefaultTokenTTL},
			SigningKeys: []string{}},
		Log:     LogConfig{Level: "info", Format: "text"},
		Storage: StorageConfig{GCInterval: Duration{time.Hour}, GCGrace: Duration{time.Hour}},
		RateLimit: RateLimitConfig{
			PerClient: defaultRates.PerClient,
			PerCodeID: defaultRates.PerCodeID,
			Global:    defaultRates.Global,

			PerCredential:         defaultRates.PerCredential,
			MCPPerClient:          defaultRates.MCPPerClient,
			EventStreams:          defaultRates.EventStreams,
			EventStreamsPerClient: defaultRates.EventStreamsPerClient,
		},
		Limits: LimitsConfig{
			MaxFileBytes:         files.DefaultMaxFileBytes,
			MaxConversationBytes: files.DefaultMaxConversationBytes,
			MaxConversationFiles: files.DefaultMaxConversationFiles,
			MaxExecutionBytes:    files.DefaultMaxExecutionBytes,
			Versions:             files.DefaultVersions,
		},
		Runtime: RuntimeConfig{
			Timeout:        Duration{runtime.DefaultTimeout},
			MaxCallStack:   runtime.DefaultMaxCallStack,
			MemoryLimit:    runtime.DefaultMemoryLimit,
			MaxLogLines:    runtime.DefaultMaxLogLines,
			MaxLogBytes:    runtime.DefaultMaxLogBytes,
			MaxResultBytes: runtime.DefaultMaxResultBytes,
			ReadRoots:      []string{},
		},
	}
}

// defaultConfigPath is $XDG_CONFIG_HOME/convfiles/config.toml.
func defaultConfigPath() string { return filepath.Join(xdg.ConfigHome, "convfiles", "config.toml") }

// loadConfig reads path over the defaults. A missing file at the default
// path is fine; a missing file the user named, an unknown key or a bad
// value is an error that names it.
func loadConfig(path string, explicit bool) (Config, error) {
	cfg := defaultConfig()
	md, err := toml.DecodeFile(path, &cfg)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return cfg, nil
	}
	if err != nil {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return cfg, fmt.Errorf("config %s: unknown keys %s (known: data_dir, mode, [server] address public_url allowed_hosts cors_origins allow_remote mcp_session_idle access_log, [limits] max_file_bytes max_conversation_bytes max_execution_bytes, [runtime] timeout max_call_stack memory_limit max_log_lines max_log_bytes max_result_bytes read_roots, [io] dir max_bytes enabled, [workspace] dir, [ratelimit] per_client per_code_id global per_credential mcp_per_client event_streams event_streams_per_client, [download] allow_private allow max_bytes timeout, [sandbox] workers format_timeout, [auth] signing_keys sign_links link_ttl token_ttl, [auth.jwt] issuer audience jwks_url tenant_claim conversations_claim scope_claim default_scopes, [log] level format)", path, strings.Join(keys, ", "))
	}
	if cfg.Output != nil {
		if md.IsDefined("io") {
			return cfg, fmt.Errorf("config %s: both [io] and [output] are set; [output] is the older spelling of [io], keep one", path)
		}
		cfg.IO, cfg.Output = *cfg.Output, nil
	}
	return cfg, cfg.validate()
}

func (c Config) validate() error {
	if c.Mode != "local" && c.Mode != "hosted" {
		return fmt.Errorf("config: mode %q is not \"local\" or \"hosted\"", c.Mode)
	}
	if c.Sandbox.Workers < 0 || c.Sandbox.FormatTimeout.Duration <= 0 {
		return errors.New("config: sandbox.workers must be 0 or more and sandbox.format_timeout positive")
	}
	if c.Runtime.Timeout.Duration <= 0 {
		return errors.New("config: runtime.timeout must be positive")
	}
	if err := c.access().Validate(); err != nil {
		return fmt.Errorf("config: server.cors_origins: %w", err)
	}
	if _, err := c.Log.level(); err != nil {
		return err
	}
	if c.Log.Format != "text" && c.Log.Format != "json" {
		return fmt.Errorf("config: log.format %q is not \"text\" or \"json\"", c.Log.Format)
	}
	if c.Server.MCPSessionIdle.Duration <= 0 {
		return errors.New("config: server.mcp_session_idle must be positive")
	}
	if err := c.validateAuth(); err != nil {
		return err
	}
	if err := c.validateStorage(); err != nil {
		return err
	}
	for _, r := range c.Runtime.ReadRoots {
		if !filepath.IsAbs(r) {
			return fmt.Errorf("config: runtime.read_roots entry %q must be an absolute path", r)
		}
	}
	return nil
}

// publicURL is the base of file links: the configured one, or the listen
// address, with a wildcard host ("", 0.0.0.0, ::) shown as localhost.
func (c Config) publicURL() string {
	if c.Server.PublicURL != "" {
		return strings.TrimSuffix(c.Server.PublicURL, "/")
	}
	host, port, err := net.SplitHostPort(c.Server.Address)
	if err != nil {
		return "http://" + c.Server.Address
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// rateLimits are the HTTP server's limits of requests and streams.
func (c Config) rateLimits() routes.RateLimits {
	r := c.RateLimit
	return routes.RateLimits{PerClient: r.PerClient, PerCodeID: r.PerCodeID, Global: r.Global, MCPPerClient: r.MCPPerClient, PerCredential: r.PerCredential,
		EventStreams: r.EventStreams, EventStreamsPerClient: r.EventStreamsPerClient}
}

// accessLog reports whether serve logs every request.
func (c Config) accessLog() bool {
	if c.Server.AccessLog != nil {
		return *c.Server.AccessLog
	}
	return c.Mode == "hosted"
}

// access is which hosts and origins the HTTP server answers.
func (c Config) access() routes.Access {
	return routes.Access{Hosts: c.Server.AllowedHosts, CORSOrigins: c.Server.CORSOrigins}
}

func (c Config) storeOptions() engine.Options {
	versions := c.Limits.Versions
	if versions == 0 {
		versions = -1 // engine.Options reads 0 as the default
	}
	return engine.Options{Limits: files.Limits{
		MaxFileBytes:         c.Limits.MaxFileBytes,
		MaxConversationBytes: c.Limits.MaxConversationBytes,
		MaxConversationFiles: c.Limits.MaxConversationFiles,
	}, Versions: versions}
}
