package routes

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"convfiles/auth"
	"convfiles/files"

	"github.com/gorilla/mux"
)

// maxBody bounds a request body of the code routes: 10 MiB of code may
// take six times as much once JSON-escaped.
const maxBody = 6*MaxCodeBytes + 64<<10

func (s *Server) registerCodeRoutes(r *mux.Router) {
	r.HandleFunc("/workspace", timed(s.needs(auth.Execute, s.handleWorkspaceSave))).Methods(http.MethodPut)
	r.HandleFunc("/execute", timed(s.needs(auth.Execute, s.handleExecute))).Methods(http.MethodPost)
	r.HandleFunc("/lint", timed(s.needs(auth.Execute, s.handleLint))).Methods(http.MethodPost)
}

// codeName is the file saved code of codeID lives in: in the folder of
// the principal's namespace, so no credential reads or overwrites code
// that another one saved.
func codeName(ctx context.Context, codeID string) string {
	return auth.FromContext(ctx).Namespace() + codeID + ".ts"
}

// decodeBody reads a JSON object body of at most maxBody bytes.
func decodeBody(w http.ResponseWriter, r *http.Request) (map[string]any, *fieldError) {
	if fe := requireJSON(r); fe != nil {
		return nil, fe
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.UseNumber()
	var body map[string]any
	if err := dec.Decode(&body); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, &fieldError{status: 413, message: "Request body exceeds maximum allowed size",
				details: map[string]any{"maxSize": maxBody}}
		}
		if bodyStalled(r) {
			return nil, &fieldError{status: http.StatusRequestTimeout, message: stalledMessage}
		}
		return nil, &fieldError{status: 400, message: "Invalid JSON in request body", details: map[string]any{"reason": err.Error()}}
	}
	if body == nil {
		return nil, &fieldError{status: 400, message: "Invalid JSON in request body", details: map[string]any{"reason": "the body must be a JSON object"}}
	}
	return body, nil
}

func writeFieldError(w http.ResponseWriter, e *fieldError) {
	if e.status == http.StatusRequestTimeout {
		w.Header().Set("Connection", "close")
		writeJSON(w, e.status, envelope{Error: &errorBody{Type: "RequestTimeout", Message: e.message}})
		return
	}
	writeJSON(w, e.status, envelope{Error: &errorBody{Type: "ValidationError", Message: e.message, Details: e.details}})
}

// saveResult is the result of PUT /workspace, as seed 002 defines it.
type saveResult struct {
	CodeID   string `json:"codeId"`
	FilePath string `json:"filePath"`
	Size     int64  `json:"size"`
}

// handleWorkspaceSave is PUT /workspace: {codeId, code} saved atomically as
// {codeId}.ts in the workspace folder, markdown fences removed.
func (s *Server) handleWorkspaceSave(w http.ResponseWriter, r *http.Request) {
	if !s.admit(w, r) {
		return
	}
	body, ferr := decodeBody(w, r)
	if ferr != nil {
		s.rejectSave(w, ferr)
		return
	}
	rawID, hasID := body["codeId"]
	if ferr := validateCodeID(rawID, hasID); ferr != nil {
		s.rejectSave(w, ferr)
		return
	}
	codeID := rawID.(string)
	rawCode, hasCode := body["code"]
	code, ferr := validateCode(rawCode, hasCode)
	if ferr != nil {
		s.rejectSave(w, ferr)
		return
	}
	name := codeName(r.Context(), codeID)
	if ok, wait := s.limits.codeID.allow(name); !ok {
		tooMany(w, "codeId "+codeID, s.rates.PerCodeID, wait)
		return
	}
	code = extractFence(code)
	info, err := s.work.WriteBytes(r.Context(), name, []byte(code), files.WriteOptions{})
	if err != nil {
		s.log.Error("workspace save failed", "codeId", codeID, "err", err)
		writeJSON(w, http.StatusInternalServerError, envelope{Error: &errorBody{Type: "InternalError", Message: "Failed to save file",
			Details: map[string]any{"reason": files.MessageOf(err)}}})
		return
	}
	path := s.work.HostPath(name)
	if info.Replaced >= 0 {
		s.log.Warn("workspace overwrite", "codeId", codeID, "oldSize", info.Replaced, "newSize", info.Size)
	}
	s.log.Info("workspace save", "codeId", codeID, "size", info.Size, "path", path)
	if s.auth != nil {
		// A hosted tenant learns nothing of the host's folders: the path
		// is the code's within the workspace.
		path = "/workspace/" + name
	}
	writeResult(w, saveResult{CodeID: codeID, FilePath: path, Size: info.Size})
}

func (s *Server) rejectSave(w http.ResponseWriter, e *fieldError) {
	s.log.Warn("workspace validation failed", "reason", e.details["reason"], "value", fmt.Sprint(e.details["value"]), "status", e.status)
	writeFieldError(w, e)
}

// loadCode returns the code of a request: inline code, or the saved
// {codeId}.ts. It answers 400 or 404 itself and returns ok=false then.
func (s *Server) loadCode(w http.ResponseWriter, r *http.Request, body map[string]any) (code, filename string, ok bool) {
	rawID, hasID := body["codeId"]
	rawCode, hasCode := body["code"]
	switch {
	case hasID && hasCode:
		writeFieldError(w, invalid("Give codeId or code, not both", "codeId", rawID, "codeId and code are exclusive"))
		return "", "", false
	case !hasID && !hasCode:
		writeFieldError(w, invalid("codeId is required", "codeId", nil, "give the codeId of saved code, or the code itself"))
		return "", "", false
	case hasCode:
		c, ferr := validateCode(rawCode, true)
		if ferr != nil {
			writeFieldError(w, ferr)
			return "", "", false
		}
		return extractFence(c), "inline.ts", true
	}
	if ferr := validateCodeID(rawID, true); ferr != nil {
		writeFieldError(w, ferr)
		return "", "", false
	}
	filename = codeName(r.Context(), rawID.(string))
	f, _, err := s.work.Open(r.Context(), filename)
	if err != nil {
		if files.KindOf(err) == files.KindNotFound {
			writeJSON(w, http.StatusNotFound, envelope{Error: &errorBody{Type: "FileNotFoundError",
				Message: "Code file not found: " + rawID.(string),
				Details: map[string]any{"codeId": rawID, "reason": "no code is saved under this codeId; save it first with PUT /workspace"}}})
			return "", "", false
		}
		writeError(w, r, s.log, err)
		return "", "", false
	}
	defer f.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(f); err != nil {
		writeError(w, r, s.log, err)
		return "", "", false
	}
	return b.String(), filename, true
}
