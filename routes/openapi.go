package routes

import (
	_ "embed"
	"net/http"
	"strconv"
)

// openAPI is the OpenAPI 3.1 description of every route, kept in the
// repository beside the code (routes/openapi.json) and checked against
// the router both ways by a test; the REST tests validate their requests
// and answers with it.
//
//go:embed openapi.json
var openAPI []byte

// handleOpenAPI is GET /openapi.json: the description, for clients
// generated from it, GPT actions and agent frameworks. It names routes,
// never a conversation, so it needs no credential.
func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(openAPI)))
	h.Set("Cache-Control", "no-cache")
	if r.Method == http.MethodHead {
		return
	}
	w.Write(openAPI)
}
