package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"convfiles/engine"
	"convfiles/files"
)

// MigrateReport is what convfiles migrate prints when it is done.
type MigrateReport struct {
	From          string `json:"from"`
	To            string `json:"to"`
	Conversations int    `json:"conversations"`
	engine.TransferReport
	Keys      int     `json:"api_keys"`   // API keys copied
	CodeFiles int     `json:"code_files"` // saved code and conversation-less script files copied
	Seconds   float64 `json:"seconds"`
}

// cmdMigrate copies the configured store into the one another
// configuration names: the embedded disk and SQLite into PostgreSQL and
// an object store, or back. Every conversation moves as it is (IDs,
// versions, times), with the API keys and the saved code; every content
// is checked against its SHA-256 as it is read and again as the
// destination reads it back. It is resumable: a second run skips what the
// first copied.
func cmdMigrate(e *env, args []string) error {
	f := newFlags(e, "migrate", "--to CONFIG")
	to := f.String("to", "", "TOML config file of the destination store (its data_dir and [storage])")
	jobs := f.Int("jobs", 4, "conversations copied at once")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if *to == "" || f.NArg() > 0 {
		return usagef("give the destination's configuration: convfiles migrate --to other.toml (the source is --config, as for every command)")
	}
	if *jobs < 1 || *jobs > 64 {
		return usagef("--jobs must be between 1 and 64")
	}
	dst, err := loadConfig(*to, true)
	if err != nil {
		return err
	}
	if err := dst.validateStorage(); err != nil {
		return err
	}
	if nested := nestedStores(cfg, dst); nested != "" {
		return usagef("%s: give --to a configuration whose data_dir is beside the source's, not inside it", nested)
	}
	if sameStore(cfg, dst) {
		return usagef("the source and the destination are the same store (%s, %s): give --to a configuration with another data_dir or [storage]", cfg.indexName(), cfg.blobsName())
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	m, err := openMigration(e, cfg, dst)
	if err != nil {
		return err
	}
	defer m.close()
	rep, err := m.run(ctx, *jobs)
	if err != nil {
		if ctx.Err() != nil {
			err = errors.New("interrupted; run the same command again to go on where it stopped")
		}
		return err
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// migration is one convfiles migrate: both stores open.
type migration struct {
	e                *env
	src, dst         *engine.Store
	closeSrc         func()
	closeDst         func()
	srcCode, dstCode *codeFolders
	report           MigrateReport
}

func openMigration(e *env, srcCfg, dstCfg Config) (*migration, error) {
	m := &migration{e: e, report: MigrateReport{From: srcCfg.indexName() + " + " + srcCfg.blobsName(),
		To: dstCfg.indexName() + " + " + dstCfg.blobsName()}}
	if err := storeExists(srcCfg); err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	var err error
	if m.src, m.closeSrc, err = openIndexedStore(srcCfg, e.logger, nil); err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	if m.dst, m.closeDst, err = openIndexedStore(dstCfg, e.logger, nil); err != nil {
		m.closeSrc()
		return nil, fmt.Errorf("destination: %w", err)
	}
	if m.srcCode, err = openCodeFolders(srcCfg, e, m.src); err == nil {
		if m.dstCode, err = openCodeFolders(dstCfg, e, m.dst); err != nil {
			m.srcCode.close()
		}
	}
	if err != nil {
		m.closeDst()
		m.closeSrc()
		return nil, err
	}
	return m, nil
}

func (m *migration) close() {
	m.srcCode.close()
	m.dstCode.close()
	m.closeDst()
	m.closeSrc()
}

// run copies the event numbering, the API keys, every conversation and
// the code folders.
func (m *migration) run(ctx context.Context, jobs int) (MigrateReport, error) {
	start := time.Now()
	if _, last, err := m.src.Index().EventRange(ctx); err != nil {
		return m.report, err
	} else if err := m.dst.Index().ContinueEvents(ctx, last); err != nil {
		return m.report, err
	}
	if err := m.copyKeys(ctx); err != nil {
		return m.report, fmt.Errorf("API keys: %w", err)
	}
	if err := m.copyConversations(ctx, jobs); err != nil {
		return m.report, err
	}
	if err := m.copyCode(ctx); err != nil {
		return m.report, err
	}
	m.report.Seconds = time.Since(start).Round(time.Millisecond).Seconds()
	return m.report, nil
}

// copyConversations transfers every conversation, jobs at a time, with a
// progress bar on stderr.
func (m *migration) copyConversations(ctx context.Context, jobs int) error {
	infos, err := m.src.Index().Conversations(ctx)
	if err != nil {
		return err
	}
	var convs []files.ConversationInfo
	var total int64
	for _, c := range infos {
		if !files.IsReserved(c.ID) { // the code folders, copied apart
			convs = append(convs, c)
			total += c.Bytes + c.VersionBytes
		}
	}
	bar := newProgressBar(m.e.stderr, "migrate", total, len(convs))
	defer bar.finish()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan string)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			for id := range work {
				rep, err := engine.Transfer(ctx, m.src, m.dst, id, bar.add)
				mu.Lock()
				m.report.Add(rep)
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("conversation %s: %w", id, err)
					cancel()
				}
				if err == nil {
					m.report.Conversations++
					bar.itemDone()
				}
				mu.Unlock()
			}
		})
	}
	for _, c := range convs {
		select {
		case work <- c.ID:
		case <-ctx.Done():
		}
	}
	close(work)
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return firstErr
}

// copyKeys copies the API keys the destination lacks, revoked ones as
// revoked.
func (m *migration) copyKeys(ctx context.Context) error {
	from, okFrom := keysOf(m.src.Index())
	to, okTo := keysOf(m.dst.Index())
	if !okFrom || !okTo {
		return nil
	}
	keys, err := from.Keys(ctx)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if _, err := to.Key(ctx, k.ID); err == nil {
			continue
		} else if files.KindOf(err) != files.KindNotFound {
			return err
		}
		if err := to.CreateKey(ctx, k); err != nil {
			return err
		}
		if k.Revoked != nil {
			if err := to.RevokeKey(ctx, k.ID, *k.Revoked); err != nil {
				return err
			}
		}
		m.report.Keys++
	}
	return nil
}

// copyCode copies the saved code and the files of conversation-less
// scripts: folders of the data folder on disk, reserved spaces in an
// object store. A file the destination holds with the same bytes is
// left alone.
func (m *migration) copyCode(ctx context.Context) error {
	pairs := [][2]*engine.Space{{m.srcCode.workspace, m.dstCode.workspace}, {m.srcCode.io, m.dstCode.io}}
	for _, p := range pairs {
		if p[0] == nil || p[1] == nil {
			continue
		}
		infos, err := p[0].List(ctx)
		if err != nil {
			return err
		}
		for _, info := range infos {
			copied, err := copyCodeFile(ctx, p[0], p[1], info)
			if err != nil {
				return fmt.Errorf("saved code %s: %w", info.Name, err)
			}
			if copied {
				m.report.CodeFiles++
			}
		}
	}
	return nil
}

// copyCodeFile copies a file from one folder to another unless the other
// holds the same bytes: only a file of the same size is hashed on both
// sides to find out.
func copyCodeFile(ctx context.Context, from, to *engine.Space, info files.Info) (bool, error) {
	name := info.Name
	if have, err := to.Stat(ctx, name); err == nil && have.Size == info.Size {
		src, err := sha256Of(from, name)
		if err != nil {
			return false, err
		}
		if dst, err := sha256Of(to, name); err == nil && dst == src {
			return false, nil
		}
	}
	b, _, err := from.Open(ctx, name)
	if err != nil {
		return false, err
	}
	defer b.Close()
	_, err = to.Write(ctx, name, b, files.WriteOptions{})
	return err == nil, err
}

// sha256Of hashes the file name of sp.
func sha256Of(sp *engine.Space, name string) (string, error) {
	b, _, err := sp.Open(context.Background(), name)
	if err != nil {
		return "", err
	}
	defer b.Close()
	h := sha256.New()
	if _, err := io.Copy(h, b); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
