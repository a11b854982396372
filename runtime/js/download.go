package js

import (
	"errors"

	"github.com/dop251/goja"

	"convfiles/files"
	"convfiles/runtime"
)

// filesDownload is files.download(url, filename?) → {id, name, size,
// mime_type}: the server fetches the URL straight into the conversation.
func (s *session) filesDownload(sp files.Ops, call goja.FunctionCall) goja.Value {
	const usage = "files.download(url, filename?)"
	u := s.stringArg(call, 0, usage, "url")
	name := ""
	if a := call.Argument(1); !goja.IsUndefined(a) && !goja.IsNull(a) {
		name = s.stringArg(call, 1, usage, "filename")
	}
	d, err := s.DownloadAs(sp, u, name)
	var se *runtime.ScriptFailure
	switch {
	case errors.As(err, &se):
		s.throw(se.Name, usage+": "+se.Msg)
	case err != nil:
		s.throwFiles(err)
	}
	return s.vm.ToValue(d)
}
