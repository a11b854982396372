-- API keys of hosted mode: the SHA-256 of each key, never the key; its
-- scopes by name; its binding (a tenant prefix, or conversation IDs one
-- per line); when it was made and revoked (Unix nanoseconds).
CREATE TABLE api_keys (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    hash          TEXT NOT NULL,
    scopes        TEXT NOT NULL,
    tenant        TEXT NOT NULL DEFAULT '',
    conversations TEXT NOT NULL DEFAULT '',
    created_on    INTEGER NOT NULL,
    revoked_on    INTEGER
) WITHOUT ROWID;
