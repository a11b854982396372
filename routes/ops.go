package routes

import (
	"errors"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/gorilla/mux"

	"convfiles/files"
	"convfiles/ops"
)

// maxOpBody bounds the JSON input of one operation: a write carries the
// file's content, base64 or escaped.
const maxOpBody = 96 << 20

// registerOps adds every operation of the table to the REST API:
// GET /api/ops lists them, POST /api/conversations/{c}/ops/{name} runs
// one with its input as a JSON object.
func (s *Server) registerOps(api *mux.Router) {
	api.HandleFunc("/ops", s.handleListOps).Methods(http.MethodGet)
	api.HandleFunc("/conversations/{conversation}/ops/{op}", s.handleOp).Methods(http.MethodPost)
}

// opJSON describes an operation to a REST client.
type opJSON struct {
	Name   string   `json:"name"`
	Effect string   `json:"effect"`
	Params []string `json:"params"`
	Script string   `json:"script"`
	Tool   string   `json:"tool"`
}

var effectNames = map[ops.Effect]string{ops.Reads: "reads", ops.Writes: "writes", ops.Destroys: "destroys"}

func (s *Server) handleListOps(w http.ResponseWriter, r *http.Request) {
	all := ops.All()
	out := make([]opJSON, len(all))
	for i, op := range all {
		script := "files." + op.JS
		if op.Group != "" {
			script = "files." + op.Group + "." + op.JS
		}
		out[i] = opJSON{Name: op.Name, Effect: effectNames[op.Effect], Params: op.Params, Script: script, Tool: op.Tool}
	}
	writeResult(w, map[string]any{"ops": out})
}

func (s *Server) handleOp(w http.ResponseWriter, r *http.Request) {
	if fe := requireJSON(r); fe != nil {
		writeFieldError(w, fe)
		return
	}
	s.answer(w, r, func() (any, error) { return s.runOp(w, r) })
}

func (s *Server) runOp(w http.ResponseWriter, r *http.Request) (any, error) {
	conv, err := pathVar(r, "conversation")
	if err != nil {
		return nil, err
	}
	name, err := pathVar(r, "op")
	if err != nil {
		return nil, err
	}
	op, ok := ops.Lookup(name)
	if !ok {
		return nil, files.E("call", files.KindNotFound, name, "there is no such operation; GET /api/ops lists them", nil)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxOpBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, files.E(name, files.KindTooLarge, "", "the request body is larger than 96 MiB; upload large files with POST /api/files/upload", nil)
	case err != nil:
		return nil, err
	case !utf8.Valid(body):
		return nil, files.E(name, files.KindInvalid, "", "the body is not valid UTF-8", nil)
	}
	sp, err := s.open(r.Context(), conv, op.Effect.Scope())
	if err != nil {
		return nil, err
	}
	defer sp.Close()
	env := ops.Env{Space: sp, Formats: s.formats, MaxText: ops.MaxTextAnswer,
		Link: func(name string) string { return s.links.URL(conv, name) }}
	res, err := op.Call(r.Context(), env, body)
	if err != nil {
		return nil, err
	}
	if op.Wrap != "" {
		res = map[string]any{op.Wrap: res}
	}
	return res, nil
}
