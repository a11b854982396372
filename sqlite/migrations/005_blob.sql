-- Where the bytes live when the blobs are an object store: the object's
-- path, '' when they live at the file's name (or in the versions folder).
ALTER TABLE files ADD COLUMN blob TEXT NOT NULL DEFAULT '';
ALTER TABLE versions ADD COLUMN blob TEXT NOT NULL DEFAULT '';
