package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"convfiles/engine"
	"convfiles/files"
)

// Whether a management command may make what it opens: a command that
// only reads, removes or restores works on what is there, and a typo in
// --data-dir or --conversation is an error naming it, never an empty
// answer or a new, empty store at the mistyped path.
const (
	mustExist = false
	mayCreate = true
)

// openStore opens the configured store, with its index, for a management
// command; done closes both. Unless create, a data folder that holds no
// store is an error.
func openStore(e *env, cfg Config, create bool) (store *engine.Store, done func(), err error) {
	if !create {
		if err := storeExists(cfg); err != nil {
			return nil, nil, err
		}
	}
	return openIndexedStore(cfg, e.logger, nil)
}

// openSpace opens one conversation of the configured store; done closes
// both. Unless create, the store and the conversation must exist.
func openSpace(e *env, cfg Config, conv string, create bool) (sp *engine.Space, done func(), err error) {
	store, closeStore, err := openStore(e, cfg, create)
	if err != nil {
		return nil, nil, err
	}
	if !create {
		if err := conversationExists(store, cfg, conv); err != nil {
			closeStore()
			return nil, nil, err
		}
	}
	if sp, err = store.Space(conv); err != nil {
		closeStore()
		return nil, nil, err
	}
	return sp, func() { sp.Close(); closeStore() }, nil
}

// storeExists reports, for a store on disk, whether its data folder
// holds one: an index or a files folder. A database index is not
// checked: a mistyped URL fails to connect.
func storeExists(cfg Config) error {
	if isPostgresURL(cfg.Storage.Index) {
		return nil
	}
	for _, p := range []string{cfg.indexPath(), cfg.filesDir()} {
		if _, err := os.Stat(p); err == nil || !errors.Is(err, os.ErrNotExist) {
			return nil
		}
	}
	return fmt.Errorf("no convfiles store in %s (no index.db or files folder there): check --data-dir, or data_dir in %s; "+
		"the default is $XDG_DATA_HOME/convfiles, and convfiles serve, mcp and run make a store when they start", cfg.DataDir, defaultConfigPath())
}

// conversationExists is an error naming conv when the store has no such
// conversation, and how to list those it has.
func conversationExists(store *engine.Store, cfg Config, conv string) error {
	_, err := store.Conversation(context.Background(), conv)
	if files.KindOf(err) == files.KindNotFound {
		where := cfg.DataDir
		if isPostgresURL(cfg.Storage.Index) {
			where = cfg.indexName()
		}
		return fmt.Errorf("there is no conversation %q in %s: convfiles ls lists the conversations there", conv, where)
	}
	return err
}

// nestedStores says why one store's data folder lies inside the other's
// (a copy into the source's files/ would copy itself), or "".
func nestedStores(a, b Config) string {
	abs := func(p string) string {
		p, _ = filepath.Abs(p)
		return filepath.Clean(p) + string(filepath.Separator)
	}
	src, dst := abs(a.DataDir), abs(b.DataDir)
	switch {
	case src == dst:
		return ""
	case strings.HasPrefix(dst, src):
		return "the destination's data folder " + b.DataDir + " is inside the source's " + a.DataDir
	case strings.HasPrefix(src, dst):
		return "the source's data folder " + a.DataDir + " is inside the destination's " + b.DataDir
	}
	return ""
}

// sameStore reports whether two configurations name one store.
func sameStore(a, b Config) bool {
	return a.indexName() == b.indexName() || a.distributed() && a.Storage.Blobs == b.Storage.Blobs &&
		a.Storage.S3.Endpoint == b.Storage.S3.Endpoint
}
