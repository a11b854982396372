-- Files: seed 004's agent_files columns, plus the conversation, the
-- content's SHA-256, a version number and the disk's modification time.
-- A deleted file keeps its row (deleted_on set) while it has versions.
CREATE TABLE files (
    id                TEXT PRIMARY KEY,
    conversation      TEXT NOT NULL,
    name              TEXT NOT NULL,
    mime_type         TEXT NOT NULL DEFAULT '',
    size              INTEGER NOT NULL,
    sha256            TEXT NOT NULL DEFAULT '',
    version           INTEGER NOT NULL,
    source            TEXT NOT NULL,
    source_session_id TEXT NOT NULL DEFAULT '',
    disk_path         TEXT NOT NULL,
    created_on        TEXT NOT NULL,
    modified_on       TEXT NOT NULL,
    deleted_on        TEXT,
    disk_time         INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX files_live_name ON files (conversation, name) WHERE deleted_on IS NULL;
CREATE INDEX files_name ON files (conversation, name, deleted_on);
CREATE INDEX files_live_size ON files (conversation, size, name) WHERE deleted_on IS NULL;
CREATE INDEX files_live_modified ON files (conversation, modified_on, name) WHERE deleted_on IS NULL;

-- Versions: earlier contents kept on overwrite and delete.
CREATE TABLE versions (
    file_id      TEXT NOT NULL REFERENCES files (id) ON DELETE CASCADE,
    version      INTEGER NOT NULL,
    conversation TEXT NOT NULL,
    name         TEXT NOT NULL,
    mime_type    TEXT NOT NULL DEFAULT '',
    size         INTEGER NOT NULL,
    sha256       TEXT NOT NULL DEFAULT '',
    saved_on     TEXT NOT NULL,
    kept_on      TEXT NOT NULL,
    reason       TEXT NOT NULL,
    PRIMARY KEY (file_id, version)
);
CREATE INDEX versions_conversation ON versions (conversation);

-- Events: the history server-sent events resume from (Last-Event-ID), and
-- how changes made by another process (the CLI) reach the server.
CREATE TABLE events (
    seq               INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation      TEXT NOT NULL,
    type              TEXT NOT NULL,
    file_id           TEXT NOT NULL DEFAULT '',
    name              TEXT NOT NULL DEFAULT '',
    size              INTEGER NOT NULL DEFAULT 0,
    mime_type         TEXT NOT NULL DEFAULT '',
    source_session_id TEXT NOT NULL DEFAULT '',
    renamed_from      TEXT NOT NULL DEFAULT '',
    time              TEXT NOT NULL
);
CREATE INDEX events_conversation ON events (conversation, seq);
