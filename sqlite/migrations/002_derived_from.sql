-- The ID of the file a derived file was made from (a conversion, a
-- resize, a split), '' for files that were uploaded or created.
ALTER TABLE files ADD COLUMN derived_from TEXT NOT NULL DEFAULT '';
