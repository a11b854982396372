package main

import (
	"log/slog"
	"path/filepath"

	"convfiles/content"
	"convfiles/files"
	"convfiles/files/sqlite"
)

// indexPath is where the metadata index lives: <data_dir>/index.db.
func (c Config) indexPath() string { return filepath.Join(c.DataDir, "index.db") }

// openIndexedStore opens the metadata index and the Store of conversations
// over it; the Store reconciles the index with disk first. close closes both.
func openIndexedStore(cfg Config, logger *slog.Logger, bus *files.Bus) (store *files.Store, close func(), err error) {
	ix, err := sqlite.Open(cfg.indexPath())
	if err != nil {
		return nil, nil, err
	}
	opts := cfg.storeOptions()
	opts.Logger, opts.Bus, opts.Index, opts.Sniff = logger, bus, ix, content.SniffMIME
	store, err = files.OpenStore(cfg.filesDir(), opts)
	if err != nil {
		ix.Close()
		return nil, nil, err
	}
	return store, func() { store.Close(); ix.Close() }, nil
}
