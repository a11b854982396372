-- Usage: the bytes and live files each conversation holds (live files
-- plus kept versions), kept by triggers in the same transaction as the
-- rows they count. A quota check reads one row, and every process that
-- opens this index shares it.
-- The triggers insert a missing row with NOT EXISTS, not INSERT OR
-- IGNORE: an outer statement's conflict clause would override theirs.
CREATE TABLE usage (
    conversation TEXT PRIMARY KEY,
    bytes        INTEGER NOT NULL DEFAULT 0,
    files        INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

INSERT INTO usage (conversation, bytes, files)
SELECT c, SUM(b), SUM(n) FROM (
    SELECT conversation AS c, SUM(size) AS b, COUNT(*) AS n FROM files WHERE deleted_on IS NULL GROUP BY conversation
    UNION ALL
    SELECT conversation, SUM(size), 0 FROM versions GROUP BY conversation
) GROUP BY c;

CREATE TRIGGER usage_file_insert AFTER INSERT ON files WHEN NEW.deleted_on IS NULL BEGIN
    INSERT INTO usage (conversation) SELECT NEW.conversation
        WHERE NOT EXISTS (SELECT 1 FROM usage WHERE conversation = NEW.conversation);
    UPDATE usage SET bytes = bytes + NEW.size, files = files + 1 WHERE conversation = NEW.conversation;
END;

CREATE TRIGGER usage_file_delete AFTER DELETE ON files WHEN OLD.deleted_on IS NULL BEGIN
    UPDATE usage SET bytes = bytes - OLD.size, files = files - 1 WHERE conversation = OLD.conversation;
END;

CREATE TRIGGER usage_file_update AFTER UPDATE OF size, deleted_on, conversation ON files BEGIN
    UPDATE usage SET bytes = bytes - OLD.size, files = files - 1
        WHERE conversation = OLD.conversation AND OLD.deleted_on IS NULL;
    INSERT INTO usage (conversation) SELECT NEW.conversation
        WHERE NEW.deleted_on IS NULL AND NOT EXISTS (SELECT 1 FROM usage WHERE conversation = NEW.conversation);
    UPDATE usage SET bytes = bytes + NEW.size, files = files + 1
        WHERE conversation = NEW.conversation AND NEW.deleted_on IS NULL;
END;

CREATE TRIGGER usage_version_insert AFTER INSERT ON versions BEGIN
    INSERT INTO usage (conversation) SELECT NEW.conversation
        WHERE NOT EXISTS (SELECT 1 FROM usage WHERE conversation = NEW.conversation);
    UPDATE usage SET bytes = bytes + NEW.size WHERE conversation = NEW.conversation;
END;

CREATE TRIGGER usage_version_delete AFTER DELETE ON versions BEGIN
    UPDATE usage SET bytes = bytes - OLD.size WHERE conversation = OLD.conversation;
END;

CREATE TRIGGER usage_version_update AFTER UPDATE OF size, conversation ON versions BEGIN
    UPDATE usage SET bytes = bytes - OLD.size WHERE conversation = OLD.conversation;
    INSERT INTO usage (conversation) SELECT NEW.conversation
        WHERE NOT EXISTS (SELECT 1 FROM usage WHERE conversation = NEW.conversation);
    UPDATE usage SET bytes = bytes + NEW.size WHERE conversation = NEW.conversation;
END;
