package engine

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"convfiles/files"

	"golang.org/x/sys/unix"
)

var _ files.FolderOpener = (*Space)(nil)

// OpenFolder holds the folder dir ("" for the top) open, so that each of
// its files is opened with one system call rather than a walk of its
// path: what a search of many files does. The path is checked once, as
// each open checks it (no folder on it may be a symbolic link), and the
// folder is then held by its handle, which no later swap of a name can
// redirect. Where the bytes are not on local disk each file is opened by
// its name.
func (sp *Space) OpenFolder(ctx context.Context, dir string) (files.Folder, error) {
	const op = "read"
	if dir != "" {
		clean, err := files.ValidateName(dir)
		if err != nil {
			return nil, err
		}
		dir = clean
	}
	d, local := sp.blobs.(*diskBlobs)
	if sp.objects || !local {
		return &namedFolder{sp: sp, dir: dir}, nil
	}
	r, release, err := d.root(op, sp.key(dir), false)
	if err != nil {
		return nil, err
	}
	defer release()
	held := r
	if dir != "" {
		if held, err = openSubfolder(r, op, dir); err != nil {
			return nil, err
		}
		defer held.Close()
	}
	file, err := held.Open(".")
	if err != nil {
		return nil, classify(op, dir, err)
	}
	return &diskFolder{sp: sp, dir: dir, file: file, fd: int(file.Fd())}, nil
}

// openSubfolder opens dir below r one folder at a time, refusing a
// symbolic link (os.Root follows one that stays inside) and a folder
// swapped between its look and its open.
func openSubfolder(r *os.Root, op, dir string) (*os.Root, error) {
	cur := r
	for part := range strings.SplitSeq(dir, "/") {
		fi, err := cur.Lstat(part)
		if err == nil && !fi.IsDir() {
			err = files.E(op, files.KindForbidden, dir, "is not a folder, or is a symbolic link; convfiles does not follow links", nil)
		}
		var next *os.Root
		if err == nil {
			next, err = cur.OpenRoot(part)
		}
		if err == nil {
			if held, serr := next.Stat("."); serr != nil || !os.SameFile(fi, held) {
				next.Close()
				err = files.E(op, files.KindConflict, dir, "changed while it was opened; try again", nil)
			}
		}
		if cur != r {
			cur.Close()
		}
		if err != nil {
			return nil, classify(op, dir, err)
		}
		cur = next
	}
	return cur, nil
}

// diskFolder is a folder on local disk held open by its descriptor,
// which os.Root opened inside the conversation's folder. A file is opened
// from it by one name without "/", never "..", and without following a
// link (O_NOFOLLOW): it cannot reach past the folder.
type diskFolder struct {
	sp   *Space
	dir  string
	file *os.File
	fd   int
}

// Open opens name, directly in the folder, refusing anything but a
// regular file, as Space.Open does.
func (f *diskFolder) Open(ctx context.Context, name string) (files.Blob, files.Info, error) {
	const op = "read"
	base, err := f.base(name)
	if err != nil {
		return nil, files.Info{}, err
	}
	fd, err := openat(f.fd, base)
	if err != nil {
		return nil, files.Info{}, classify(op, name, &fs.PathError{Op: "open", Path: name, Err: err})
	}
	var st unix.Stat_t
	for err = unix.EINTR; err == unix.EINTR; {
		err = unix.Fstat(fd, &st)
	}
	b := &fdBlob{fd: fd}
	if err != nil {
		b.Close()
		return nil, files.Info{}, classify(op, name, &fs.PathError{Op: "stat", Path: name, Err: err})
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		b.Close()
		kind, why := files.KindForbidden, "is not a regular file"
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			kind, why = files.KindConflict, "is a folder, not a file"
		}
		return nil, files.Info{}, files.E(op, kind, name, why, nil)
	}
	mod := time.Unix(st.Mtim.Unix())
	b.info = files.BlobInfo{Path: name, Size: st.Size, ModTime: mod, Tag: strconv.FormatUint(uint64(st.Ino), 10), Shared: st.Nlink > 1}
	if err := f.sp.ownsLinked(ctx, op, name, b); err != nil {
		return nil, files.Info{}, err
	}
	return b, files.Info{Name: name, Size: st.Size, ModTime: mod}, nil
}

// openat opens base in the folder dirfd for reading, never following a
// link, never blocking on a planted FIFO.
func openat(dirfd int, base string) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, base, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// base is name without its folder, which must be this one.
func (f *diskFolder) base(name string) (string, error) {
	name, err := files.ValidateName(name)
	if err != nil {
		return "", err
	}
	dir := path.Dir(name)
	if dir == "." {
		dir = ""
	}
	if dir != f.dir {
		return "", files.E("read", files.KindInvalid, name, "is not directly in the folder "+f.dir+" held open", nil)
	}
	return path.Base(name), nil
}

// Close lets go of the folder.
func (f *diskFolder) Close() error { return f.file.Close() }

// namedFolder opens each file by its name: bytes in an object store have
// no folder to hold.
type namedFolder struct {
	sp  *Space
	dir string
}

func (f *namedFolder) Open(ctx context.Context, name string) (files.Blob, files.Info, error) {
	return f.sp.Open(ctx, name)
}

func (f *namedFolder) Close() error { return nil }

// Current describes the bytes at name as Open would find them, without
// opening them: size, time, tag and whether they are linked under
// another name too. A cache of a file's bytes compares it with what it
// holds: the tag (an inode) changes with every write, since every change
// puts a new file in place. Bytes not on local disk have no such check
// here: errors.ErrUnsupported.
func (sp *Space) Current(ctx context.Context, name string) (files.BlobInfo, error) {
	const op = "read"
	name, err := files.ValidateName(name)
	if err != nil {
		return files.BlobInfo{}, err
	}
	d, local := sp.blobs.(*diskBlobs)
	if sp.objects || !local {
		return files.BlobInfo{}, errors.ErrUnsupported
	}
	r, release, err := d.root(op, sp.key(name), false)
	if err != nil {
		return files.BlobInfo{}, err
	}
	defer release()
	if err := noLinkedFolder(r, op, name); err != nil {
		return files.BlobInfo{}, err
	}
	fi, err := r.Lstat(name)
	if err != nil {
		return files.BlobInfo{}, classify(op, name, err)
	}
	if err := requireRegular(op, name, fi); err != nil {
		return files.BlobInfo{}, err
	}
	return blobInfo(name, fi), nil
}
