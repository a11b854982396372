// Package routes is the HTTP adapter of convfiles, built on gorilla/mux:
// browser links to files (GET /files/{conversation_id}/{name...}), health,
// and the JSON error envelope every endpoint answers failures with. Handlers
// parse the request, call a files.Space, and respond; they hold no file
// logic of their own.
package routes
