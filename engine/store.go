package engine

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
)

// Options configures a Store or a standalone Space.
type Options struct {
	Limits files.Limits
	// Bus receives an Event for every change; nil means no events.
	Bus *files.Bus
	// Now tells the time; nil means time.Now.
	Now func() time.Time
	// Logger receives internal failures; nil means slog.Default().
	Logger *slog.Logger
	// Index records every file's metadata, IDs and versions; nil means a
	// Store without IDs, versions or an event history.
	Index driver.Index
	// Versions is how many earlier versions of a file an indexed Store
	// keeps: 0 means DefaultVersions, a negative number none.
	Versions int
	// Sniff names the MIME type of a file from its name and first bytes;
	// nil means application/octet-stream for all.
	Sniff func(name string, head []byte) string
	// Objects keeps the bytes in an object store instead of the Store's
	// folder (see ObjectStore); it needs an Index, which is then the
	// truth about which files exist.
	Objects driver.ObjectStore
}

func (o Options) withDefaults() Options {
	o.Limits = o.Limits.WithDefaults()
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Versions == 0 {
		o.Versions = files.DefaultVersions
	}
	return o
}

// Store owns the folder that holds one sub-folder per conversation. It hands
// out a Space per conversation; all file access goes through a Space.
type Store struct {
	dir   string
	root  *os.Root
	opts  Options
	blobs *diskBlobs
	// objects is Options.Objects: when set, the bytes live there and
	// the folder holds nothing of the conversations.
	objects driver.ObjectStore

	mu    sync.Mutex
	convs map[string]*quota
	roots *rootCache
	lines lineCache
	names nameLocks
	lock  *os.File // the shared open lock (see lockStore); nil without an index
	// commits groups the index transactions of concurrent changes.
	commits *committer
	// reaper removes the bytes of pruned versions in the background.
	reaper *reaper
	// outside wakes followers for changes other processes record.
	outside *outsideChanges
	// verified is when the start-up reconciliation that this Store ran
	// began, in Unix nanoseconds; 0 when it ran none (see cleanMark).
	verified int64
}

// OpenStore opens (creating it if needed) the conversations folder dir, and
// sweeps what interrupted writes and deletions left behind.
func OpenStore(dir string, opts Options) (*Store, error) {
	const op = "open store"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, files.E(op, files.KindInternal, "", "cannot create the data folder", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, files.E(op, files.KindInternal, "", "cannot open the data folder", err)
	}
	opts = opts.withDefaults()
	s := &Store{dir: root.Name(), root: root, opts: opts, convs: map[string]*quota{}, roots: newRootCache(256, opts.Now)}
	if opts.Index != nil {
		s.commits = newCommitter(opts.Index)
	}
	s.blobs = &diskBlobs{open: s.openShared, top: root, forget: s.roots.invalidate, log: opts.Logger}
	if opts.Objects != nil {
		if opts.Index == nil {
			root.Close()
			return nil, files.E(op, files.KindInvalid, "", "an object store needs an index to name its objects", nil)
		}
		// The index is the truth and every replica shares it: there is
		// nothing on this machine to sweep or reconcile, and objects no
		// row names are the garbage collector's.
		s.objects = opts.Objects
		s.reaper = newReaper(opts.Objects, opts.Logger)
		return s, nil
	}
	sweep := func() error {
		if err := sweepReserved(root, s.opts.Logger); err != nil {
			return files.E(op, files.KindInternal, "", "cannot sweep leftover temporary files", err)
		}
		return nil
	}
	if opts.Index == nil {
		if err := sweep(); err != nil {
			root.Close()
			return nil, err
		}
		return s, nil
	}
	// The sweep (see reconcile) runs after the locks are taken, which
	// keeps it off them.
	lock, err := lockStore(root, s.reconcile)
	if err != nil {
		root.Close()
		return nil, classify(op, "", err)
	}
	s.lock = lock
	s.reaper = newReaper(s.blobs, opts.Logger)
	return s, nil
}

// Close finishes removing pruned versions, leaves the clean mark when no
// other Store is open on the folder (see cleanMark), and releases the
// Store's folder handles.
func (s *Store) Close() error {
	if s.reaper != nil {
		s.reaper.close()
	}
	s.roots.closeAll()
	s.markClean()
	if s.lock != nil {
		s.lock.Close()
	}
	return s.root.Close()
}

// Dir returns the folder holding the conversations.
func (s *Store) Dir() string { return s.dir }

// Space returns the Space of one conversation. It validates the ID and does
// not touch the disk: the conversation's folder is opened on first use and
// created on first write. The caller must Close the Space.
func (s *Store) Space(conversationID string) (*Space, error) {
	if err := files.ValidateConversationID(conversationID); err != nil {
		return nil, err
	}
	q := s.quotaFor(conversationID)
	q.mu.Lock()
	gen := q.gen
	q.mu.Unlock()
	sp := &Space{id: conversationID, opts: s.opts, q: q, gen: gen, hostDir: s.dir + string(os.PathSeparator) + conversationID,
		blobs: s.blobs, lineCache: &s.lines, names: &s.names, commits: s.commits, reaper: s.reaper}
	if s.objects != nil {
		sp.blobs, sp.objects, sp.hostDir = s.objects, true, s.objects.Location(conversationID)
	}
	return sp, nil
}

// ReservedSpace returns a Space that no user can name, for what the
// server itself keeps in the Store (saved code): its conversation ID is
// ReservedPrefix+name, which ValidateConversationID refuses, so no door
// reaches it and no listing shows it. limits replace the Store's.
func (s *Store) ReservedSpace(name string, limits files.Limits) (*Space, error) {
	if err := files.ValidateConversationID(name); err != nil {
		return nil, err
	}
	id := files.ReservedPrefix + name
	q := s.quotaFor(id)
	opts := s.opts
	opts.Limits = limits.WithDefaults()
	sp := &Space{id: id, opts: opts, q: q, hostDir: s.dir + string(os.PathSeparator) + id,
		blobs: s.blobs, lineCache: &s.lines, names: &s.names, commits: s.commits, reaper: s.reaper}
	if s.objects != nil {
		sp.blobs, sp.objects, sp.hostDir = s.objects, true, s.objects.Location(id)
	}
	return sp, nil
}

// openShared returns a conversation's folder from the cache of open ones,
// and how to give it back.
func (s *Store) openShared(id string, create bool) (*os.Root, func(), error) {
	e, err := s.roots.acquire(id, func() (*os.Root, error) {
		r, err := s.openConversation(id, create)
		if errors.Is(err, fs.ErrNotExist) && !create {
			return nil, nil
		}
		return r, err
	})
	if err != nil || e == nil {
		return nil, nil, err
	}
	return e.root, func() { s.roots.release(e) }, nil
}

func (s *Store) quotaFor(id string) *quota {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.convs[id]
	if !ok {
		q = &quota{}
		s.convs[id] = q
	}
	return q
}

func (s *Store) openConversation(id string, create bool) (*os.Root, error) {
	r, err := s.root.OpenRoot(id)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err = s.root.Mkdir(id, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		r, err = s.root.OpenRoot(id)
	}
	return r, err
}

// Conversations lists every conversation folder, sorted by ID. Entries whose
// names are not valid conversation IDs are not conversations and are skipped.
func (s *Store) Conversations(ctx context.Context) ([]files.ConversationInfo, error) {
	if s.opts.Index != nil {
		return s.conversationsFromIndex(ctx)
	}
	var out []files.ConversationInfo
	err := s.blobs.Conversations(ctx, func(id string) error {
		if info, err := s.Conversation(ctx, id); err == nil { // else removed while we listed
			out = append(out, info)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Conversation summarizes one conversation's folder.
func (s *Store) Conversation(ctx context.Context, id string) (files.ConversationInfo, error) {
	if s.opts.Index != nil {
		if err := files.ValidateConversationID(id); err != nil {
			return files.ConversationInfo{}, err
		}
		list, err := s.conversationsFromIndex(ctx)
		if err != nil {
			return files.ConversationInfo{}, err
		}
		for _, c := range list {
			if c.ID == id {
				return c, nil
			}
		}
		return files.ConversationInfo{}, files.E("summary", files.KindNotFound, id, "no such conversation", nil)
	}
	sp, err := s.Space(id)
	if err != nil {
		return files.ConversationInfo{}, err
	}
	defer sp.Close()
	return sp.Summary(ctx)
}

// RemoveConversation deletes a conversation and every file in it: its
// blobs first, which vanish from sight at once (see Blobs), then its rows.
// Spaces still open on it refuse further writes.
func (s *Store) RemoveConversation(ctx context.Context, id string) error {
	if err := files.ValidateConversationID(id); err != nil {
		return err
	}
	if s.commits == nil {
		return s.removeConversation(ctx, id)
	}
	var err error
	s.commits.exclusive(func() { err = s.removeConversation(ctx, id) })
	return err
}

// removeConversation removes a conversation's blobs and then its rows,
// under the conversation's lock, so no change of it runs in between.
func (s *Store) removeConversation(ctx context.Context, id string) error {
	q := s.quotaFor(id)
	q.mu.Lock()
	defer q.mu.Unlock()
	if s.objects != nil {
		return s.removeObjects(ctx, q, id)
	}
	if err := s.blobs.RemoveConversation(ctx, id); err != nil {
		return err
	}
	q.gen++
	q.committed, q.loaded = 0, false
	if s.opts.Index != nil {
		evs, err := s.opts.Index.RemoveConversation(ctx, id)
		if err != nil {
			s.opts.Logger.Error("index: remove conversation; the next start-up reconciles it", "conversation", id, "err", err)
		}
		s.publish(evs)
	}
	return nil
}

// OpenDir returns a Space over a standalone folder (convfiles run --dir), the
// single-folder model of seeds 000 and 001. The same name rules, limits and
// atomic writes apply; the folder is created on first write. Its conversation
// ID is "". The path is the operator's, not a user's.
func OpenDir(dir string, opts Options) (*Space, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, files.E("open folder", files.KindInvalid, dir, "cannot resolve the folder", err)
	}
	opts = opts.withDefaults()
	folder := &standaloneRoot{abs: abs, log: opts.Logger}
	blobs := &diskBlobs{open: folder.open, log: opts.Logger}
	return &Space{opts: opts, q: &quota{}, hostDir: abs, blobs: blobs, close: folder.close,
		lineCache: &lineCache{}, names: &nameLocks{}}, nil
}

// openStandalone opens (with create, making) a standalone folder and sweeps
// leftovers of interrupted writes in it.
func openStandalone(abs string, create bool, log *slog.Logger) (*os.Root, error) {
	r, err := os.OpenRoot(abs)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err = os.MkdirAll(abs, 0o755); err != nil {
			return nil, err
		}
		r, err = os.OpenRoot(abs)
	}
	if err != nil {
		return nil, err
	}
	if err := sweepReserved(r, log); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}
