package runtime

import (
	"context"
	"errors"
	"io"

	"convfiles/content"
	"convfiles/files"
)

// Downloader fetches URLs for files.download; cmd wires one that refuses
// the server's own network. Refused downloads return an error that is a
// Refusal.
type Downloader interface {
	Download(ctx context.Context, url string) (body io.ReadCloser, suggestedName string, err error)
}

// DownloaderInto is a files.Ops that fetches into itself: in a worker
// process, the client of the server's Space, where the server fetches
// (the worker has no network). files.download uses it when the Space
// has it.
type DownloaderInto interface {
	DownloadInto(ctx context.Context, url, name string, opts files.WriteOptions) (Downloaded, error)
}

// Refusal marks a download the policy refused, so scripts see a
// PermissionError rather than a failure.
type Refusal interface{ Refused() bool }

// ScriptFailure is an error a helper raises under its own name
// (PermissionError, LimitError, Error) rather than a files error's.
type ScriptFailure struct{ Name, Msg string }

func (f *ScriptFailure) Error() string { return f.Name + ": " + f.Msg }

// DownloadAs is files.DownloadAs for JS and Lua alike: the server fetches u
// into sp as name (or the name it suggests) and the script gets {id,
// name, size, url, mime_type}. A refused or failed fetch is a
// *scriptFailure; a write error is the Space's.
func (s *Run) DownloadAs(sp files.Ops, u, name string) (map[string]any, error) {
	into, remote := sp.(DownloaderInto)
	if s.Cfg.Downloader == nil && !remote {
		return nil, &ScriptFailure{"PermissionError", "downloads are not enabled on this server"}
	}
	var d Downloaded
	var err error
	if remote {
		d, err = into.DownloadInto(s.Ctx, u, name, s.WriteOpts())
	} else {
		d, err = Download(s.Ctx, s.Cfg.Downloader, sp, u, name, s.WriteOpts())
	}
	var fetchErr *FetchError
	switch {
	case errors.As(err, &fetchErr) && refused(err):
		return nil, &ScriptFailure{"PermissionError", fetchErr.Err.Error()}
	case errors.As(err, &fetchErr):
		return nil, &ScriptFailure{"Error", fetchErr.Err.Error()}
	case err != nil && refused(err):
		return nil, &ScriptFailure{"LimitError", err.Error()}
	case err != nil:
		return nil, err
	}
	s.Touches.Touch(d.Name, files.Wrote)
	id := d.ID
	if id == "" {
		id = d.Name
	}
	return map[string]any{"id": id, "name": d.Name, "size": d.Size, "url": s.link(d.Name), "mime_type": d.MIME}, nil
}

// Downloaded is a file Download saved.
type Downloaded struct {
	files.Info
	MIME string // sniffed from the first bytes
}

// FetchError is a download that failed before anything was written: the
// policy refused the URL (then it is a Refusal) or the fetch failed.
type FetchError struct{ Err error }

// Error returns the fetcher's message.
func (e *FetchError) Error() string { return e.Err.Error() }

// Unwrap returns the fetcher's error.
func (e *FetchError) Unwrap() error { return e.Err }

// Download fetches url with d and streams it into sp as name, or, when
// name is "", as the name the server suggested (or "download" when that
// is not a valid name). Both doors that download (files.download and the
// MCP tool file_download) call it. A failed fetch is a *FetchError; a
// write error is the Space's.
func Download(ctx context.Context, d Downloader, sp files.Ops, url, name string, opts files.WriteOptions) (Downloaded, error) {
	if name != "" {
		if _, err := files.ValidateName(name); err != nil {
			return Downloaded{}, err
		}
	}
	body, suggested, err := d.Download(ctx, url)
	if err != nil {
		return Downloaded{}, &FetchError{err}
	}
	defer body.Close()
	if name == "" {
		name = suggested
		if _, err := files.ValidateName(name); err != nil {
			name = "download"
		}
	}
	rec := &content.HeadRecorder{R: body}
	info, err := sp.Write(ctx, name, rec, opts)
	if err != nil {
		return Downloaded{}, err
	}
	_, mt := content.Detect(info.Name, rec.Head, int64(len(rec.Head)) == info.Size)
	return Downloaded{Info: info, MIME: mt}, nil
}

// refused reports whether err is, or wraps, a Refusal.
func refused(err error) bool {
	var r Refusal
	return errors.As(err, &r) && r.Refused()
}
