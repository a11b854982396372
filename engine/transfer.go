package engine

import (
	"context"
	"fmt"

	"convfiles/files"
	"convfiles/files/driver"
)

// TransferReport counts what a transfer of conversations did.
type TransferReport struct {
	Files    int   `json:"files"`    // files copied, live or deleted
	Versions int   `json:"versions"` // kept versions copied with them
	Skipped  int   `json:"skipped"`  // files the destination held already, unchanged
	Bytes    int64 `json:"bytes"`    // bytes copied, each checked against its SHA-256 twice
}

// Add adds another report's counts to r.
func (r *TransferReport) Add(o TransferReport) {
	r.Files += o.Files
	r.Versions += o.Versions
	r.Skipped += o.Skipped
	r.Bytes += o.Bytes
}

// transferPage is how many rows one question to the source's index
// returns: memory stays bounded however many files a conversation has.
const transferPage = 200

// Transfer copies one conversation from the Store from to the Store to,
// as it is: every file, live or deleted, under its ID, with its kept
// versions, their numbers and times. It is how convfiles migrate moves a
// store between the embedded disk and SQLite and a PostgreSQL index with
// an object store, either way.
//
// Each content's bytes are hashed as they are read and compared with the
// SHA-256 its row records, and hashed again as the destination reads them
// back; only then is the file's row committed, with its versions, in one
// transaction. So an interrupted transfer leaves no row without its
// bytes, and running it again skips the files already there (same ID,
// version and SHA-256) and copies the rest: it is resumable. A file the
// destination holds in another state is a KindConflict error: the
// destination must be empty, or filled by an earlier transfer from this
// source with no writes in between. progress, when not nil, is called
// with the bytes copied (or skipped) as they are.
func Transfer(ctx context.Context, from, to *Store, conversation string, progress func(bytes int64)) (TransferReport, error) {
	t := &transfer{from: from, to: to, conv: conversation, progress: progress}
	if progress == nil {
		t.progress = func(int64) {}
	}
	if from.opts.Index == nil || to.opts.Index == nil {
		return t.report, files.E("migrate", files.KindInvalid, conversation, "both stores need an index to transfer a conversation", nil)
	}
	if to.objects == nil && files.IsReserved(conversation) {
		return t.report, files.E("migrate", files.KindInvalid, conversation, "a reserved space of an object store has no conversation folder on disk; copy its files into the folder that holds them", nil)
	}
	for after := ""; ; {
		recs, err := from.opts.Index.Files(ctx, conversation, after, transferPage)
		if err != nil {
			return t.report, err
		}
		for _, rec := range recs {
			if err := t.file(ctx, rec); err != nil {
				return t.report, err
			}
		}
		if len(recs) < transferPage {
			return t.report, nil
		}
		after = recs[len(recs)-1].ID
	}
}

// transfer is one conversation's Transfer in progress.
type transfer struct {
	from, to *Store
	conv     string
	progress func(int64)
	report   TransferReport
}

// file transfers one file and its versions.
func (t *transfer) file(ctx context.Context, rec files.Record) error {
	versions, err := t.from.opts.Index.Versions(ctx, rec.ID)
	if err != nil {
		return err
	}
	total := rowBytes(rec, versions)
	if done, err := t.present(ctx, rec); err != nil || done {
		if done {
			t.report.Skipped++
			t.progress(total)
		}
		return err
	}
	out, outVersions := rec, make([]files.Version, len(versions))
	out.Blob, out.DiskTime = "", 0
	var placed []driver.BlobKey
	err = func() error {
		for i, v := range versions {
			dst := t.destination(versionPath(v.FileID, v.Version))
			v.SHA256, _, err = t.copy(ctx, versionBlobKey(t.conv, v), dst, v.Size, v.SHA256, fmt.Sprintf("%s (version %d)", v.Name, v.Version))
			if err != nil {
				return err
			}
			placed = append(placed, dst)
			v.Blob = t.objectPath(dst)
			outVersions[i] = v
		}
		if rec.Deleted != nil {
			return nil
		}
		dst := t.destination(rec.Name)
		sum, info, err := t.copy(ctx, liveBlobKey(rec), dst, rec.Size, rec.SHA256, rec.Name)
		if err != nil {
			return err
		}
		placed = append(placed, dst)
		out.SHA256, out.Blob = sum, t.objectPath(dst)
		if t.to.objects == nil {
			out.DiskTime = info.ModTime.UnixNano()
		}
		return nil
	}()
	if err == nil {
		err = t.to.opts.Index.Update(ctx, func(tx driver.Tx) error {
			if _, err := tx.ByID(rec.ID); err == nil {
				return files.E("migrate", files.KindConflict, rec.Name, "was written to the destination while it was being copied; migrate into a store no server is using", nil)
			}
			return tx.Import(out, outVersions)
		})
	}
	if err != nil {
		if t.to.objects != nil { // objects no row names; on disk the next copy replaces them
			for _, k := range placed {
				t.to.objects.Delete(context.WithoutCancel(ctx), k)
			}
		}
		return err
	}
	t.report.Files++
	t.report.Versions += len(versions)
	return nil
}

// present reports whether the destination holds rec already as the
// source does, and fails when it holds rec, or rec's name, otherwise.
func (t *transfer) present(ctx context.Context, rec files.Record) (bool, error) {
	have, err := t.to.opts.Index.ByID(ctx, rec.ID)
	switch {
	case err == nil && have.Version == rec.Version && have.SHA256 == rec.SHA256 && (have.Deleted == nil) == (rec.Deleted == nil):
		return true, nil
	case err == nil:
		return false, files.E("migrate", files.KindConflict, rec.Name, fmt.Sprintf(
			"the destination holds this file (ID %s) at version %d, the source at version %d: it changed after an earlier migrate; migrate into an empty store", rec.ID, have.Version, rec.Version), nil)
	case files.KindOf(err) != files.KindNotFound:
		return false, err
	case rec.Deleted != nil:
		return false, nil
	}
	other, err := t.to.opts.Index.Lookup(ctx, t.conv, rec.Name)
	switch {
	case err == nil && (t.to.objects != nil || other.SHA256 != rec.SHA256):
		// On disk, a row with the same bytes is what the destination's
		// start-up made of bytes an interrupted migrate had placed: the
		// imported row takes its place.
		return false, files.E("migrate", files.KindConflict, rec.Name, fmt.Sprintf(
			"the destination holds another file (ID %s) at this name; migrate into an empty store", other.ID), nil)
	case err != nil && files.KindOf(err) != files.KindNotFound:
		return false, err
	}
	return false, nil
}

// destination is where the bytes of a file's content (a live name, or a
// version's path) go: a new object in an object store, the same path on
// disk.
func (t *transfer) destination(p string) driver.BlobKey {
	if t.to.objects != nil {
		p = newObjectPath()
	}
	return driver.BlobKey{Conversation: t.conv, Path: p}
}

// objectPath is what a destination row names as its bytes: the object,
// or nothing on disk.
func (t *transfer) objectPath(k driver.BlobKey) string {
	if t.to.objects != nil {
		return k.Path
	}
	return ""
}

// rowBytes is what a file and its versions hold.
func rowBytes(rec files.Record, versions []files.Version) int64 {
	var n int64
	if rec.Deleted == nil {
		n = rec.Size
	}
	for _, v := range versions {
		n += v.Size
	}
	return n
}

// liveBlobKey is where the bytes of a live file are.
func liveBlobKey(rec files.Record) driver.BlobKey {
	if rec.Blob != "" {
		return driver.BlobKey{Conversation: rec.Conversation, Path: rec.Blob}
	}
	return driver.BlobKey{Conversation: rec.Conversation, Path: rec.Name}
}

// versionBlobKey is where the bytes of a kept version are.
func versionBlobKey(conversation string, v files.Version) driver.BlobKey {
	if v.Blob != "" {
		return driver.BlobKey{Conversation: conversation, Path: v.Blob}
	}
	return driver.BlobKey{Conversation: conversation, Path: versionPath(v.FileID, v.Version)}
}
