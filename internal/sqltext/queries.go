package sqltext

// The queries both SQL indexes run, written once with "?" placeholders:
// SQLite takes them as they are, PostgreSQL through Numbered.
const (
	// FileColumns are the columns a file's record is read from, in the
	// order each index's scanRecord reads them.
	FileColumns = `id, conversation, name, mime_type, size, sha256, version, source,
	source_session_id, created_on, modified_on, deleted_on, disk_time, derived_from, blob`
	// LookupFile is the live file (conversation, name).
	LookupFile = `SELECT ` + FileColumns + ` FROM files WHERE conversation = ? AND name = ? AND deleted_on IS NULL`
	// FileByID is a file by ID, live or deleted.
	FileByID = `SELECT ` + FileColumns + ` FROM files WHERE id = ?`
	// VersionsOf lists a file's kept versions, newest first.
	VersionsOf = `SELECT file_id, version, name, mime_type, size, sha256, saved_on, kept_on, reason, blob
		FROM versions WHERE file_id = ? ORDER BY version DESC`
	// DistinctConversations lists the conversations of the files table
	// by skipping from one to the next along the index on
	// (conversation, …): a probe per conversation, where SELECT DISTINCT
	// reads every row.
	DistinctConversations = `WITH RECURSIVE c(id) AS (
	SELECT (SELECT MIN(conversation) FROM files)
	UNION ALL
	SELECT (SELECT MIN(conversation) FROM files WHERE conversation > c.id) FROM c WHERE c.id IS NOT NULL)
SELECT id FROM c WHERE id IS NOT NULL`

	// Events is a page of the event feed after a number; EventsOf is the
	// same for one conversation.
	Events   = `SELECT ` + eventColumns + ` FROM events WHERE seq > ? ORDER BY seq LIMIT ?`
	EventsOf = `SELECT ` + eventColumns + ` FROM events WHERE seq > ? AND conversation = ? ORDER BY seq LIMIT ?`
	// EventRange is the oldest event kept and the newest.
	EventRange = `SELECT (SELECT MIN(seq) FROM events), (SELECT MAX(seq) FROM events)`
	// PruneEvents drops the events numbered up to a bound.
	PruneEvents  = `DELETE FROM events WHERE seq <= ?`
	eventColumns = `seq, conversation, type, file_id, name, size, mime_type, source_session_id, renamed_from, time`

	// LiveStates is what a reconciliation compares the walk with: each
	// live file's name, ID, size and time on disk.
	LiveStates = `SELECT name, id, size, disk_time FROM files WHERE conversation = ? AND deleted_on IS NULL`
	// KeptVersions lists the versions a conversation keeps.
	KeptVersions = `SELECT file_id, version FROM versions WHERE conversation = ?`
	// TouchDiskTime records a file's new time on disk and modification.
	TouchDiskTime = `UPDATE files SET disk_time = ?, modified_on = ? WHERE id = ?`
	// DropVersion forgets one kept version.
	DropVersion = `DELETE FROM versions WHERE file_id = ? AND version = ?`
	// DropBareDeleted forgets the deleted files of a conversation with no
	// version left to restore.
	DropBareDeleted = `DELETE FROM files WHERE conversation = ? AND deleted_on IS NOT NULL
			AND NOT EXISTS (SELECT 1 FROM versions WHERE file_id = files.id)`

	// MarkDeleted makes a live file deleted, at a time.
	MarkDeleted = `UPDATE files SET deleted_on = ? WHERE id = ? AND deleted_on IS NULL`
	// DropIfBare forgets a deleted file with no version left (its ID twice).
	DropIfBare = `DELETE FROM files WHERE id = ? AND deleted_on IS NOT NULL AND NOT EXISTS (SELECT 1 FROM versions WHERE file_id = ?)`
	// DropConversationVersions forgets every version of a conversation.
	DropConversationVersions = `DELETE FROM versions WHERE conversation = ?`
	// DropConversationFiles forgets every file of a conversation.
	DropConversationFiles = `DELETE FROM files WHERE conversation = ?`
	// DropConversationUsage forgets what a conversation held.
	DropConversationUsage = `DELETE FROM usage WHERE conversation = ?`
	// UsageOf is what a conversation holds: its bytes and live files.
	UsageOf = `SELECT bytes, files FROM usage WHERE conversation = ?`
	// KeepVersion records a kept version, or replaces the row of the same number.
	KeepVersion = `INSERT INTO versions (file_id, version, conversation, name, mime_type, size, sha256,
			saved_on, kept_on, reason, blob) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (file_id, version) DO UPDATE SET conversation = excluded.conversation, name = excluded.name,
			mime_type = excluded.mime_type, size = excluded.size, sha256 = excluded.sha256, saved_on = excluded.saved_on,
			kept_on = excluded.kept_on, reason = excluded.reason, blob = excluded.blob`

	// KeyColumns are the columns an API key's row is read from.
	KeyColumns = `id, name, hash, scopes, tenant, conversations, created_on, revoked_on, max_bytes`
	// InsertKey stores a new key's row.
	InsertKey = `INSERT INTO api_keys (id, name, hash, scopes, tenant, conversations, created_on, max_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
	// KeyByID is one key's row.
	KeyByID = `SELECT ` + KeyColumns + ` FROM api_keys WHERE id = ?`
	// AllKeys is every key's row, oldest first.
	AllKeys = `SELECT ` + KeyColumns + ` FROM api_keys ORDER BY created_on, id`
	// RevokeKey marks a key revoked, once: a second revocation keeps the
	// first time.
	RevokeKey = `UPDATE api_keys SET revoked_on = COALESCE(revoked_on, ?) WHERE id = ?`
)
