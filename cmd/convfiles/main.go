// Command convfiles serves conversation-scoped files to LLM agents: a
// sandbox that runs their helper code, browser links to what they write,
// and commands to inspect and clean up conversations.
//
// It is the only package that knows every other; nothing imports it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	// The languages scripts run in: each package registers its
	// interpreter with the run core.
	_ "convfiles/runtime/js"
	_ "convfiles/runtime/lua"
	"convfiles/sandbox"
)

// usageError is a mistake in the command line; it exits with status 2.
type usageError struct{ msg string }

// Error returns the mistake.
func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// env is what a command reads and writes, so tests run commands in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	logger         *slog.Logger
	// configuredLog says the logger is run's default, which the
	// configuration's [log] section replaces.
	configuredLog bool
}

type command struct {
	name, summary string
	run           func(e *env, args []string) error
}

var commands = []command{
	{"serve", "serve file links over HTTP", cmdServe},
	{"mcp", "serve MCP tools, resources and the prompt over stdin/stdout", cmdMCP},
	{"mcp-config", "print the setup of convfiles for an MCP client (claude-desktop, claude-code, vscode, cursor, …)", cmdMCPConfig},
	{"run", "run a script (file or stdin) and print its report as JSON", cmdRun},
	{"ls", "list conversations, or the files of one", cmdLs},
	{"cat", "write a file of a conversation to stdout", cmdCat},
	{"call", "run one file operation (read_text, copy, spreadsheet_read_range…) and print its result as JSON", cmdCall},
	{"rm", "remove files of a conversation (each kept as a version)", cmdRm},
	{"versions", "list the kept earlier versions of a file", cmdVersions},
	{"restore", "make a kept version a file's content again", cmdRestore},
	{"cleanup", "delete conversations, by ID or by age", cmdCleanup},
	{"prompt", "print the system-prompt text that teaches the file helpers", cmdPrompt},
	{"migrate", "copy this store into another (disk and SQLite to PostgreSQL and S3, or back), resumably", cmdMigrate},
	{"collect-garbage", "remove the object store's objects that no file or version names", cmdCollect},
	{"keys", "create, list and revoke API keys; print a new signing key", cmdKeys},
	{"version", "print the version", cmdVersion},
	{"worker", "run scripts and file decoders for a server (started by serve and mcp, not by hand)", cmdWorker},
}

func main() {
	os.Exit(run(os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}))
}

// run executes one command line and returns the exit status: 0 on success,
// 1 when the work failed (a script error, a missing file), 2 on bad usage.
func run(args []string, e *env) int {
	if e.logger == nil {
		e.logger = newLogger(e.stderr, defaultConfig().Log)
		e.configuredLog = true
	}
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		args[0] = "version"
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printUsage(e.stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(e, args[1:])
		var ue *usageError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &ue):
			fmt.Fprintf(e.stderr, "convfiles %s: %v\n", c.name, err)
			return 2
		case errors.Is(err, errReported):
			return 1
		default:
			fmt.Fprintf(e.stderr, "convfiles %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(e.stderr, "convfiles: unknown command %q\n", args[0])
	printUsage(e.stderr)
	return 2
}

// errReported means the command already told the user what failed.
var errReported = errors.New("reported")

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: convfiles <command> [flags]\n\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-15s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'convfiles <command> -h' for a command's flags.")
}

// flags is a command's flag set with the flags every command shares.
type flags struct {
	*flag.FlagSet
	e       *env
	config  *string
	dataDir *string
}

func newFlags(e *env, name, args string) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	f := &flags{FlagSet: fs, e: e}
	f.config = fs.String("config", "", "TOML config file (default "+defaultConfigPath()+")")
	f.dataDir = fs.String("data-dir", "", "data folder (default $XDG_DATA_HOME/convfiles)")
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: convfiles %s [flags] %s\n", name, args)
		fs.PrintDefaults()
	}
	return f
}

// parse parses args and loads the configuration, with flags over the file.
func (f *flags) parse(args []string) (Config, error) {
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return Config{}, err
		}
		return Config{}, &usageError{err.Error()}
	}
	path, explicit := *f.config, *f.config != ""
	if !explicit {
		path = defaultConfigPath()
	}
	cfg, err := loadConfig(path, explicit)
	if err != nil {
		return cfg, err
	}
	if *f.dataDir != "" {
		cfg.DataDir = *f.dataDir
	}
	if f.e.configuredLog {
		f.e.logger = newLogger(f.e.stderr, cfg.Log)
	}
	return cfg, nil
}

// cmdWorker is a worker process of the sandbox: it reads its jobs from
// descriptor 3, which only a server that started it has.
func cmdWorker(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("worker takes no arguments: it is started by convfiles serve and convfiles mcp")
	}
	if code := sandbox.WorkerMain(); code != 0 {
		return fmt.Errorf("worker ended with status %d", code)
	}
	return nil
}
