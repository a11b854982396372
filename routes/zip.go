package routes

import (
	"net/http"
	"path"
	"strings"

	"convfiles/auth"
	"convfiles/ops"
)

// handleZip is GET /api/conversations/{conversation}/zip?path=a.csv&path=reports&base=:
// the files and folders named, as one zip archive, streamed as it is
// built (ops.PlanZip bounds it before the first byte; ops.WriteZip builds
// it with the standard library's archive/zip). Entries are named from
// base, the folder they were chosen in. A failure part-way breaks the
// connection, so a client never keeps a truncated archive as whole.
func (s *Server) handleZip(w http.ResponseWriter, r *http.Request) {
	conv, err := pathVar(r, "conversation")
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	sp, err := s.open(r.Context(), conv, auth.Read)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	defer sp.Close()
	q := r.URL.Query()
	in := ops.ZipIn{Paths: q["path"], Base: q.Get("base")}
	plan, err := ops.PlanZip(r.Context(), sp, in)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", disposition(zipName(conv, in), "application/zip", true))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	if err := ops.WriteZip(r.Context(), sp, plan, w); err != nil {
		if r.Context().Err() == nil {
			s.log.Error("zip", "conversation", conv, "err", err)
		}
		panic(http.ErrAbortHandler)
	}
}

// zipName is the archive's file name: the one file or folder chosen, else
// the folder they were chosen in, else the conversation.
func zipName(conv string, in ops.ZipIn) string {
	name := conv
	switch {
	case len(in.Paths) == 1:
		name = path.Base(strings.TrimSuffix(in.Paths[0], "/"))
	case in.Base != "" && in.Base != "." && in.Base != "/":
		name = path.Base(strings.TrimSuffix(in.Base, "/"))
	}
	return name + ".zip"
}
