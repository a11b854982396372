-- Files: seed 004's agent_files columns, plus the conversation, the
-- content's SHA-256, a version number, where the bytes live (blob: an
-- object's key, '' when they live at the file's name) and the stored
-- modification time. Times are Unix nanoseconds, exact as SQLite's. A
-- deleted file keeps its row (deleted_on set) while it has versions.
-- Names sort by code point (COLLATE "C"), as the SQLite index sorts them.
CREATE TABLE files (
    id                text PRIMARY KEY,
    conversation      text NOT NULL,
    name              text COLLATE "C" NOT NULL,
    mime_type         text NOT NULL DEFAULT '',
    size              bigint NOT NULL,
    sha256            text NOT NULL DEFAULT '',
    version           integer NOT NULL,
    source            text NOT NULL,
    source_session_id text NOT NULL DEFAULT '',
    derived_from      text NOT NULL DEFAULT '',
    blob              text NOT NULL DEFAULT '',
    created_on        bigint NOT NULL,
    modified_on       bigint NOT NULL,
    deleted_on        bigint,
    disk_time         bigint NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX files_live_name ON files (conversation, name) WHERE deleted_on IS NULL;
CREATE INDEX files_name ON files (conversation, name, deleted_on);
CREATE INDEX files_live_size ON files (conversation, size, name) WHERE deleted_on IS NULL;
CREATE INDEX files_live_modified ON files (conversation, modified_on, name) WHERE deleted_on IS NULL;
CREATE INDEX files_blob ON files (blob) WHERE blob <> '';

-- Versions: earlier contents kept on overwrite and delete.
CREATE TABLE versions (
    file_id      text NOT NULL REFERENCES files (id) ON DELETE CASCADE,
    version      integer NOT NULL,
    conversation text NOT NULL,
    name         text COLLATE "C" NOT NULL,
    mime_type    text NOT NULL DEFAULT '',
    size         bigint NOT NULL,
    sha256       text NOT NULL DEFAULT '',
    blob         text NOT NULL DEFAULT '',
    saved_on     bigint NOT NULL,
    kept_on      bigint NOT NULL,
    reason       text NOT NULL,
    PRIMARY KEY (file_id, version)
);
CREATE INDEX versions_conversation ON versions (conversation);
CREATE INDEX versions_blob ON versions (blob) WHERE blob <> '';

-- Usage: the bytes and live files of each conversation (live files plus
-- kept versions), kept by triggers in the same transaction as the rows
-- they count. Every replica's quota check reads this one row.
CREATE TABLE usage (
    conversation text PRIMARY KEY,
    bytes        bigint NOT NULL DEFAULT 0,
    files        bigint NOT NULL DEFAULT 0
);

CREATE FUNCTION usage_add(conv text, b bigint, n bigint) RETURNS void LANGUAGE sql AS $$
    INSERT INTO usage (conversation, bytes, files) VALUES (conv, b, n)
    ON CONFLICT (conversation) DO UPDATE SET bytes = usage.bytes + b, files = usage.files + n;
$$;

CREATE FUNCTION usage_files() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_on IS NULL THEN
        PERFORM usage_add(OLD.conversation, -OLD.size, -1);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.deleted_on IS NULL THEN
        PERFORM usage_add(NEW.conversation, NEW.size, 1);
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION usage_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM usage_add(OLD.conversation, -OLD.size, 0);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        PERFORM usage_add(NEW.conversation, NEW.size, 0);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER usage_files AFTER INSERT OR DELETE OR UPDATE OF size, deleted_on, conversation ON files
    FOR EACH ROW EXECUTE FUNCTION usage_files();
CREATE TRIGGER usage_versions AFTER INSERT OR DELETE OR UPDATE OF size, conversation ON versions
    FOR EACH ROW EXECUTE FUNCTION usage_versions();

-- Events: the history server-sent events resume from (Last-Event-ID) on
-- any replica. Sequence numbers are handed out in commit order (see
-- insertEvent), and every commit that adds events notifies the channel
-- convfiles_events, which every replica listens on.
CREATE TABLE events (
    seq               bigint PRIMARY KEY,
    conversation      text NOT NULL,
    type              text NOT NULL,
    file_id           text NOT NULL DEFAULT '',
    name              text NOT NULL DEFAULT '',
    size              bigint NOT NULL DEFAULT 0,
    mime_type         text NOT NULL DEFAULT '',
    source_session_id text NOT NULL DEFAULT '',
    renamed_from      text NOT NULL DEFAULT '',
    time              bigint NOT NULL
);
CREATE INDEX events_conversation ON events (conversation, seq);

-- The last sequence number handed out: one row, locked by the
-- transaction that adds events until it commits.
CREATE TABLE event_seq (one boolean PRIMARY KEY DEFAULT true CHECK (one), seq bigint NOT NULL);
INSERT INTO event_seq (seq) VALUES (0);

-- API keys of hosted mode: the SHA-256 of each key, never the key; its
-- scopes by name; its binding (a tenant prefix, or conversation IDs one
-- per line); when it was made and revoked (Unix nanoseconds).
CREATE TABLE api_keys (
    id            text PRIMARY KEY,
    name          text NOT NULL,
    hash          text NOT NULL,
    scopes        text NOT NULL,
    tenant        text NOT NULL DEFAULT '',
    conversations text NOT NULL DEFAULT '',
    created_on    bigint NOT NULL,
    revoked_on    bigint
);
