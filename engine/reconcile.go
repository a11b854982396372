package engine

import (
	"context"
	"errors"
	"io/fs"
	"sort"
	"strconv"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
)

// reconcile makes the index agree with disk, which is the truth for bytes:
// files that appeared are added, files that vanished are removed, files
// changed behind the index's back are described anew, and version bytes
// without a row (a crash between disk and index) are removed. It runs at
// start-up, before anyone else writes, and publishes what it changed.
//
// After a clean shutdown (see cleanMark) only the conversations with a
// folder modified since are swept and walked: a restart costs what
// changed, not what exists.
func (s *Store) reconcile() error {
	ctx := context.Background()
	started := time.Now().UnixNano()
	mark, clean := s.takeCleanMark(ctx)
	if !clean {
		if err := sweepReserved(s.root, s.opts.Logger); err != nil {
			return files.E("open store", files.KindInternal, "", "cannot sweep leftover temporary files", err)
		}
	} else if err := sweepTop(s.root); err != nil {
		return files.E("open store", files.KindInternal, "", "cannot sweep leftover temporary files", err)
	}
	seen := map[string]bool{}
	walked := 0
	err := s.blobs.Conversations(ctx, func(id string) error {
		seen[id] = true
		if clean {
			if changed, err := s.changedSince(id, mark.Verified); err != nil || !changed {
				return err
			}
			if err := s.sweepConversation(id); err != nil {
				return err
			}
		}
		walked++
		return s.reconcileConversation(ctx, id)
	})
	if err != nil {
		return err
	}
	ids, err := s.opts.Index.ConversationIDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if !seen[id] {
			if _, err := s.opts.Index.Reconcile(ctx, id, driver.Reconciliation{Publish: s.publish}); err != nil {
				return err
			}
		}
	}
	// Every conversation agreed with the index as of the start: checked
	// unchanged since the last mark, or walked from then on.
	s.verified = started
	s.opts.Logger.Info("start-up reconciliation", "conversations", len(seen), "walked", walked,
		"after_clean_shutdown", clean, "took", time.Duration(time.Now().UnixNano()-started).Round(time.Millisecond))
	return nil
}

// sweepConversation sweeps the leftovers of interrupted work in one
// conversation's folder.
func (s *Store) sweepConversation(id string) error {
	r, err := s.root.OpenRoot(id)
	if err != nil {
		return files.E("open store", files.KindInternal, id, "cannot open the conversation's folder", err)
	}
	defer r.Close()
	if err := sweepReserved(r, s.opts.Logger); err != nil {
		return files.E("open store", files.KindInternal, id, "cannot sweep leftover temporary files", err)
	}
	return nil
}

func (s *Store) reconcileConversation(ctx context.Context, id string) error {
	sp := &Space{id: id, opts: s.opts, blobs: s.blobs}
	versions, err := versionsStored(ctx, s.blobs, id)
	if err != nil {
		return files.E("reconcile", files.KindInternal, id, "cannot list the conversation's versions", err)
	}
	walk := func(yield func(driver.DiskFile) error) error {
		var yielded error // the index's own failure, passed on as it is
		err := s.blobs.List(ctx, id, "", func(b files.BlobInfo) error {
			name := b.Path
			yielded = yield(driver.DiskFile{Name: name, Size: b.Size, DiskTime: b.ModTime.UnixNano(), Shared: b.Shared,
				Describe: func() (string, string, error) {
					f, err := s.blobs.Open(ctx, sp.key(name))
					if err != nil {
						return "", "", err
					}
					defer f.Close()
					return sp.describe(f, name, nil)
				}})
			return yielded
		})
		if err != nil && (yielded == nil || !errors.Is(err, yielded)) && files.KindOf(err) == files.KindInternal {
			return files.E("reconcile", files.KindInternal, id, "cannot list the conversation's files", err)
		}
		return err
	}
	orphans, err := s.opts.Index.Reconcile(ctx, id, driver.Reconciliation{Walk: walk, Versions: versions, Publish: s.publish})
	if err != nil {
		return err
	}
	for fileID, ns := range orphans {
		for _, n := range ns {
			s.blobs.Delete(ctx, sp.key(versionPath(fileID, n)))
		}
	}
	return nil
}

func (s *Store) publish(evs []files.Event) {
	for _, ev := range evs {
		s.opts.Bus.Publish(ev)
	}
}

// parseVersion reads a version file's name: a positive decimal number.
func parseVersion(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0 && strconv.Itoa(n) == s
}

// FileByID returns the indexed record of a file, live or deleted, in any
// conversation. It fails with KindNotFound without an index.
func (s *Store) FileByID(ctx context.Context, id string) (files.Record, error) {
	if s.opts.Index == nil || !looksLikeID(id) {
		return files.Record{}, files.E("find", files.KindNotFound, id, "no file has this ID", nil)
	}
	return s.opts.Index.ByID(ctx, id)
}

// Index returns the Store's index, or nil.
func (s *Store) Index() driver.Index { return s.opts.Index }

// conversationsFromIndex lists the conversations the index knows, plus
// empty folders on disk, sorted by ID.
func (s *Store) conversationsFromIndex(ctx context.Context) ([]files.ConversationInfo, error) {
	list, err := s.opts.Index.Conversations(ctx)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	users := list[:0]
	for _, c := range list {
		known[c.ID] = true
		if files.ValidateConversationID(c.ID) == nil { // not a reserved space
			users = append(users, c)
		}
	}
	list = users
	if s.objects != nil {
		return list, nil
	}
	entries, _ := fs.ReadDir(s.root.FS(), ".")
	for _, e := range entries {
		if e.IsDir() && !known[e.Name()] && files.ValidateConversationID(e.Name()) == nil {
			info := files.ConversationInfo{ID: e.Name()}
			if fi, err := e.Info(); err == nil {
				info.Modified = fi.ModTime()
			}
			list = append(list, info)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	return list, nil
}

// Blobs returns where the Store keeps the bytes of files.
func (s *Store) Blobs() driver.Blobs {
	if s.objects != nil {
		return s.objects
	}
	return s.blobs
}
