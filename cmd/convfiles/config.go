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

	"github.com/BurntSushi/toml"
	"github.com/adrg/xdg"

	"convfiles/files"
	"convfiles/runtime"
)

// Config is the TOML configuration file. Every key is optional; flags
// override the file, and the file overrides the embedded defaults.
type Config struct {
	// DataDir holds files/<conversation_id>/ (default $XDG_DATA_HOME/convfiles).
	DataDir string        `toml:"data_dir"`
	Server  ServerConfig  `toml:"server"`
	Limits  LimitsConfig  `toml:"limits"`
	Runtime RuntimeConfig `toml:"runtime"`
}

// ServerConfig configures convfiles serve.
type ServerConfig struct {
	Address   string `toml:"address"`    // listen address (default 127.0.0.1:8080)
	PublicURL string `toml:"public_url"` // base of file links (default http://<address>)
}

// LimitsConfig bounds what the store accepts.
type LimitsConfig struct {
	MaxFileBytes         int64 `toml:"max_file_bytes"`
	MaxConversationBytes int64 `toml:"max_conversation_bytes"`
	MaxExecutionBytes    int64 `toml:"max_execution_bytes"`
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
	return Config{
		DataDir: filepath.Join(xdg.DataHome, "convfiles"),
		Server:  ServerConfig{Address: "127.0.0.1:8080"},
		Limits: LimitsConfig{
			MaxFileBytes:         files.DefaultMaxFileBytes,
			MaxConversationBytes: files.DefaultMaxConversationBytes,
			MaxExecutionBytes:    files.DefaultMaxExecutionBytes,
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
		return cfg, fmt.Errorf("config %s: unknown keys %s (known: data_dir, [server] address public_url, [limits] max_file_bytes max_conversation_bytes max_execution_bytes, [runtime] timeout max_call_stack memory_limit max_log_lines max_log_bytes max_result_bytes read_roots)", path, strings.Join(keys, ", "))
	}
	return cfg, cfg.validate()
}

func (c Config) validate() error {
	if c.Runtime.Timeout.Duration <= 0 {
		return errors.New("config: runtime.timeout must be positive")
	}
	for _, r := range c.Runtime.ReadRoots {
		if !filepath.IsAbs(r) {
			return fmt.Errorf("config: runtime.read_roots entry %q must be an absolute path", r)
		}
	}
	return nil
}

// filesDir is where the conversations live.
func (c Config) filesDir() string { return filepath.Join(c.DataDir, "files") }

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

func (c Config) storeOptions() files.Options {
	return files.Options{Limits: files.Limits{
		MaxFileBytes:         c.Limits.MaxFileBytes,
		MaxConversationBytes: c.Limits.MaxConversationBytes,
	}}
}
