package driver

import (
	"time"

	"convfiles/files"
)

// ChangeWriter is the SQL of one Index.Apply inside a transaction, which
// an index supplies to ApplyChange; what a change means is ApplyChange's,
// so every index applies it alike.
type ChangeWriter interface {
	// InsertVersion records (or replaces) a kept version.
	InsertVersion(conversation string, v files.Version) error
	// MarkDeleted marks a live file deleted.
	MarkDeleted(id string, now time.Time) error
	// PutLive writes rec as a live file; another live row with its name
	// is marked deleted first.
	PutLive(rec files.Record, now time.Time) error
	// Prune drops the versions of a file beyond the newest keep and
	// returns them. A writer that sends its statements later may return
	// none here and put them in the Applied its Tx.Apply returns instead.
	Prune(fileID string, keep int) ([]files.Version, error)
	// DropUnkept removes the row of a deleted file with no versions left.
	DropUnkept(id string) error
	// InsertEvent appends an event and returns it as stored (numbered).
	InsertEvent(ev files.Event) (files.Event, error)
}

// ApplyChange records c and its events through w: the version it keeps,
// the file a rename displaces, the file's new row (with a new ID from
// newID when it has none), the versions past the keep count, and the
// rows left with nothing to restore.
func ApplyChange(c Change, now time.Time, newID func() string, w ChangeWriter) (Applied, error) {
	var res Applied
	rec := c.Record
	if c.Kept != nil {
		if err := w.InsertVersion(rec.Conversation, *c.Kept); err != nil {
			return res, err
		}
	}
	if c.Replaced != nil {
		if err := w.MarkDeleted(c.Replaced.ID, now); err != nil {
			return res, err
		}
		ev, err := w.InsertEvent(files.Event{Type: files.FileDeleted, Conversation: c.Replaced.Conversation,
			ID: c.Replaced.ID, Name: c.Replaced.Name, Time: now})
		if err != nil {
			return res, err
		}
		res.Events = append(res.Events, ev)
	}
	switch {
	case c.Type == files.FileDeleted && rec.ID != "":
		if err := w.MarkDeleted(rec.ID, now); err != nil {
			return res, err
		}
	case c.Type != files.FileDeleted:
		if rec.ID == "" {
			rec.ID = newID()
		}
		if err := w.PutLive(rec, now); err != nil {
			return res, err
		}
	}
	if c.Kept != nil {
		pruned, err := w.Prune(c.Kept.FileID, c.Keep)
		if err != nil {
			return res, err
		}
		res.Pruned = pruned
	}
	if err := w.DropUnkept(rec.ID); err != nil {
		return res, err
	}
	if c.Replaced != nil {
		if err := w.DropUnkept(c.Replaced.ID); err != nil {
			return res, err
		}
	}
	ev, err := w.InsertEvent(files.Event{Type: c.Type, Conversation: rec.Conversation, ID: rec.ID, Name: rec.Name,
		Size: rec.Size, MIME: rec.MIME, Session: rec.Session, RenamedFrom: c.RenamedFrom, Time: now})
	if err != nil {
		return res, err
	}
	res.Events = append(res.Events, ev)
	res.Record = rec
	return res, nil
}

// ImportRows records rec and its kept versions through w as they are
// (see Tx.Import): the file's row, then its versions, then its deletion
// at the time it was deleted, if it was. A live row that holds rec's name
// under another ID is displaced, as PutLive displaces it; the caller
// decides beforehand whether that may happen.
func ImportRows(rec files.Record, versions []files.Version, w ChangeWriter) error {
	if err := w.PutLive(rec, rec.Modified); err != nil {
		return err
	}
	for _, v := range versions {
		if err := w.InsertVersion(rec.Conversation, v); err != nil {
			return err
		}
	}
	if rec.Deleted != nil {
		return w.MarkDeleted(rec.ID, *rec.Deleted)
	}
	return nil
}
