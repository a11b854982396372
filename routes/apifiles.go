package routes

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"convfiles/auth"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/ops"

	"github.com/gorilla/mux"
)

// pathVarRaw returns a route variable as it was sent.
func pathVarRaw(r *http.Request, key string) string { return mux.Vars(r)[key] }

// unescape decodes a percent-encoded path segment once.
func unescape(s string) (string, error) { return url.PathUnescape(s) }

// fileByID finds the file of the {id} route variable and opens its
// conversation. With live, a deleted file is not found. The caller must
// close the Space.
func (s *Server) fileByID(r *http.Request, live bool) (files.Record, *engine.Space, error) {
	id, err := pathVar(r, "id")
	if err != nil {
		return files.Record{}, nil, err
	}
	rec, err := s.store.FileByID(r.Context(), id)
	if err == nil && live && rec.Deleted != nil {
		err = files.E("find", files.KindNotFound, id, "the file was deleted; GET /api/files/"+id+"/versions lists what can be restored", nil)
	}
	if err != nil {
		return rec, nil, err
	}
	need := auth.Read
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		need = auth.Write
	}
	sp, err := s.open(r.Context(), rec.Conversation, need)
	if files.KindOf(err) == files.KindNotFound {
		// Another tenant's file answers as an unknown ID does.
		err = files.E("find", files.KindNotFound, id, "no file has this ID", nil)
	}
	return rec, sp, err
}

// withFile runs fn on the file of the request, answering errors.
func (s *Server) withFile(w http.ResponseWriter, r *http.Request, live bool, fn func(files.Record, *engine.Space) (any, error)) {
	s.answer(w, r, func() (any, error) {
		rec, sp, err := s.fileByID(r, live)
		if err != nil {
			return nil, err
		}
		defer sp.Close()
		return fn(rec, sp)
	})
}

func (s *Server) handleFileInfo(w http.ResponseWriter, r *http.Request) {
	s.withFile(w, r, false, func(rec files.Record, sp *engine.Space) (any, error) {
		vs, err := sp.Versions(r.Context(), rec.ID)
		return map[string]any{"file": s.fileJSON(rec), "versions": len(vs)}, err
	})
}

func (s *Server) handleDeleteFile(w http.ResponseWriter, r *http.Request) {
	s.withFile(w, r, true, func(rec files.Record, sp *engine.Space) (any, error) {
		if _, err := ops.Delete(r.Context(), ops.Env{Space: sp}, ops.IDIn{ID: rec.ID}); err != nil {
			return nil, err
		}
		return map[string]any{"deleted": true, "id": rec.ID}, nil
	})
}

// moveBody reads {"name": "…", "replace": false} from a request body of
// at most 64 KiB.
func moveBody(r *http.Request) (string, bool, error) {
	var body struct {
		Name    *string `json:"name"`
		Replace bool    `json:"replace"`
	}
	raw, err := readJSONBody(r, `{"name": "new name.txt"}`)
	if err != nil {
		return "", false, err
	}
	if json.Unmarshal(raw, &body) != nil || body.Name == nil {
		return "", false, files.E("read request", files.KindInvalid, "", `send a JSON body like {"name": "new name.txt"}, with "replace": true to replace a file of that name`, nil)
	}
	return *body.Name, body.Replace, nil
}

// move runs the copy or rename operation on the request's file, as
// {"name", "replace"} asks.
func (s *Server) move(w http.ResponseWriter, r *http.Request, op func(context.Context, ops.Env, ops.MoveIn) (ops.IDName, error)) {
	s.withFile(w, r, true, func(rec files.Record, sp *engine.Space) (any, error) {
		to, replace, err := moveBody(r)
		if err != nil {
			return nil, err
		}
		moved, err := op(r.Context(), ops.Env{Space: sp}, ops.MoveIn{ID: rec.ID, NewName: to, Replace: replace})
		if err != nil {
			return nil, err
		}
		after, err := sp.Record(r.Context(), moved.ID)
		return map[string]any{"file": s.fileJSON(after)}, err
	})
}

func (s *Server) handleRename(w http.ResponseWriter, r *http.Request) { s.move(w, r, ops.Rename) }

func (s *Server) handleCopy(w http.ResponseWriter, r *http.Request) { s.move(w, r, ops.Copy) }

func (s *Server) handleVersions(w http.ResponseWriter, r *http.Request) {
	s.withFile(w, r, false, func(rec files.Record, sp *engine.Space) (any, error) {
		vs, err := sp.Versions(r.Context(), rec.ID)
		if err != nil {
			return nil, err
		}
		type versionJSON struct {
			files.Version
			DownloadURL string `json:"download_url"`
			RestoreURL  string `json:"restore_url"`
		}
		out := make([]versionJSON, len(vs))
		for i, v := range vs {
			base := apiURL(s.links, "/api/files/"+rec.ID+"/versions/"+strconv.Itoa(v.Version))
			out[i] = versionJSON{Version: v, DownloadURL: base + "/download", RestoreURL: base + "/restore"}
		}
		return map[string]any{"file": s.fileJSON(rec), "versions": out}, nil
	})
}

func versionVar(r *http.Request) (int, error) {
	raw := pathVarRaw(r, "version")
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 {
		return 0, files.E("find version", files.KindInvalid, raw, "a version is a positive number; GET …/versions lists them", nil)
	}
	return n, nil
}

func (s *Server) handleRestore(w http.ResponseWriter, r *http.Request) {
	s.withFile(w, r, false, func(rec files.Record, sp *engine.Space) (any, error) {
		n, err := versionVar(r)
		if err != nil {
			return nil, err
		}
		if _, err := ops.Restore(r.Context(), ops.Env{Space: sp}, ops.RestoreIn{ID: rec.ID, Version: n}); err != nil {
			return nil, err
		}
		after, err := sp.Record(r.Context(), rec.ID)
		return map[string]any{"file": s.fileJSON(after), "restored": n}, err
	})
}
