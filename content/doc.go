// Package content turns bytes into typed values an agent can use: Text,
// Image (with its size in pixels), PDF (page count and extracted text) and
// File for everything else. The kind is decided by magic bytes first, the
// file extension second and a UTF-8 check last. The package never touches
// paths: callers hand it bytes they have read through a engine.Space.
//
// content works on bytes: it must never import files, the engine or a
// door.
package content
