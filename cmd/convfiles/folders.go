package main

import (
	"fmt"
	"path/filepath"
	"strings"
)

// ioDir is the folder of scripts that name no conversation.
func (c Config) ioDir() string {
	if c.IO.Dir != "" {
		return c.IO.Dir
	}
	return filepath.Join(c.DataDir, "io")
}

// checkIODir refuses at start-up an io.dir (or --io-dir) that climbs
// with ".." (seed 001: "no .. allowed") or that overlaps the
// conversations' folder, whose files only the store may write: scripts
// there would bypass the index, the versions and every credential check.
func (c Config) checkIODir() error {
	if c.IO.Dir == "" {
		return nil
	}
	for _, part := range strings.Split(filepath.ToSlash(c.IO.Dir), "/") {
		if part == ".." {
			return fmt.Errorf("config: io.dir %q climbs with \"..\", which is not allowed; name the folder without it", c.IO.Dir)
		}
	}
	dir, err := filepath.Abs(c.IO.Dir)
	if err != nil {
		return fmt.Errorf("config: io.dir %q: %w", c.IO.Dir, err)
	}
	conversations, err := filepath.Abs(c.filesDir())
	if err != nil {
		return err
	}
	if within(dir, conversations) || within(conversations, dir) {
		return fmt.Errorf("config: io.dir %q overlaps the conversations' folder %s; give scripts without a conversation a folder of their own", c.IO.Dir, conversations)
	}
	return nil
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// workspaceDir is where PUT /workspace saves code.
func (c Config) workspaceDir() string {
	if c.Workspace.Dir != "" {
		return c.Workspace.Dir
	}
	return filepath.Join(c.DataDir, "workspace")
}

// scriptFiles reports whether scripts served over HTTP may use files.
func (c Config) scriptFiles() bool {
	if c.IO.Enabled != nil {
		return *c.IO.Enabled
	}
	return c.Mode != "hosted"
}

// maxExecutionBytes is [io] max_bytes when set, else limits.max_execution_bytes.
func (c Config) maxExecutionBytes() int64 {
	if c.IO.MaxBytes != 0 {
		return c.IO.MaxBytes
	}
	return c.Limits.MaxExecutionBytes
}

// filesDir is where the conversations live.
func (c Config) filesDir() string { return filepath.Join(c.DataDir, "files") }
