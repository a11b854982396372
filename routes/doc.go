// Package routes is the HTTP door of convfiles, built on gorilla/mux:
// browser links to files (GET /files/{conversation_id}/{name...}), the REST
// API under /api (files, conversations, versions, operations of the ops
// table, live events), the Workspace API (/workspace, /execute, /lint),
// the web page, health, metrics, and the OpenAPI description of all of it
// (/openapi.json). It mounts the MCP door (package routes/mcp) at /mcp
// without importing it.
//
// Every request is checked before a handler runs: its origin (hosts,
// CORS), its credential in hosted mode, a deadline of its own, bounds on
// its body. Handlers parse the request, call one operation or a
// engine.Space, and answer in the JSON envelope; they hold no file logic of
// their own, and never reach a storage implementation or SQL.
//
// routes must never import routes/mcp or a storage implementation
// (cmd/convfiles wires one in).
package routes
