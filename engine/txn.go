package engine

import (
	"context"
	"fmt"
	"os"
	"syscall"

	"convfiles/files"
	"convfiles/files/driver"

	"github.com/google/uuid"
)

// txn is one change to a Space's files while it commits. It holds the
// conversation's lock in this process and, for an indexed Space, one
// index transaction, which every other process writing the same index
// waits for: what the change reads (the file's record, what is on disk
// under its name, the conversation's usage) is still true when it
// commits, so a compare-and-commit cannot be raced and a quota cannot be
// overshot by two processes at once.
type txn struct {
	sp     *Space
	ctx    context.Context
	tx     driver.Tx // nil without an index
	before int64
	// beforeFiles is the conversation's count of files when the change
	// began: a change may add a file only while the count is under the
	// limit.
	beforeFiles int
	record      files.Record
	events      []files.Event
	pruned      []files.Version
	after       int64 // the conversation's usage once committed (indexed only)
	applied     bool  // the disk already changed: undo puts it back
	// drop lists objects no row names once the change commits (an
	// object store's replaced content that is not kept).
	drop []string
	// undo lists, oldest first, how to put back what the change did to
	// the blobs inside its transaction: when the transaction does not
	// commit they run newest first, so a change the index could not
	// record is not on disk either (acknowledged means recorded).
	undo []func(context.Context) error
	// aside lists blobs set aside for undo (see setAside), removed once
	// the change commits.
	aside []driver.BlobKey
	// prefetched is a name's live file read with the usage (see
	// usageAndLookup), until it is looked up or the change applies.
	prefetched *prefetch
}

// update runs fn as one txn. Without an index, fn runs under the
// conversation's lock alone. With one, fn joins a group commit (see
// committer): it runs under the conversation's lock inside an index
// transaction that it may share with concurrent changes. A transaction
// that fails to commit after fn changed the blobs has what fn did undone
// (see txn.undo) and its error returned: success means recorded.
func (sp *Space) update(ctx context.Context, op, name string, fn func(t *txn) error) (*txn, error) {
	if sp.indexed() {
		g := sp.commits
		if g == nil {
			g = newCommitter(sp.opts.Index)
		}
		c := &change{sp: sp, ctx: ctx, op: op, name: name, fn: fn}
		g.do(c)
		if c.err != nil {
			return nil, c.err
		}
		return c.t, nil
	}
	sp.q.mu.Lock()
	defer sp.q.mu.Unlock()
	if sp.q.gen != sp.gen {
		return nil, errDeleted(op, name)
	}
	t := &txn{sp: sp, ctx: ctx}
	if l, ok := sp.blobs.(interface{ lock(string) func() }); ok {
		defer l.lock(sp.id)()
	}
	if err := fn(t); err != nil {
		return nil, err
	}
	t.finish()
	return t, nil
}

// lockFolder takes an exclusive flock(2) of the folder r, which stands in
// for the index transaction where there is no index: two processes
// writing one standalone folder commit one at a time too. It returns how
// to let go; a folder that cannot be locked is written without the lock.
func lockFolder(r *os.Root) (unlock func()) {
	d, err := r.Open(".")
	if err != nil {
		return func() {}
	}
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX); err != nil {
		d.Close()
		return func() {}
	}
	return func() { d.Close() } // closing the descriptor drops the lock
}

// lookup returns the indexed record of name as this transaction sees it.
func (t *txn) lookup(name string) (files.Record, bool) {
	if t.tx == nil {
		return files.Record{}, false
	}
	if p := t.prefetched; p != nil && p.name == name {
		t.prefetched = nil
		return p.rec, p.found
	}
	rec, err := t.tx.Lookup(t.sp.id, name)
	return rec, err == nil
}

// prefetch is a name's live file, read with the usage a change begins
// with (see usageAndLookup) and not yet asked for.
type prefetch struct {
	name  string
	rec   files.Record
	found bool
}

// usageAndLookup reads the conversation's usage as the change begins,
// and, when the index reads both in one round trip (driver.UsageLookup),
// the live file of name too, which the change most likely looks up
// first: lookup answers from it until the change applies anything.
func (t *txn) usageAndLookup(name string) (files.Usage, error) {
	ul, ok := t.tx.(driver.UsageLookup)
	if !ok || name == "" {
		return t.tx.Usage(t.sp.id)
	}
	u, rec, found, err := ul.UsageAndLookup(t.sp.id, name)
	if err == nil {
		t.prefetched = &prefetch{name: name, rec: rec, found: found}
	}
	return u, err
}

// change describes c in the index (without one, only its event) and
// checks the conversation's quota, and the allowance of the credential
// the change is made with, against what the index now adds up to: a
// change that makes the conversation grow past either is refused.
// Call it before changing the disk, so a refusal leaves nothing behind.
func (t *txn) change(op string, c driver.Change) error {
	sp := t.sp
	if t.tx == nil {
		t.record = c.Record
		t.events = append(t.events, files.Event{Type: c.Type, Conversation: sp.id, Name: c.Record.Name, Size: c.Record.Size,
			RenamedFrom: c.RenamedFrom, Time: sp.opts.Now()})
		return nil
	}
	c.Keep = sp.keep()
	t.prefetched = nil // what it read may be about to change
	res, err := t.tx.Apply(c)
	if err != nil {
		return err
	}
	u, err := t.tx.Usage(sp.id)
	if err != nil {
		return err
	}
	if max := sp.opts.Limits.MaxConversationBytes; max > 0 && u.Bytes > max && u.Bytes > t.before {
		return files.E(op, files.KindTooLarge, c.Record.Name, fmt.Sprintf(
			"the conversation may hold at most %s and holds %s; this change needs %s more",
			files.FormatBytes(max), files.FormatBytes(t.before), files.FormatBytes(u.Bytes-t.before)), nil)
	}
	if max := sp.opts.Limits.MaxConversationFiles; max > 0 && u.Files > max && u.Files > t.beforeFiles {
		return files.E(op, files.KindTooLarge, c.Record.Name, fmt.Sprintf(
			"the conversation may hold at most %d files and holds %d: remove some, or write into one that exists", max, t.beforeFiles), nil)
	}
	if err := t.checkAllowance(op, c.Record.Name, u.Bytes-t.before); err != nil {
		return err
	}
	t.record, t.events, t.pruned, t.after = res.Record, res.Events, res.Pruned, u.Bytes
	return nil
}

// onUndo records how to put back a change fn has just made to the blobs.
func (t *txn) onUndo(undo func(context.Context) error) {
	t.undo = append(t.undo, undo)
}

// setAside moves the blob at key out of sight, to a reserved name that
// the change removes once it commits, or moves back if it does not: a
// deletion or replacement that can be undone until the commit. A crash
// in between leaves the reserved name to the next start-up's sweep.
func (t *txn) setAside(key driver.BlobKey) error {
	aside := driver.BlobKey{Conversation: key.Conversation, Path: files.ReservedPrefix + "trash-" + uuid.NewString()}
	if err := t.sp.blobs.Move(t.ctx, key, aside, false); err != nil {
		return err
	}
	t.aside = append(t.aside, aside)
	t.onUndo(func(ctx context.Context) error { return t.sp.blobs.Move(ctx, aside, key, false) })
	return nil
}

// rollback undoes, newest first, what the change did to the blobs. It
// stops at the first undo that fails and returns its error: the disk then
// differs from the index, which the next start-up reconciles.
func (t *txn) rollback() error {
	ctx := context.WithoutCancel(t.ctx)
	for i := len(t.undo) - 1; i >= 0; i-- {
		if err := t.undo[i](ctx); err != nil {
			return err
		}
	}
	t.undo = nil
	return nil
}

// finish has the bytes of pruned versions removed and publishes the
// events. It runs under the conversation's lock, after the transaction.
func (t *txn) finish() {
	for _, v := range t.pruned {
		t.sp.reaper.remove(t.sp.blobs, t.sp.versionKey(v))
	}
	for _, obj := range t.drop {
		t.sp.reaper.remove(t.sp.blobs, t.sp.key(obj))
	}
	for _, key := range t.aside {
		t.sp.reaper.remove(t.sp.blobs, key)
	}
	for _, ev := range t.events {
		t.sp.opts.Bus.Publish(ev)
		t.touched(ev)
	}
}

// touched tells the listener the change's context carries (see
// files.WithTouches) what the committed event ev did: a rename removed
// its old name and wrote its new one.
func (t *txn) touched(ev files.Event) {
	if ev.Conversation != t.sp.id {
		return
	}
	switch ev.Type {
	case files.FileDeleted:
		files.Touched(t.ctx, ev.Name, files.Removed)
	case files.FileCreated, files.FileModified:
		if ev.RenamedFrom != "" {
			files.Touched(t.ctx, ev.RenamedFrom, files.Removed)
		}
		how := files.Wrote
		if appending(t.ctx) && ev.RenamedFrom == "" {
			how = files.Appended
		}
		files.Touched(t.ctx, ev.Name, how)
	}
}

// appendingKey marks, in a write's context, a change that only appends
// (Append, WriteAt): what it touched is reported as files.Appended.
type appendingKey struct{}

// appending reports whether ctx is an appending write's (see Append).
func appending(ctx context.Context) bool { return ctx.Value(appendingKey{}) != nil }
