// Package files is the domain of convfiles: what a conversation's files
// are and what can be done to them. It holds conversation IDs and file
// names and the rules that validate them, globs, the records, versions
// and events a store reports, the limits that bound a conversation and
// an execution, the one error type every door maps to its own answer,
// and Ops: every operation a door performs on one conversation's files,
// each taking the context of the request it serves.
//
// Package engine implements Ops over the storage seam (package
// files/driver), whose implementations (sqlite, postgres, s3blobs) are
// peers. Nothing here knows about HTTP, SQL, storage or a script engine:
// files must never import another convfiles package but the small
// internal helpers (internal/bytesize, internal/textdiff).
package files
