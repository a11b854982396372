package engine

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"

	"convfiles/files"
	"convfiles/files/driver"

	"github.com/google/uuid"
)

// diskBlobs keeps bytes as files on the local disk, one folder per
// conversation, each opened as an os.Root so that no key can reach
// outside it: the layout a person browsing the data folder expects
// ($XDG_DATA_HOME/convfiles/files/<conversation>/<name>). Kept versions
// are hard links in the reserved versions folder, so keeping one copies
// nothing.
type diskBlobs struct {
	// open returns a conversation's folder and how to let go of it; a
	// missing folder is (nil, nil, nil) unless create.
	open func(conversation string, create bool) (*os.Root, func(), error)
	// top is the folder holding the conversations; nil for a standalone
	// folder, which is its only conversation ("").
	top *os.Root
	// forget drops a removed conversation's cached folder.
	forget func(conversation string)
	log    *slog.Logger
}

var _ driver.Blobs = (*diskBlobs)(nil)

// root opens key's conversation folder; with create a missing one is made.
func (d *diskBlobs) root(op string, key driver.BlobKey, create bool) (*os.Root, func(), error) {
	r, release, err := d.open(key.Conversation, create)
	if err != nil {
		return nil, nil, classify(op, key.Path, err)
	}
	if r == nil {
		return nil, nil, notFound(op, key.Path)
	}
	return r, release, nil
}

// Create starts a temporary file beside key, under a reserved name that
// no listing shows and the next start-up sweeps if the writer dies.
func (d *diskBlobs) Create(ctx context.Context, key driver.BlobKey) (driver.BlobWriter, error) {
	const op = "write"
	r, release, err := d.root(op, key, true)
	if err != nil {
		return nil, err
	}
	dir := path.Dir(key.Path)
	if dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			release()
			return nil, classify(op, key.Path, err)
		}
	}
	tmp := path.Join(dir, files.ReservedPrefix+"tmp-"+uuid.NewString())
	f, err := r.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL|noFollow, 0o644)
	if err != nil {
		release()
		return nil, classify(op, key.Path, err)
	}
	lockTemp(f)
	return &diskWriter{r: r, release: release, f: f, tmp: tmp, conversation: key.Conversation, name: key.Path}, nil
}

// Open opens the regular file at key. A link is refused even when it
// points inside the folder: convfiles never makes links, so one found
// there was planted.
func (d *diskBlobs) Open(ctx context.Context, key driver.BlobKey) (files.Blob, error) {
	const op = "read"
	r, release, err := d.root(op, key, false)
	if err != nil {
		return nil, err
	}
	defer release() // an open file outlives its folder's handle
	f, _, err := openRegular(r, op, key.Path)
	if err != nil {
		return nil, err
	}
	return FileBlob(f, key.Path)
}

// Stat describes the file at key without following a link.
func (d *diskBlobs) Stat(ctx context.Context, key driver.BlobKey) (files.BlobInfo, error) {
	const op = "stat"
	r, release, err := d.root(op, key, false)
	if err != nil {
		return files.BlobInfo{}, err
	}
	defer release()
	fi, err := r.Lstat(key.Path)
	if err != nil {
		return files.BlobInfo{}, classify(op, key.Path, err)
	}
	if err := requireRegular(op, key.Path, fi); err != nil {
		return files.BlobInfo{}, err
	}
	return blobInfo(key.Path, fi), nil
}

// Copy links dst to the bytes of src: every change puts a new file in
// place, never writes into an old one, so the two names can share them.
func (d *diskBlobs) Copy(ctx context.Context, src, dst driver.BlobKey) error {
	const op = "copy"
	r, release, err := d.root(op, src, false)
	if err != nil {
		return err
	}
	defer release()
	if err := r.MkdirAll(path.Dir(dst.Path), 0o700); err != nil {
		return classify(op, dst.Path, err)
	}
	err = r.Link(src.Path, dst.Path)
	if errors.Is(err, fs.ErrExist) {
		r.Remove(dst.Path)
		err = r.Link(src.Path, dst.Path)
	}
	return classify(op, src.Path, err)
}

// Move renames src to dst and makes both folders' change durable. With
// noReplace it links dst first, which fails if dst exists, so no other
// process can slip a file in between, then removes src.
func (d *diskBlobs) Move(ctx context.Context, src, dst driver.BlobKey, noReplace bool) error {
	const op = "rename"
	r, release, err := d.root(op, src, false)
	if err != nil {
		return err
	}
	defer release()
	if dir := path.Dir(dst.Path); dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return classify(op, dst.Path, err)
		}
	}
	if !noReplace || src.Path == dst.Path {
		err = r.Rename(src.Path, dst.Path)
	} else if err = r.Link(src.Path, dst.Path); errors.Is(err, fs.ErrExist) {
		return errExists(op, dst.Path)
	} else if err == nil {
		if err = r.Remove(src.Path); err != nil {
			r.Remove(dst.Path)
		}
	}
	if err != nil {
		return classify(op, src.Path, err)
	}
	syncDir(r, path.Dir(src.Path))
	syncDir(r, path.Dir(dst.Path))
	return nil
}

// Delete removes the file at key, and the folder of a version that was
// its file's last.
func (d *diskBlobs) Delete(ctx context.Context, key driver.BlobKey) error {
	r, release, err := d.open(key.Conversation, false)
	if err != nil || r == nil {
		return classify("remove", key.Path, err)
	}
	defer release()
	if err := r.Remove(key.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return classify("remove", key.Path, err)
	}
	if dir := path.Dir(key.Path); strings.HasPrefix(dir, versionsDir+"/") {
		r.Remove(dir) // only if now empty
	}
	return nil
}

// List walks the regular files below dir, skipping reserved entries
// (below the reserved folder dir names, if it names one) and links.
func (d *diskBlobs) List(ctx context.Context, conversation, dir string, fn func(files.BlobInfo) error) error {
	r, release, err := d.open(conversation, false)
	if err != nil || r == nil {
		return classify("list", dir, err)
	}
	defer release()
	if dir == "" {
		dir = "."
	}
	return walkFiles(ctx, r, dir, func(p string, fi fs.FileInfo) error {
		return fn(blobInfo(p, fi))
	})
}

// Conversations lists the folders named as conversations.
func (d *diskBlobs) Conversations(ctx context.Context, fn func(string) error) error {
	if d.top == nil {
		return nil
	}
	entries, err := fs.ReadDir(d.top.FS(), ".")
	if err != nil {
		return files.E("list conversations", files.KindInternal, "", "cannot read the data folder", err)
	}
	for _, e := range entries {
		if e.IsDir() && files.ValidateConversationID(e.Name()) == nil {
			if err := fn(e.Name()); err != nil {
				return err
			}
		}
	}
	return nil
}

// RemoveConversation first renames the folder to a reserved name, so the
// conversation disappears at once and a crash mid-way leaves nothing
// half-deleted in sight (the next start-up sweeps the rest).
func (d *diskBlobs) RemoveConversation(ctx context.Context, id string) error {
	const op = "remove conversation"
	if d.top == nil {
		return files.E(op, files.KindForbidden, id, "a standalone folder has no conversations", nil)
	}
	trash := files.ReservedPrefix + "trash-" + uuid.NewString()
	if err := d.top.Rename(id, trash); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return files.E(op, files.KindNotFound, id, "no such conversation", nil)
		}
		return files.E(op, files.KindInternal, id, "", err)
	}
	d.forget(id)
	if err := d.top.RemoveAll(trash); err != nil {
		// Out of sight already; the next start-up's sweep removes the rest.
		d.log.Error("remove conversation folder; the next start-up sweeps it", "conversation", id, "err", err)
	}
	return nil
}

// lock takes an exclusive flock(2) of a conversation's folder, which
// stands in for the index transaction where there is no index: two
// processes writing one standalone folder commit one at a time too.
func (d *diskBlobs) lock(conversation string) (unlock func()) {
	r, release, err := d.open(conversation, true)
	if err != nil || r == nil {
		return func() {}
	}
	defer release()
	return lockFolder(r)
}

// blobInfo describes a file; its inode number is its tag, since every
// change puts a new inode in place.
func blobInfo(p string, fi fs.FileInfo) files.BlobInfo {
	b := files.BlobInfo{Path: p, Size: fi.Size(), ModTime: fi.ModTime()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		b.Tag = strconv.FormatUint(st.Ino, 10)
		b.Shared = st.Nlink > 1
	}
	return b
}
