package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// level is the configured log level.
func (l LogConfig) level() (slog.Level, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(l.Level)); err != nil {
		return lv, fmt.Errorf("config: log.level %q is not debug, info, warn or error", l.Level)
	}
	return lv, nil
}

// newLogger writes the log to w at the configured level, as text or JSON.
func newLogger(w io.Writer, l LogConfig) *slog.Logger {
	lv, err := l.level()
	if err != nil {
		lv = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: lv}
	if strings.EqualFold(l.Format, "json") {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// cmdVersion prints the version. It takes the shared flags, so that a
// wrapper passing --config to every command works, and reads no file.
func cmdVersion(e *env, args []string) error {
	f := newFlags(e, "version", "")
	if err := f.Parse(args); err != nil {
		return usagef("%v", err)
	}
	if f.NArg() > 0 {
		return usagef("version takes no arguments")
	}
	fmt.Fprintln(e.stdout, "convfiles", buildVersion())
	return nil
}

// atLeast is a handler that passes on records of level min and above.
type atLeast struct {
	min slog.Level
	h   slog.Handler
}

// Enabled reports whether a record of level l is passed on.
func (a atLeast) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= a.min && a.h.Enabled(ctx, l)
}

// Handle passes r on.
func (a atLeast) Handle(ctx context.Context, r slog.Record) error { return a.h.Handle(ctx, r) }

// WithAttrs keeps the level with the attributes.
func (a atLeast) WithAttrs(attrs []slog.Attr) slog.Handler {
	return atLeast{a.min, a.h.WithAttrs(attrs)}
}

// WithGroup keeps the level with the group.
func (a atLeast) WithGroup(name string) slog.Handler { return atLeast{a.min, a.h.WithGroup(name)} }
