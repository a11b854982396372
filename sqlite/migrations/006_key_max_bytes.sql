-- A key's quota: the bytes all the conversations it reaches may hold
-- together (0: no quota of its own).
ALTER TABLE api_keys ADD COLUMN max_bytes INTEGER NOT NULL DEFAULT 0;
