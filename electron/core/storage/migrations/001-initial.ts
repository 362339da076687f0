// The first schema of sitewalk.db. Every change of a stored row gets the next value of the folder's
// revision (meta 'revision'), written in the same transaction, so another process reading the same
// folder finds what changed since it last looked with one indexed query per table.
export const INITIAL = `
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT;
INSERT INTO meta (key, value) VALUES ('revision', 0), ('next_seq', 1);

-- Outbox entries. The columns are what queries select on; body is the whole entry as JSON, read
-- back through one schema (outbox/types.ts).
CREATE TABLE outbox (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  profile_id TEXT NOT NULL,
  state TEXT NOT NULL,
  lane TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  rev INTEGER NOT NULL,
  -- The process sending it (state 'sending' only), and since when.
  claimed_by TEXT,
  claimed_at INTEGER,
  body TEXT NOT NULL
) STRICT;
CREATE INDEX outbox_unfinished ON outbox (seq) WHERE state <> 'done';
CREATE INDEX outbox_history ON outbox (profile_id, updated_at DESC, seq DESC) WHERE state = 'done';
CREATE INDEX outbox_counts ON outbox (profile_id, state);
CREATE INDEX outbox_rev ON outbox (rev);
CREATE INDEX outbox_lane ON outbox (lane, updated_at);

-- A profile's pause (quota used up, key refused).
CREATE TABLE pauses (
  profile_id TEXT PRIMARY KEY,
  reason TEXT NOT NULL,
  message TEXT NOT NULL,
  since INTEGER NOT NULL,
  rev INTEGER NOT NULL
) STRICT;

-- The site register: one row per site, the known fields in columns (the site list reads them all).
CREATE TABLE sites (
  local_id TEXT PRIMARY KEY,
  profile_id TEXT NOT NULL,
  site_id TEXT,
  origin TEXT NOT NULL,
  name TEXT,
  height REAL,
  latitude REAL,
  longitude REAL,
  description TEXT,
  grp TEXT,
  pin_style INTEGER,
  applied_seq INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  lost TEXT,
  draft TEXT,
  rev INTEGER NOT NULL
) STRICT;
CREATE INDEX sites_by_site_id ON sites (profile_id, site_id) WHERE site_id IS NOT NULL;
CREATE INDEX sites_rev ON sites (rev);

-- What was removed, and when (revision): how other processes learn of a removal.
CREATE TABLE removed (
  what TEXT NOT NULL,
  key TEXT NOT NULL,
  rev INTEGER NOT NULL,
  PRIMARY KEY (what, key)
) STRICT;
CREATE INDEX removed_rev ON removed (rev);

-- The processes that have the folder open: a claim of a process that stopped beating is taken back.
CREATE TABLE peers (
  id TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  beat_at INTEGER NOT NULL
) STRICT;

-- The last rendering-quality list each profile received (shown offline).
CREATE TABLE qualities (
  profile_id TEXT PRIMARY KEY,
  body TEXT NOT NULL
) STRICT;
`;
