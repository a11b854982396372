package runtime

import (
	"context"
	"errors"
	"io"

	"github.com/dop251/goja"

	"convfiles/content"
	"convfiles/files"
)

// Downloader fetches URLs for files.download; cmd wires one that refuses
// the server's own network. Refused downloads return an error that is a
// Refusal.
type Downloader interface {
	Download(ctx context.Context, url string) (body io.ReadCloser, suggestedName string, err error)
}

// Refusal marks a download the policy refused, so scripts see a
// PermissionError rather than a failure.
type Refusal interface{ Refused() bool }

// filesDownload is files.download(url, filename?) → {id, name, size,
// mime_type}: the server fetches the URL straight into the conversation.
func (s *session) filesDownload(sp *files.Space, call goja.FunctionCall) goja.Value {
	const usage = "files.download(url, filename?)"
	if s.cfg.Downloader == nil {
		s.throw("PermissionError", usage+": downloads are not enabled on this server")
	}
	u := s.stringArg(call, 0, usage, "url")
	body, suggested, err := s.cfg.Downloader.Download(s.ctx, u)
	if err != nil {
		if refused(err) {
			s.throw("PermissionError", usage+": "+err.Error())
		}
		s.throw("Error", usage+": "+err.Error())
	}
	defer body.Close()
	name := suggested
	if a := call.Argument(1); !goja.IsUndefined(a) && !goja.IsNull(a) {
		name = s.stringArg(call, 1, usage, "filename")
	} else if _, err := files.ValidateName(name); err != nil {
		name = "download"
	}
	rec := &content.HeadRecorder{R: body}
	info, err := sp.Write(s.ctx, name, rec, s.writeOpts())
	if err != nil {
		if refused(err) {
			s.throw("LimitError", usage+": "+err.Error())
		}
		s.throwFiles(err)
	}
	s.touched.touch(info.Name, opWrite)
	o := s.idName(info).(*goja.Object)
	o.Set("size", info.Size)
	o.Set("url", s.link(info.Name))
	_, mt := content.Detect(info.Name, rec.Head, int64(len(rec.Head)) == info.Size)
	o.Set("mime_type", mt)
	return o
}

// refused reports whether err is, or wraps, a Refusal.
func refused(err error) bool {
	var r Refusal
	return errors.As(err, &r) && r.Refused()
}
