// Package engine is how convfiles keeps a conversation's files: the
// Store that owns the data folder and hands out a Space per conversation,
// and the Space that implements files.Ops. It keeps the rules (names,
// limits, quotas, versions, compare-and-commit, events) over any index
// and blob store of the storage seam (package files/driver).
//
// Its rooms, by file:
//   - the Space's reads: space.go, readfile.go, lines.go, tail.go,
//     listing.go, versions.go, catalog.go, edit.go (byte ranges, copy,
//     rename, search);
//   - the write engine: writer.go (a file being written), commit.go and
//     objectcommit.go (compare and commit), txn.go (one change), groupcommit.go
//     (many changes, one index commit), rebase.go, namelock.go, reaper.go;
//   - the local folder as a blob store: disk.go, diskblobs.go,
//     diskwriter.go, rootcache.go, cleanmark.go, reconcile.go;
//   - followers of the event feed (follow.go), transfers between stores
//     (transfer.go, transfercopy.go), and the report of what each
//     committed change touched (txn.go, files.WithTouches).
//
// engine must never import a storage implementation (sqlite, postgres,
// s3blobs), a SQL driver, HTTP or a script engine: cmd/convfiles wires an
// implementation in through Options.
package engine
