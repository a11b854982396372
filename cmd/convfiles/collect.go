package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"time"

	"convfiles/engine"
)

// cmdCollect runs one garbage collection of the object store: the
// objects no row names, older than the grace period, are removed.
func cmdCollect(e *env, args []string) error {
	f := newFlags(e, "collect-garbage", "[--grace DURATION]")
	grace := f.Duration("grace", -1, "remove unnamed objects older than this (default: storage.gc_grace)")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if !cfg.distributed() {
		return usagef("collect-garbage cleans an object store (storage.blobs); the data folder needs none: start-up removes what a crash left there")
	}
	if *grace < 0 {
		*grace = cfg.Storage.GCGrace.Duration
	}
	store, closeStore, err := openStore(e, cfg, mustExist)
	if err != nil {
		return err
	}
	defer closeStore()
	rep, err := store.CollectGarbage(context.Background(), *grace)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// collectGarbage collects the object store's garbage every interval
// (with a random tenth more, so replicas started together spread out)
// until ctx ends. Replicas may collect at once: the work is idempotent.
func collectGarbage(ctx context.Context, store *engine.Store, interval, grace time.Duration, log *slog.Logger) {
	if interval <= 0 {
		return
	}
	for {
		wait := interval + time.Duration(rand.Int64N(int64(interval)/10+1))
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		start := time.Now()
		rep, err := store.CollectGarbage(ctx, grace)
		if err != nil {
			log.Error("collect the object store's garbage", "err", err)
			continue
		}
		log.Info("collected the object store's garbage", "objects", rep.Objects, "removed", rep.Removed,
			"removed_bytes", rep.RemovedBytes, "ms", time.Since(start).Milliseconds())
	}
}
