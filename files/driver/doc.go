// Package driver is the storage seam of convfiles, in the manner of
// gocloud's blob/driver and database/sql/driver: the interfaces an index
// (Index, Tx, FileIndex, EventLog) and a blob store (Blobs, ObjectStore)
// satisfy, and the helpers every index shares (ApplyChange, RunReconcile,
// ScanSizes). Every call takes a context, and no type of an
// implementation crosses it.
//
// The engine is written against these interfaces only; the
// implementations (sqlite, postgres, s3blobs, and the engine's own folder
// on disk) import the domain (package files) and this package, and never
// each other. The conformance suites in files/driver/indextest and
// files/driver/blobtest run against every implementation.
//
// driver must never import an implementation, the engine, a SQL driver or
// a door; it holds no SQL text (internal/sqltext holds what both SQL
// indexes share).
package driver
